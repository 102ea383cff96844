"""The recommended items of an answer: entries of its main list, table, JSON array or numbering.

Candidates are the top-level Markdown lists (quoted ones too; an ordered list interrupted by prose
is merged back), the data rows of each table (its columns when it is transposed: "| 参数 | Bose |
AirPods |"), the elements of a JSON array (the whole answer, or a ```json block; YAML or TOML
records likewise), and runs of
hand-written entries (see :mod:`gate.text.runs`): numbered lines or headings ("1." without a space,
"1、", "一、", "第一家", "1️⃣"), bold-led paragraphs, bullet glyphs, same-level headings. Lists inside
an item's section are its sub-points, not candidates; lists under section labels ("一、推荐餐厅") or
group labels ("### 海鲜" "### 1. 乌布区域") are, merged when they list distinct named entries; so
are sub-headings under region headings ("## 乌布地区" / "### 德格拉朗梯田"). A candidate led by a
notes label ("注意事项：" "### 怎么选？" "以下几款已排除：") or by a line introducing advice, criteria,
a checklist or exclusions ("买之前可以留意这几点：" "下面这 3 款超出了预算，已经帮您去掉：") holds notes
and loses to any other; one whose entries are all attributes ("**价格**：…" "**优点**：…") describes
a single item. A candidate right after a lead-in announcing its count ("推荐这 3 款：") wins.
Otherwise the largest candidate wins, the earlier on a tie (a list before a transposed table),
unless it is a list of unnamed clauses after a list of named entries. With no list at all, a single
recommendation is the heading or bold line before its attributes, else the prose's first bold span.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, bisect_right
from dataclasses import replace

from gate.text.alternatives import expand as expand_alternatives
from gate.text.asides import aside, corrected_list, without_offers
from gate.text.cards import read_cards
from gate.text.cues import attribute, notes_label, stated_count, strip_marker
from gate.text.cutoff import cut_off
from gate.text.dataanswer import data_records
from gate.text.entities import read as read_entities
from gate.text.entities import recommended
from gate.text.entry import make_item
from gate.text.extras import extra_items
from gate.text.item import AlsoRead, Item, ItemList
from gate.text.jsonanswer import main_array, parse_answer
from gate.text.layouts import (
    attributes_only,
    clauses_of_a_named_lead,
    enumeration_lines,
    lead_units,
    single_pick,
    spot_items,
    stated_inline,
)
from gate.text.markdown import Block, ListBlock, MarkdownDoc
from gate.text.names import namelike, split_name
from gate.text.runs import Run, Unit, find_runs, units
from gate.text.sections import grouped_lists, role, sub_run
from gate.text.set_aside import checked, criteria, notes, questions, why_set_aside
from gate.text.tables import fenced_arrays, from_table, json_items
from gate.text.terms import fold


def _leading_bold(block: Block) -> str | None:
    return strip_marker(block.bold) if block.bold else None


def _from_list_items(blocks: list[Block]) -> list[Item]:
    return [make_item(b.head.split("\n", 1)[0], b.text, b.line, _leading_bold(b)) for b in blocks]


def _from_run(run: Run) -> list[Item]:
    items = []
    for entry in run.entries:
        body = "\n".join(unit.text for unit in entry.body if unit.text)
        text = "\n".join(part for part in (entry.head, body) if part)
        item = make_item(entry.head, text, entry.line, entry.bold)
        # A heading names its section ("### 1. Bose QuietComfort Ultra"), separator or not.
        items.append(replace(item, named=True) if entry.level else item)
    return items


_RUN_SOURCES = {"numbered": "numbered", "bold": "bold", "bullets": "bullets", "headings": "headings"}


# A nested list entry: indented, then its marker ("  - HOKA Clifton 9，约 1199 元").
_NESTED_ENTRY_RE = re.compile(r"^[ \t]{2,}(?:[-*+]|\d{1,2}[.)])[ \t]+(?P<head>\S.*)$")
_EMPHASIS_RE = re.compile(r"\*\*|__")
_LATIN_RE = re.compile(r"[A-Za-z]")  # a model's name; a need or a group ("日常训练、每周 20-40 公里") has none


def _nested_picks(entries: list[Block], lines: list[str]) -> list[Item] | None:
    """Entries that each name a group or a condition ("**刚开始跑、体重偏大**：优先缓震") over nested
    entries that each name a product or a place: the nested entries are the picks. ``None`` when any
    entry holds no nested list, names a pick itself, or holds one that is not a name."""
    picks: list[Item] = []
    for entry in entries:
        head = entry.head.split("\n", 1)[0]
        if _LATIN_RE.search(split_name(head, entry.bold)[0]):
            return None  # "**Bose QC Ultra**" over its qualities: a pick and its sub-points
        nested = [(number, _EMPHASIS_RE.sub("", found.group("head"))) for number in range(entry.line + 1, entry.end_line + 1)
                  if 0 < number <= len(lines) and (found := _NESTED_ENTRY_RE.match(lines[number - 1]))]
        items = [make_item(text, text, number) for number, text in nested]
        if not items or not all(namelike(item.name) and not attribute(item.name) for item in items):
            return None
        picks += items
    return picks


def _list_candidate(lists: list[ListBlock], lines: list[str] | None = None) -> ItemList:
    blocks = [item for block in lists for item in block.items]
    nested = _nested_picks(blocks, lines) if lines is not None else None
    return ItemList("list", tuple(nested or _from_list_items(blocks)), lists[0].line)


def _from_runs(runs: list[Run], lists: list[ListBlock]) -> tuple[list[tuple[ItemList, Run]], list[Run]]:
    """Candidates from runs (each with its run), and the runs whose sections hold sub-points."""
    found: list[tuple[ItemList, Run]] = []
    owners: list[Run] = []
    for run in runs:
        run_role = role(run, lists, runs)
        merged = sub_run(run) if run_role == "categories" else None
        if merged is not None:
            found.append((ItemList("headings", tuple(_from_run(merged)), merged.line), run))
        elif run_role == "categories":
            found.append((_list_candidate(grouped_lists(run, lists)), run))
        elif run_role in ("items", "open"):
            found.append((ItemList(_RUN_SOURCES[run.kind], tuple(_from_run(run)), run.line), run))
        if run_role in ("items", "categories"):
            owners.append(run)
    return found, owners


def _labels_of_tables(run: Run, tables: list[Block]) -> bool:
    """Every section of ``run`` holds a table of named entries, not of one item's attributes
    ("### 📱 主推 5 款" then a table of phones): the headings label the tables, whose rows are the items."""
    held: dict[int, list[Block]] = {}
    first = bisect_left(tables, run.line, key=lambda t: t.line)  # tables are in line order
    for table in tables[first : bisect_right(tables, run.end, key=lambda t: t.line)]:
        entry = run.owner(table.line)
        if entry is not None and table.line > entry.line and len(table.cells) > 2:
            held.setdefault(entry.line, []).append(table)
    return len(held) == len(run.entries) and not any(
        all(attribute(row[0]) for row in table.cells[1:] if row) for found in held.values() for table in found)


def _candidates(doc: MarkdownDoc, runs: list[Run]) -> list[ItemList]:
    lists = doc.lists()
    found, owners = _from_runs(runs, lists)
    all_tables = doc.tables()
    labels = {id(run) for run in owners if _labels_of_tables(run, all_tables)}
    owners = [run for run in owners if id(run) not in labels]
    found = [(candidate, source) for candidate, source in found if id(source) not in labels]

    # Two runs over the same labels (bold and emoji-led: "**🚇 适合通勤：**") may both group the lists
    # below them: a run is no owner of the candidate it yields itself.
    yielded = {(id(source), c.line) for c, source in found}
    covering = _covering(owners, [c.line for c, _ in found] + [b.line for b in lists] + [t.line for t in all_tables])

    def inside(line: int, source: Run | None = None) -> bool:
        return any(o is not source and o.owner(line) and (id(o), line) not in yielded for o in covering[line])

    candidates: list[ItemList] = []
    kept: set[tuple[int, tuple[Item, ...]]] = set()
    for candidate, source in found:
        if not inside(candidate.line, source) and (candidate.line, candidate.items) not in kept:
            kept.add((candidate.line, candidate.items))
            candidates.append(candidate)
    candidates += [_list_candidate([b], doc.lines) for b in lists if not inside(b.line)]
    candidates += fenced_arrays(doc)
    names = {fold(item.name) for c in candidates for item in c.items}
    tables = [from_table(t, names) for t in all_tables if len(t.cells) > 1 and not inside(t.line)]
    return sorted((_without_trailing_notes(c) for c in candidates + tables), key=lambda c: c.line)


def _covering(owners: list[Run], lines: list[int]) -> dict[int, list[Run]]:
    """For each of ``lines``, the owners whose span holds it below their first line. One sweep over
    both in line order: matching every candidate against every run was quadratic in an answer of
    many short runs ("1、… 5、" restarting a thousand times). Only a few runs (one per style) cover
    any one line."""
    by_start = sorted(owners, key=lambda o: o.line)
    active: list[tuple[int, int, Run]] = []  # a heap by the last line each covers
    found: dict[int, list[Run]] = {}
    started = 0
    for line in sorted(set(lines)):
        while started < len(by_start) and by_start[started].line < line:
            heapq.heappush(active, (by_start[started].end, started, by_start[started]))
            started += 1
        while active and active[0][0] < line:
            heapq.heappop(active)
        found[line] = [owner for _, _, owner in active]
    return found


def _without_trailing_notes(candidate: ItemList) -> ItemList:
    """A last entry named like a notes label ("**选购建议**：看预算") closes the list; it is no item."""
    items = list(candidate.items)
    while len(items) > 1 and items[-1].named and notes_label(items[-1].name):
        items.pop()
    return replace(candidate, items=tuple(items)) if len(items) < len(candidate.items) else candidate


def _named_entries(candidate: ItemList) -> bool:
    """Every entry named, and not all by attributes ("**预算**：3000" "**用途**：通勤")."""
    items = candidate.items
    return all(item.named for item in items) and not all(attribute(item.name) for item in items)


def _main(candidates: list[ItemList]) -> ItemList:
    """The largest candidate (the earlier on a tie, a list before a transposed table), unless it
    is a later list of unnamed clauses ("经常坐飞机选 Bose") after a list of named entries
    ("**Bose QC Ultra**：……"): then the named list."""
    best = max(candidates, key=lambda c: (len(c.items), not c.by_columns, -c.line))
    if best.source in ("list", "bullets") and not any(item.named for item in best.items):
        earlier = [c for c in candidates if c.line < best.line and len(c.items) >= 2 and _named_entries(c)]
        if earlier:
            return max(earlier, key=lambda c: (len(c.items), -c.line))
    return best


def _stated(candidates: list[ItemList], all_units: list[Unit]) -> ItemList | None:
    """The candidate right after a lead-in announcing its count ("推荐这 3 款：" then 3 entries),
    whatever larger list follows (must-order dishes, a packing list)."""
    for candidate in candidates:
        lead = lead_units(all_units, candidate.line)
        if lead and stated_count(lead[0].text) == len(candidate.items) and len(candidate.items) >= 2:
            return candidate
    return None


def extract(answer: str, doc: MarkdownDoc | None = None) -> ItemList:
    """The items of ``answer``'s main structure (see the module docstring)."""
    parsed = parse_answer(answer)
    if parsed.ok:
        array = main_array(parsed.value)
        return ItemList("json", tuple(json_items(array[1])) if array is not None else ())
    records = data_records(answer)
    if records is not None:  # YAML or TOML for the JSON asked: its records are still the picks
        return ItemList("records", tuple(json_items(records)))
    doc = doc or MarkdownDoc(answer)
    all_units = units(doc)
    runs = find_runs(doc, all_units)
    candidates = _candidates(doc, runs)
    hand = tuple(
        (r.line, r.kind) for r in runs if r.lines_only and r.kind in ("numbered", "bullets") and not r.outline
    )
    described = [c for c in candidates if not attributes_only(c) and not clauses_of_a_named_lead(c, all_units)]
    main = [c for c in described if c.items and not notes(all_units, c.line) and not questions(c)]
    ticked = [c for c in main if checked(c, doc)]  # "- ✅ 恰好 3 款": a checklist beside the picks
    main = [c for c in main if not any(c is t for t in ticked)] if len(ticked) < len(main) else main
    if not main and len(described) == len(candidates):  # only notes: read them, unless one item is described
        main = [c for c in described if not questions(c) and not criteria(all_units, c.line)
                and not aside(lead_units(all_units, c.line))]  # a plan or an offer of more help holds no picks
    if not main:
        enumeration = None if candidates else (enumeration_lines(doc) or stated_inline(doc))
        if enumeration is not None:
            return replace(enumeration, hand_lists=hand)
        single = single_pick(doc, all_units, [c for c in candidates if not questions(c) and not criteria(all_units, c.line)])
        if single is None:
            return ItemList("none", (), hand_lists=hand)
        extras = extra_items(doc, single, [], {}) if single.source == "single" else []
        picks, unsure = expand_alternatives(single.items)  # "首选 **A**…；备选 **B**…": both are picks
        return _with_entities(ItemList(single.source, picks, single.line, hand_lists=hand, unsure_picks=unsure,
                                       unread_picks=single.unread_picks),
                              extras, [], {})
    corrected = corrected_list(main, all_units)
    stated = None if corrected else _stated(main, all_units)
    best = corrected or stated or _main(main)
    chosen = ("the list a correction gives" if corrected else "a lead-in states their count" if stated
              else "the largest structure" if len(best.items) == max(len(c.items) for c in main)
              else "named entries, before a list of unnamed clauses")
    spots = spot_items(best.items)
    best = replace(best, items=spots) if spots else best
    # a draft the correction replaces recommends nothing of its own: what it listed and the final list
    # dropped is withdrawn
    rest = [c for c in candidates if c is not best and not (corrected is not None and c.line < corrected.line)]
    best = read_cards(best, doc)  # "🎧 Bose QC Ultra" / "💰 券后 ¥2,699｜…": one card, one pick
    picks, unsure = expand_alternatives(without_offers(best.items))  # "A 或 B 都行": two picks in one entry
    best = replace(best, items=picks, unsure_picks=unsure)
    leads = {c.line: " ".join(u.text for u in reversed(lead_units(all_units, c.line))) for c in rest}
    found = cut_off(ItemList(best.source, best.items, best.line, _also_read(candidates, best, corrected, all_units, doc),
                             hand, best.by_columns, chosen=chosen, unsure_picks=best.unsure_picks, unread_picks=best.unread_picks), answer)
    return _with_entities(found, extra_items(doc, best, rest, leads), rest, leads)


_ALSO_READ = 4  # the record names the largest few; the rest only add length


def _also_read(candidates: list[ItemList], best: ItemList, corrected: ItemList | None,
               all_units: list[Unit], doc: MarkdownDoc) -> tuple[AlsoRead, ...]:
    """The structures read beside ``best``, largest first, each with why it holds no picks."""
    others = sorted((c for c in candidates if c.line != best.line and c.items), key=lambda c: -len(c.items))
    found = []
    for candidate in others[:_ALSO_READ]:
        why = ("a draft the correction replaces" if corrected is not None and candidate.line < corrected.line
               else why_set_aside(candidate, all_units, doc) or "not the main structure")
        found.append(AlsoRead(candidate.source, candidate.line, len(candidate.items), why))
    return tuple(found)


def _with_entities(main: ItemList, added: list[Item], rest: list[ItemList], leads: dict[int, str]) -> ItemList:
    """``main`` with every entity the answer's structures name; its items the recommended ones."""
    entities = read_entities(main, added, rest, leads)
    items = recommended(entities)
    return replace(main, items=tuple(items), extras=len(items) - len(main.items), entities=entities)
