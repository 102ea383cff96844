"""Item lists from layouts other than lists and tables: a single pick described by its attributes or
named by its lead, prose ordinals (首先是 X / 其次是 …), bold names in prose, region lines that list
places (乌布地区：梯田、圣泉寺), picks enumerated inline after a stated count; and the lead reader
every layout shares."""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import cache

from gate import lexicon
from gate.lexicon import LINE_BREAK, charset, source
from gate.text.cues import (
    BOLD_LEAD_RE,
    attribute,
    day,
    notes_label,
    notes_lead,
    section_label,
    stated_count,
    strip_marker,
)
from gate.text.deferred import deferred
from gate.text.entry import make_item, referring
from gate.text.item import Item, ItemList
from gate.text.markdown import Block, MarkdownDoc
from gate.text.names import kept_bold, namelike
from gate.text.ordinals import ordinal_paragraphs
from gate.text.prices import find_prices
from gate.text.runs import Unit
from gate.text.spoken import spoken_pick
from gate.text.terms import fold


def lead_units(all_units: list[Unit], line: int) -> list[Unit]:
    """The text right before the candidate at ``line``, nearest first, back to the previous block
    (two lines at most)."""
    lead: list[Unit] = []
    for index in range(bisect_left(all_units, line, key=lambda u: u.line) - 1, -1, -1):  # units are in line order
        unit = all_units[index]
        if unit.kind not in ("line", "heading") or len(lead) == 2:
            break
        lead.append(unit)
    return lead

last_bold_re = deferred(lambda: rf"\*\*(?P<bold>[^*\n]{{2,40}})\*\*\s*{charset('colon')}?\s*$")

_recommend_label_re = deferred(lambda: rf"^{source('recommendation_label')}\s*{charset('colon')}\s*")

def single_pick(doc: MarkdownDoc, all_units: list[Unit], candidates: list[ItemList]) -> ItemList | None:
    """One recommendation without a list of items: the heading or bold line before a list of its
    attributes ("### 推荐：MacBook Air M3" then "- **价格**：…"); else the prose's bold names —
    several that read as product or place names are the items, otherwise the first bold span and
    the rest of its paragraph is the one."""
    for candidate in candidates:
        lead = lead_units(all_units, candidate.line)
        if lead and not notes_lead(lead[0].text):
            last = last_bold_re().search(lead[0].raw.strip())  # "……我会选 **联想 ThinkPad X1**：" names it last
            head = last.group("bold") if last else _recommend_label_re().sub("", strip_marker(lead[0].text)).strip()
            body = "\n".join(item.text for item in candidate.items)
            bold = head if lead[0].kind == "heading" else None
            return ItemList("single", (make_item(head, f"{head}\n{body}", lead[0].line, bold),), lead[0].line)
    if candidates:
        return None
    ordinals = ordinal_paragraphs(doc)
    if ordinals is not None:
        return ordinals
    named = _prose_names(doc)
    if len({fold(name) for _, name in named if namelike(name)}) >= 2:
        return _prose_items(doc, [(b, n) for b, n in named if namelike(n)])
    if named:
        block, name = named[0]
        start = block.text.find(name)
        text = "\n".join([block.text[start:] if start >= 0 else block.text, *referring(doc, block)])
        return ItemList("single", (make_item(text.split("\n", 1)[0], text, block.line, name),), block.line)
    return spoken_pick(doc)


# A bold span that reads as a product or place name: Latin letters or digits in it (AirPods Pro 2),
# or a shop or place ending (…店, …馆, …寺, …梯田). Bold advice ("**一定要**提前订") is not one.


def _prose_names(doc: MarkdownDoc) -> list[tuple[Block, str]]:
    """The bold names and 《titles》 the prose recommends, in order: not set aside by their clause,
    not notes labels or attributes."""
    found = []
    for block in doc.flow:
        if block.kind != "paragraph":
            continue
        raw = "\n".join(doc.lines[block.line - 1 : block.end_line])
        found += [(block, name) for name in kept_bold(raw, titles=True) if not notes_label(name) and not attribute(name)]
    return found

