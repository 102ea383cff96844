"""What an answer recommends after its main list: 「另外，X 也值得考虑」, 「备选：…」, 「🎁 彩蛋推荐」,
「预算更充足的话，可以看看 X」, or a later section of other picks after 「为你推荐 3 款：」.

Each is a recommended item like those of the main list, so counts, prices and forbidden terms see
it. A later passage is read as one only when it opens with a word that adds a recommendation and
recommends something in it (a bold name, or the name a label such as 「备选：」 gives); a passage that
only speaks of the items already listed, sets a name aside (「不推荐**X**」) or closes the answer
(「以上三款……」) adds nothing, and nor does a name already listed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gate.text.cues import CLOSING_RE, attribute, notes_label
from gate.text.item import Item, ItemList
from gate.text.markdown import MarkdownDoc
from gate.text.names import kept_bold, split_name
from gate.text.prices import find_prices
from gate.text.terms import fold

# Words that open a passage adding to the recommendations. Matched at the start of a passage (after
# emoji and marks), each alternative a literal or a short bounded class: linear.
_ADDING_RE = re.compile(
    r"^[\W_]{0,8}(?:最后|对了|顺带|哦对)?[，,]?\s*(?:另外|此外|还有|再推荐|再补充|补充|加推|额外|顺便|备选|候补|候选|彩蛋|bonus|番外|"
    r"其[他它](?:选择|推荐|备选|可选)|更多(?:选择|推荐)|也可以考虑|也可考虑|也值得|平替|进阶|升级|"
    r"如果[^，,。\n]{0,8}?(?:预算|时间)|(?:预算|时间)[^，,。\n]{0,4}?(?:充足|宽裕|多|高|允许|够|充裕)|想要更好|追求更好|"
    r"土豪|不差钱)",
    re.IGNORECASE,
)
# A label that is itself a recommendation ("备选：森海塞尔 Momentum 4", "🎁 彩蛋推荐：…").
_LABEL_RE = re.compile(
    r"^[\W_]{0,8}(?:最后|对了)?(?:备选|候补|候选|彩蛋|bonus|番外|加推|平替|进阶|升级|再?补充一[个家款处本部]|补充推荐|再加一[个家款处])"
    r"[^：:，,。\n]{0,8}[：:]\s*(?P<rest>.+)$",
    re.IGNORECASE,
)
# A passage that adds a recommendation says so (推荐, 值得, 可以看看 …); one that only adds a fact does not.
_RECOMMENDS_RE = re.compile(r"(?<![不别])(?:推荐|考虑|看看|值得|不错|首选|可以选|入手|试试|选择)")
_NAME_END_RE = re.compile(r"[，,。；;！!？?（(]")


# Unmarked names: "另外，森海塞尔 Momentum 4 也值得考虑", "还可以看看新疆的喀纳斯，…". Bounded windows.
_SUBJECT_RE = re.compile(r"^[^，,。\n]{0,14}[，,]\s*(?P<name>[^，,。；;！!？?\n]{2,30}?)\s*(?:也|同样|还)(?:很|挺|非常)?"
                         r"(?:值得|不错|可以考虑|推荐|是不错)")
_OBJECT_RE = re.compile(r"(?:可以看看|看看|考虑一下|可以考虑|也可以去|可以去|试试|入手|值得一提的是|要提的是|推荐的是)\s*"
                        r"(?P<name>[^，,。；;！!？?\n]{2,24})")
_NOT_A_NAME_RE = re.compile(r"^(?:这|那|它|以上|上面|上述|其他|其它|别的|更多|一下|其中)")


def _names(raw: str) -> list[str]:
    """The names a passage recommends: its bold spans kept by their clauses, else the name a label
    gives ("备选：森海塞尔 Momentum 4，…" → 森海塞尔 Momentum 4), else an unmarked name it recommends
    ("另外，X 也值得考虑", "还可以看看 X")."""
    names = kept_bold(raw)
    if names:
        return names
    first = raw.split("\n", 1)[0]
    label = _LABEL_RE.match(first)
    if label is not None:
        end = _NAME_END_RE.search(label.group("rest"))
        name = (label.group("rest")[: end.start()] if end else label.group("rest")).strip()
        return [name] if 0 < len(name) <= 40 else []
    unmarked = _SUBJECT_RE.match(first) or _OBJECT_RE.search(first)
    name = unmarked.group("name").strip() if unmarked else ""
    return [name] if name and not _NOT_A_NAME_RE.match(name) else []


_COMPARED = 50
"""Names a new one is compared with for containment ("WH-1000XM5" is "索尼 WH-1000XM5"); beyond
them only by equality, so a hostile answer with thousands of names stays linear."""


def _new(name: str, known: list[str], seen: set[str]) -> bool:
    folded = fold(name)
    return bool(folded) and folded not in seen and not notes_label(name) and not attribute(name) and not any(
        folded in other or other in folded for other in known[:_COMPARED])


def _passage_item(name: str, text: str, line: int) -> Item:
    start = text.find(name)
    body = text[start:] if start >= 0 else text
    name_part, description = split_name(body.split("\n", 1)[0], name)
    return Item(name=name_part or name, description=description, text=body, line=line,
                prices=tuple(find_prices(body)), named=True)


def _adds(text: str) -> bool:
    """A passage that opens by adding a recommendation and recommends in it."""
    first = text.lstrip()
    if CLOSING_RE.match(first) or _ADDING_RE.match(first) is None:
        return False
    return _LABEL_RE.match(first.split("\n", 1)[0]) is not None or _RECOMMENDS_RE.search(first) is not None


def extra_items(doc: MarkdownDoc, main: ItemList, later: Sequence[ItemList], leads: dict[int, str]) -> list[Item]:
    """The items recommended after ``main``: those of later candidates whose lead-in adds to the
    recommendations (``leads``: a candidate's line → the text right before it), and the names of
    later paragraphs that add one."""
    end = max((item.line + item.text.count("\n") for item in main.items), default=main.line)
    known = [fold(item.name) for item in main.items]
    seen = set(known)
    found: list[Item] = []

    def add(item: Item) -> None:
        found.append(item)
        known.append(fold(item.name))
        seen.add(fold(item.name))

    for candidate in later:
        lead = leads.get(candidate.line, "")
        if candidate.line > end and lead and _adds(lead):
            for item in candidate.items:
                if _new(item.name, known, seen):
                    add(item)
    for block in doc.flow:  # list paragraphs are inside list blocks: only free paragraphs are read here
        if block.kind != "paragraph" or block.line <= end:
            continue
        raw = "\n".join(doc.lines[block.line - 1 : block.end_line])
        if _adds(raw):
            for name in _names(raw):
                if _new(name, known, seen):
                    add(_passage_item(name, block.text, block.line))
    return found
