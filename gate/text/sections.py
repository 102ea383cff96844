"""What a run of hand-written entries is to the lists inside its sections: items itself, an outline
of one item, categories whose lists hold the items (乌布 · 南部海滩 …), or open; the lists it groups,
and the sub-entries of a run whose entries head sub-points."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Literal

from gate.text.cues import (
    aside_label,
    attribute,
    day,
    excluded_lead,
    notes_label,
    strip_marker,
)
from gate.text.markdown import ListBlock
from gate.text.names import named
from gate.text.runs import Entry, Run, is_label, unit_bold
from gate.text.terms import fold

Role = Literal["items", "outline", "categories", "open"]


def _aside(entry: Entry) -> bool:
    """A section of notes, advice, an overview or options set aside ("### 不推荐的几款（避坑）"), whose
    list holds no items."""
    head = entry.bold or entry.head
    return notes_label(head) or excluded_lead(head) or (is_label(entry) and aside_label(head))


def _owned(run: Run, lists: list[ListBlock]) -> dict[int, list[ListBlock]]:
    """The lists inside each entry's section, by entry line (sections of notes left out)."""
    owned: dict[int, list[ListBlock]] = {}
    first = bisect_left(lists, run.line, key=lambda b: b.line)  # lists are in line order
    last = bisect_right(lists, run.end, key=lambda b: b.line)
    for block in lists[first:last]:
        entry = run.owner(block.line)
        if entry is not None and block.line > entry.line and not _aside(entry):
            owned.setdefault(entry.line, []).append(block)
    return owned


def grouped_lists(run: Run, lists: list[ListBlock]) -> list[ListBlock]:
    """The lists of a "categories" run that together hold the items."""
    return [block for blocks in _owned(run, lists).values() for block in blocks]


def _distinct_groups(names: dict[int, list[str | None]]) -> bool:
    """Two or more sections each listing named entries, no name recurring and none an attribute
    ("价格" "优点"): the sections group the items (乌布 · 南部海滩 …), not describe one each."""
    if len(names) < 2 or any(name is None for group in names.values() for name in group):
        return False
    sets = [set(group) for group in names.values()]
    if any(a & b for i, a in enumerate(sets) for b in sets[i + 1 :]):
        return False
    return not any(attribute(name) for group in sets for name in group if name)


def sub_run(run: Run) -> Run | None:
    """The sub-headings of a heading run's sections merged into one run, when they name distinct
    entries ("## 乌布地区 / ### 德格拉朗梯田 …"): the headings are regions, the sub-headings the
    items. None when fewer than two sections have sub-headings, or their names recur or are
    attributes ("### 优点" "### 地址")."""
    if run.outline or any(e.level == 0 for e in run.entries) or all(day(e.head) for e in run.entries):
        return None
    deeper = [u.level for e in run.entries for u in e.body if u.kind == "heading" and u.level > e.level]
    if not deeper:
        return None
    level = min(deeper)
    entries: list[Entry] = []
    names: dict[int, list[str | None]] = {}
    for entry in run.entries:
        body = entry.body
        starts = [i for i, u in enumerate(body) if u.kind == "heading" and u.level == level]
        for position, start in enumerate(starts):
            unit = body[start]
            end = starts[position + 1] if position + 1 < len(starts) else len(body)
            sub = Entry(entry.unit, strip_marker(unit.text), unit.line, level, unit_bold(unit), len(entries) + 1)
            sub.body = [u for u in body[start + 1 : end] if not (u.kind == "heading" and u.level < level)]
            entries.append(sub)
            names.setdefault(entry.line, []).append(fold(sub.bold or sub.head))
    if not _distinct_groups(names):
        return None
    return Run("headings", entries)


def role(run: Run, lists: list[ListBlock], runs: list[Run]) -> Role:
    """What a run is to the answer's items.

    items: its entries are the items and lists in their sections are sub-points · outline: its
    entries label sections whose lists hold the items · categories: group labels ("### 海鲜"
    "### 1. 乌布区域" "### 补充推荐") whose lists of distinct named entries together hold the
    items · open: undecided, so the run and the list in its one section both stand as candidates.
    """
    owned = _owned(run, lists)
    names = {
        line: [named(item.head.split("\n", 1)[0], item.bold) for b in bs for item in b.items]
        for line, bs in owned.items()
        if any(len(b.items) >= 2 for b in bs)
    }
    # Numbering that restarts in every section ("适合通勤：1. 2." / "适合运动：1.") groups its
    # entries, however few each section lists.
    restarted = {
        line: [named(item.head.split("\n", 1)[0], item.bold) for b in bs for item in b.items]
        for line, bs in owned.items()
    } if len(owned) >= 2 and all(any(b.ordered for b in bs) for bs in owned.values()) else {}
    # An itinerary's days ("### 第一天") stay its items, whatever their sections list.
    grouping = ((_distinct_groups(names) or _distinct_groups(restarted))
                and not all(day(e.head) for e in run.entries))
    if run.outline:
        return "categories" if grouping else "outline"
    if sub_run(run) is not None or grouping:
        return "categories"
    # Numbered lists of named entries inside the sections ("**💰 5000 元以内**" then "1. 荣耀 MagicBook
    # 14 —— 约 4,499 元"): the entries label groups of items. Numbered clauses ("1. 降噪最强") are
    # sub-points of the entries, which are the items.
    ordered = [b for bs in owned.values() for b in bs if b.ordered and len(b.items) >= 2]
    entries_inside = bool(ordered) and all(named(item.head.split("\n", 1)[0], item.bold) is not None
                                           for b in ordered for item in b.items)
    if run.lines_only and (run.kind == "numbered" or (run.kind == "bullets" and not (
            entries_inside and all(e.bold for e in run.entries)))):
        return "items"  # bullets are items, unless bold labels an emoji leads ("**💰 …**")
    within = runs[bisect_left(runs, run.line, key=lambda r: r.line) : bisect_right(runs, run.end, key=lambda r: r.line)]
    numbered_inside = any(
        other is not run and other.lines_only and other.kind == "numbered" and run.owner(other.line)
        for other in within  # runs are in line order
    )
    if numbered_inside or entries_inside:
        return "outline"  # numbered items inside each section: the sections group them
    if run.kind == "numbered" or not names:
        return "items"
    if any(name is None for group in names.values() for name in group):
        return "items"  # free-form sub-points ("龙虾很新鲜") describe their heading's item
    sets = [set(group) for group in names.values()]
    if len(sets) == 1:
        return "open"
    shared = any(a & b for i, a in enumerate(sets) for b in sets[i + 1 :])
    return "items" if shared else "categories"  # recurring keys (人均/地址) are attributes