def _prose_items(doc: MarkdownDoc, named: list[tuple[Block, str]]) -> ItemList:
    """Several products or places named in bold in prose ("**Bose QC Ultra** 和 **AirPods Pro 2** 都
    稳妥"): each is an item, its text running to the next name or the end of its paragraph."""
    items: list[Item] = []
    seen: set[str] = set()
    cursor: dict[int, int] = {}  # per paragraph: where the last name was found
    for index, (block, name) in enumerate(named):
        start = block.text.find(name, cursor.get(id(block), 0))
        start = start if start >= 0 else cursor.get(id(block), 0)
        cursor[id(block)] = start + len(name)
        if fold(name) in seen:
            continue
        seen.add(fold(name))
        after = named[index + 1] if index + 1 < len(named) and named[index + 1][0] is block else None
        end = block.text.find(after[1], start + len(name)) if after else -1
        text = block.text[start:end if end >= 0 else len(block.text)].strip()
        items.append(make_item(text.split("\n", 1)[0], text, block.line, name))
    return ItemList("prose", tuple(items), named[0][0].line)

# 「乌布地区：德格拉朗梯田、圣泉寺、乌布皇宫」: a region label and the places it lists, the places
# being the items. Only a label that names a region, so "**Bose**：降噪强、续航长" stays one item.
# A region label: ends in a place word ("乌布地区" "北部与离岛"), or holds a direction or an area
# anywhere in its few characters ("南部海滩" "市区景点").
_region_re = deferred(lambda: rf"{source('region_suffix')}$|^.{{0,4}}{source('region_word')}")

_LABEL_MAX = 12

_ENTRY_MAX = 16

_bracketed_re = deferred(lambda: rf"{charset('label_open')}{charset('label_open', 'label_close', negated=True)}{{1,10}}"
                                 rf"{charset('label_close')}")


@cache
def _marks(*names: str) -> str:
    """The characters of single-character classes, as one string."""
    return "".join(word for name in names for word in lexicon.words(name))


def _colon(text: str) -> int:
    """Where the first colon (full- or half-width) is, or -1."""
    return min((i for i in (text.find(colon) for colon in lexicon.words("colon")) if i >= 0), default=-1)

def _label_and_entries(line: str) -> tuple[str, str] | None:
    """"乌布地区：A、B、C" or "【近郊周末】A、B" as (label, entries); None for any other line."""
    stripped = line.strip()
    bracket = _bracketed_re().match(stripped)
    cut = _colon(line)
    if bracket is not None and (cut < 0 or cut > bracket.end()):
        label, entries = bracket.group(0), stripped[bracket.end():].strip().rstrip(_marks("full_stop")).strip()
    elif cut > 0:
        label, entries = line[:cut].strip(), line[cut + 1:].strip().rstrip(_marks("full_stop")).strip()
    else:
        return None
    if (len(label) > _LABEL_MAX or any(mark in label for mark in _marks("comma", "full_stop", "semicolon"))
            or any(mark in entries for mark in _marks("full_stop", "semicolon", "colon"))):
        return None
    return label, entries

_entry_split_re = deferred(lambda: charset("enumeration_comma", also="/"))


def _enumerated(label: str, entries: str, line: int, *, alone: bool = False) -> list[Item] | None:
    """The places a region or bracketed label lists ("乌布地区：A、B、C", "【近郊周末】A、B"), or None
    when it is no such line. ``alone``: one entry is enough (beside other such lines)."""
    label = re.sub(r"[*_]", "", strip_marker(label)).strip()
    parts = [part.strip() for part in _entry_split_re().split(entries)]
    labelled = _region_re().search(label) is not None or _bracketed_re().fullmatch(label) is not None
    if not labelled or len(parts) < (1 if alone else 2) or any(
            not p or len(p) > _ENTRY_MAX or any(comma in p for comma in _marks("comma")) for p in parts):
        return None
    return [Item(name=part, description="", text=part, line=line, prices=tuple(find_prices(part))) for part in parts]

