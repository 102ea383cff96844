"""One item built from an entry's head and text — its name, description and prices — and the
paragraphs that go on about a single pick."""

from __future__ import annotations

from gate.lexicon import charset, source
from gate.text.cues import strip_marker
from gate.text.deferred import deferred
from gate.text.item import Item
from gate.text.markdown import Block, MarkdownDoc
from gate.text.names import named, split_name
from gate.text.prices import find_prices

# "第一款是 Bose QC Ultra" once its ordinal is stripped: the copula is no part of the name.
_ordinal_copula_re = deferred(lambda: rf"^{source('copula')}(?=\s|[A-Za-z0-9])\s*")


# A bare amount standing first after a name, a clause of its own ("① 联想小新 Pro 14：5499，学生党闭眼入"):
# the price a social post or a terse list gives.
_lead_amount_re = deferred(lambda: rf"^\s*(?P<amount>\d[\d,]{{1,6}}(?:\.\d+)?)\s*"
                                   rf"(?:{charset('comma', 'semicolon', 'full_stop', 'enumeration_comma')}|$)")


def make_item(head: str, text: str, line: int, bold: str | None = None) -> Item:
    head = _ordinal_copula_re().sub("", strip_marker(head))
    name, first_rest = split_name(head, bold)
    body = text.split("\n", 1)[1] if "\n" in text else ""
    description = "\n".join(part for part in (first_rest, body.strip()) if part)
    is_named = named(head, bold) is not None
    prices = find_prices(text)
    lead = _lead_amount_re().match(first_rest) if not prices and is_named else None
    if lead is not None:
        prices = find_prices(lead.group("amount"), bare_number_is_price=True)
    return Item(name=name, description=description, text=text, line=line, prices=tuple(prices), named=is_named)


# A paragraph that goes on about the one recommendation ("这家是四合院式的京菜馆……人均 200-250 元").
_refers_back_re = deferred(lambda: rf"^\s*{source('refers_back')}")

def referring(doc: MarkdownDoc, block: Block) -> list[str]:
    """The paragraphs right after ``block`` that speak of what it recommends."""
    found: list[str] = []
    index = next((i for i, b in enumerate(doc.flow) if b is block), len(doc.flow))
    for following in doc.flow[index + 1:]:
        if following.kind != "paragraph" or not _refers_back_re().match(following.text):
            break
        found.append(following.text)
    return found
