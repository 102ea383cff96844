"""Picks spoken in plain prose, no markup: the clause after 我推荐 / 推荐您去 / 首推, after a condition
("如果你最看重降噪，选 Bose QC Ultra") or a backup after 可以考虑 — when it reads as a name (a shop, a
place, a model), each running to the next."""

from __future__ import annotations

from itertools import pairwise

from gate import lexicon
from gate.lexicon import LINE_BREAK, charset, source
from gate.text.deferred import deferred
from gate.text.entry import make_item, referring
from gate.text.item import ItemList
from gate.text.markdown import MarkdownDoc
from gate.text.names import namelike


# "我推荐京兆尹雍和宫店，四合院的环境…", "第二家可以考虑四季民福故宫店": the clause after a spoken
# recommendation, read as a name when it is one.
def _spoken() -> str:
    marks = ("comma", "full_stop", "semicolon", "colon", "exclamation_mark", "open_bracket", "close_bracket")
    name, branch = charset(*marks, also=LINE_BREAK, negated=True), charset(*marks, also=LINE_BREAK + r"\d", negated=True)
    return (rf"(?:{source('speaks_a_pick')}|{source('names_a_pick')})\s*"  # a branch may follow: "新荣记（新源南路店）"
            rf"(?P<name>{name}{{2,24}}(?:{charset('open_bracket')}{branch}{{1,12}}{charset('close_bracket')})?)")


_spoken_re = deferred(_spoken)


def _spoken_name(name: str) -> bool:
    return namelike(name) and lexicon.pattern("describes_a_kind").match(name) is None


# "推荐以下一家：" closing a paragraph: the next paragraph opens with the pick ("京兆尹（雍和宫店）。…").
_announces_re = deferred(lambda: rf"{source('speaks_a_pick')}"
                                 rf"{charset('comma', 'full_stop', 'colon', also=LINE_BREAK, negated=True)}{{0,12}}"
                                 rf"{charset('colon')}\s*$")
_first_clause_re = deferred(lambda: rf"^\s*(?P<name>[^\n]{{2,24}}?)(?:{charset('full_stop', 'comma', 'semicolon', 'colon')}|$)")


def _announced_pick(doc: MarkdownDoc) -> ItemList | None:
    """A paragraph announcing the pick, in a letter or a message, and the paragraph that names it."""
    for block, following in pairwise(doc.flow):
        if block.kind != "paragraph" or following.kind != "paragraph" or not _announces_re().search(block.text):
            continue
        first = _first_clause_re().match(following.text)
        if first is not None and _spoken_name(first.group("name")):
            name = first.group("name").strip()
            return ItemList("single", (make_item(name, following.text, following.line, name),), following.line)
    return None


def spoken_pick(doc: MarkdownDoc) -> ItemList | None:
    """The picks plain prose names after a spoken recommendation (no markup): shops, places, models —
    the first after 我推荐 / 首推, a backup after 可以考虑; each runs to the next; or the one a paragraph
    announces ("推荐以下一家：") and the next names."""
    announced = _announced_pick(doc)
    if announced is not None:
        return announced
    for block in doc.flow:
        found = [m for m in _spoken_re().finditer(block.text) if _spoken_name(m.group("name"))] \
            if block.kind == "paragraph" else []
        if not found:
            continue
        ends = [m.start() for m in found[1:]] + [len(block.text)]
        items = [make_item(m.group("name").strip(), block.text[m.start("name"):end], block.line, m.group("name").strip())
                 for m, end in zip(found, ends, strict=True)]
        items[-1] = make_item(items[-1].name, "\n".join([items[-1].text, *referring(doc, block)]), block.line, items[-1].name)
        return ItemList("single" if len(items) == 1 else "prose", tuple(items), block.line)
    return None
