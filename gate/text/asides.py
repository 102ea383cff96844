"""What is written around the picks rather than as picks: a plan before them ("我先梳理一下思路："),
an offer of more help after them ("如果需要，我还可以："), an entry that is an offer ("以上都不合适时告诉
我预算"), and a correction that gives the picks again ("等等，……最终推荐："). Each is a lexicon class:
``plan_lead_in``, ``follow_up_offer``, ``correction_lead``."""

from __future__ import annotations

from dataclasses import replace

from gate import lexicon
from gate.text.alternatives import name_like
from gate.text.deferred import deferred
from gate.text.item import Item, ItemList
from gate.text.layouts import lead_units
from gate.text.prices import find_prices
from gate.text.runs import Unit


def led_by(text: str, word_class: str) -> bool:
    return lexicon.pattern(word_class).search(text) is not None


def aside(lead: list[Unit]) -> bool:
    """A lead-in to a plan ("我先梳理一下思路：") or to an offer of more help ("如果需要，我还可以：")."""
    return any(led_by(u.text, "plan_lead_in") or led_by(u.text, "follow_up_offer") for u in lead)


def corrected_list(main: list[ItemList], all_units: list[Unit]) -> ItemList | None:
    """The last candidate after a correction ("等等，……去掉它，最终推荐：", "更正：", "Update:"): it
    replaces the draft before it."""
    corrected = [c for c in main if any(led_by(u.text, "correction_lead") for u in lead_units(all_units, c.line))]
    earlier = [c for c in main if corrected and c.line < corrected[-1].line]
    return corrected[-1] if corrected and earlier else None


def without_offers(items: tuple[Item, ...]) -> tuple[Item, ...]:
    """``items`` without the entries that offer more help instead of a pick ("以上都不合适时告诉我预算");
    one that names a pick after its label ("以上都不合适时可选：漫步者 NeoBuds Pro 2") is that pick."""
    kept = []
    for item in items:
        head = item.name or item.text.split("\n", 1)[0]
        if not led_by(head, "follow_up_offer"):
            kept.append(item)
            continue
        parts = [part.strip(" *") for part in _colon_re().split(item.text.split("\n", 1)[0])]
        named = next((part for part in parts[1:] if part), "")
        if named and name_like(named) and not find_prices(named) and not led_by(named, "follow_up_offer"):
            kept.append(replace(item, name=named))
    return tuple(kept) or items


_colon_re = deferred(lambda: lexicon.charset("colon"))