def spot_items(items: tuple[Item, ...]) -> tuple[Item, ...] | None:
    """A list whose every entry is a region and the places it lists: the places, all of them."""
    found: list[Item] = []
    for item in items:
        # joined by either colon: the line splits at the first colon, the name's own or this one
        split = _label_and_entries(f"{item.name}:{item.description}") if item.description else None
        spots = _enumerated(*split, item.line) if split else None
        if spots is None:
            return None
        found += spots
    return tuple(found) if found else None

def enumeration_lines(doc: MarkdownDoc) -> ItemList | None:
    """Lines that list places under region labels, with no list around them."""
    found: list[Item] = []
    lines = 0
    for number, line in enumerate(doc.lines, 1):
        split = _label_and_entries(line)
        spots = _enumerated(*split, number, alone=True) if split else None
        if spots:
            found += spots
            lines += 1
    # one line of one place is no enumeration; several lines, or one listing several, are
    return ItemList("enumeration", tuple(found), found[0].line) if found and (lines > 1 or len(found) > 1) else None

# After a lead that states its count and a colon, the picks named in one sentence, 、 between them.
_INLINE_PART_MAX = 40

_sentence_end_re = deferred(lambda: charset("full_stop", "exclamation_mark", "question_mark", also=LINE_BREAK))


def stated_inline(doc: MarkdownDoc) -> ItemList | None:
    """Picks enumerated inline after a lead stating their count ("我会推荐这 4 款：联想小新 Pro 14（约
    5499 元）、华为 MateBook 14（¥5,999）、…。"): each part is an item."""
    for block in doc.flow:
        if block.kind != "paragraph":
            continue
        cut = _colon(block.text)
        lead = block.text[:cut] if cut > 0 else ""
        if not lead or stated_count(lead) is None or notes_lead(lead):
            continue
        sentence = _sentence_end_re().split(block.text[cut + 1:], maxsplit=1)[0]
        parts = [part.strip() for part in lexicon.pattern("enumeration_comma").split(sentence)]
        if len(parts) >= 2 and all(0 < len(part) <= _INLINE_PART_MAX for part in parts):
            return ItemList("enumeration", tuple(make_item(part, part, block.line) for part in parts), block.line)
    return None

# A lead that announces several ("推荐下面几款 **高性价比** 笔记本：") does not name one pick.


def attributes_only(candidate: ItemList) -> bool:
    """Every entry named by an attribute ("**价格**：7999 元" "**优点**：…"): one item described,
    not items. An itinerary's days ("**第一天**") are its items."""
    items = candidate.items
    return (bool(items) and all(item.named and attribute(item.name) for item in items)
            and not all(day(item.name) for item in items))


_clause_mark_re = deferred(lambda: charset("comma", "full_stop", "colon"))


def clauses_of_a_named_lead(candidate: ItemList, all_units: list[Unit]) -> bool:
    """Unnamed clauses ("1.09kg，碳纤维机身") right under a bold line that is only a name ("**联想
    ThinkPad X1 Carbon Gen 12**"): one item described, not items."""
    lead = lead_units(all_units, candidate.line)
    if not lead or not candidate.items or any(item.named for item in candidate.items):
        return False
    head = lead[0].raw.strip()
    bold = BOLD_LEAD_RE.match(head)
    if bold is not None and bold.end() == len(head):
        name = bold.group("bold")
        return (not notes_label(name) and not section_label(name)
                and _clause_mark_re().search(name) is None)
    # "如果只推荐一款，我会选 **联想 ThinkPad X1 Carbon 2024**：" — one pick named at the end of its lead
    last = last_bold_re().search(head)
    return (last is not None and namelike(last.group("bold"))
            and lexicon.pattern("plural_lead").search(head[: last.start()]) is None)
