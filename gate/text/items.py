"""The recommended items of an answer: entries of its main list, table, JSON array or numbering.

Candidates are the top-level Markdown lists (quoted ones too; an ordered list interrupted by prose
is merged back), the data rows of each table (its columns when it is transposed: "| 参数 | Bose |
AirPods |"), the elements of a JSON array (the whole answer, or a ```json block), and runs of
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

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace

from gate.text.cues import (
    BOLD_LEAD_RE,
    SECTION_LABEL_RE,
    attribute,
    criteria_lead,
    day,
    notes_label,
    notes_lead,
    stated_count,
    strip_marker,
)
from gate.text.entities import read as read_entities
from gate.text.entities import recommended
from gate.text.extras import extra_items
from gate.text.item import Item, ItemList
from gate.text.jsonanswer import main_array, parse_answer
from gate.text.markdown import Block, ListBlock, MarkdownDoc
from gate.text.names import kept_bold, named, split_name
from gate.text.prices import find_prices
from gate.text.runs import Run, Unit, find_runs, grouped_lists, role, sub_run, units
from gate.text.tables import from_table, json_items
from gate.text.terms import fold

# "第一款是 Bose QC Ultra" once its ordinal is stripped: the copula is no part of the name.
_ORDINAL_COPULA_RE = re.compile(r"^(?:是|为)(?=\s|[A-Za-z0-9])\s*")


def _leading_bold(block: Block) -> str | None:
    return strip_marker(block.bold) if block.bold else None


def _item(head: str, text: str, line: int, bold: str | None = None) -> Item:
    head = _ORDINAL_COPULA_RE.sub("", strip_marker(head))
    name, first_rest = split_name(head, bold)
    body = text.split("\n", 1)[1] if "\n" in text else ""
    description = "\n".join(part for part in (first_rest, body.strip()) if part)
    return Item(name=name, description=description, text=text, line=line,
                prices=tuple(find_prices(text)), named=named(head, bold) is not None)


def _from_list_items(blocks: list[Block]) -> list[Item]:
    return [_item(b.head.split("\n", 1)[0], b.text, b.line, _leading_bold(b)) for b in blocks]


def _from_run(run: Run) -> list[Item]:
    items = []
    for entry in run.entries:
        body = "\n".join(unit.text for unit in entry.body if unit.text)
        text = "\n".join(part for part in (entry.head, body) if part)
        item = _item(entry.head, text, entry.line, entry.bold)
        # A heading names its section ("### 1. Bose QuietComfort Ultra"), separator or not.
        items.append(replace(item, named=True) if entry.level else item)
    return items


_RUN_SOURCES = {"numbered": "numbered", "bold": "bold", "bullets": "bullets", "headings": "headings"}


def _lead(all_units: list[Unit], line: int) -> list[Unit]:
    """The text right before the candidate at ``line``, nearest first, back to the previous block
    (two lines at most)."""
    lead: list[Unit] = []
    for index in range(bisect_left(all_units, line, key=lambda u: u.line) - 1, -1, -1):  # units are in line order
        unit = all_units[index]
        if unit.kind not in ("line", "heading") or len(lead) == 2:
            break
        lead.append(unit)
    return lead


def _notes(all_units: list[Unit], line: int) -> bool:
    """True when the candidate at ``line`` is led by a notes label ("选购建议：" "### 怎么选？") or
    by a line introducing advice, criteria or exclusions ("买之前可以留意这几点：")."""
    lead = _lead(all_units, line)
    return any(notes_label(u.text) for u in lead) or (bool(lead) and notes_lead(lead[0].text))


# A comment line models put in a JSON fence ("// 已排除索尼"): invalid JSON, but the array is still read.
_COMMENT_LINE_RE = re.compile(r"^[ \t]*//[^\n]*\n?", re.MULTILINE)


def _fenced_arrays(doc: MarkdownDoc) -> list[ItemList]:
    found = []
    for block in doc.blocks:
        if block.kind == "code" and block.info.startswith("json"):
            fenced = parse_answer(block.text)
            if not fenced.ok:
                fenced = parse_answer(_COMMENT_LINE_RE.sub("", block.text))
            array = main_array(fenced.value) if fenced.ok else None
            if array is not None:
                found.append(ItemList("json", tuple(json_items(array[1])), block.line))
    return found


def _list_candidate(lists: list[ListBlock]) -> ItemList:
    blocks = [item for block in lists for item in block.items]
    return ItemList("list", tuple(_from_list_items(blocks)), lists[0].line)


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
    labels = [run for run in owners if _labels_of_tables(run, all_tables)]
    owners = [run for run in owners if run not in labels]
    found = [(candidate, source) for candidate, source in found if source not in labels]

    # Two runs over the same labels (bold and emoji-led: "**🚇 适合通勤：**") may both group the lists
    # below them: a run is no owner of the candidate it yields itself.
    yielded = {(id(source), c.line) for c, source in found}

    def inside(line: int, source: Run | None = None) -> bool:
        return any(o is not source and o.line < line and o.owner(line) and (id(o), line) not in yielded for o in owners)

    candidates: list[ItemList] = []
    kept: set[tuple[int, tuple[Item, ...]]] = set()
    for candidate, source in found:
        if not inside(candidate.line, source) and (candidate.line, candidate.items) not in kept:
            kept.add((candidate.line, candidate.items))
            candidates.append(candidate)
    candidates += [_list_candidate([b]) for b in lists if not inside(b.line)]
    candidates += _fenced_arrays(doc)
    names = {fold(item.name) for c in candidates for item in c.items}
    tables = [from_table(t, names) for t in all_tables if len(t.cells) > 1 and not inside(t.line)]
    return sorted((_without_trailing_notes(c) for c in candidates + tables), key=lambda c: c.line)


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


def _criteria(all_units: list[Unit], line: int) -> bool:
    """The candidate at ``line`` lists selection criteria ("先从这几个角度想一想："), not items."""
    lead = _lead(all_units, line)
    return bool(lead) and criteria_lead(lead[0].text)


def _questions(candidate: ItemList) -> bool:
    """Every entry a question to the user ("能吃辣吗？" "大概住在哪个区域？"): a clarification, not items."""
    return bool(candidate.items) and all(re.search(r"[？?]\s*$", item.text.split("\n", 1)[0]) for item in candidate.items)


def _attributes_only(candidate: ItemList) -> bool:
    """Every entry named by an attribute ("**价格**：7999 元" "**优点**：…"): one item described,
    not items. An itinerary's days ("**第一天**") are its items."""
    items = candidate.items
    return (bool(items) and all(item.named and attribute(item.name) for item in items)
            and not all(day(item.name) for item in items))


def _clauses_of_a_named_lead(candidate: ItemList, all_units: list[Unit]) -> bool:
    """Unnamed clauses ("1.09kg，碳纤维机身") right under a bold line that is only a name ("**联想
    ThinkPad X1 Carbon Gen 12**"): one item described, not items."""
    lead = _lead(all_units, candidate.line)
    if not lead or not candidate.items or any(item.named for item in candidate.items):
        return False
    head = lead[0].raw.strip()
    bold = BOLD_LEAD_RE.match(head)
    if bold is not None and bold.end() == len(head):
        name = bold.group("bold")
        return (not notes_label(name) and not SECTION_LABEL_RE.search(name)
                and re.search(r"[，,。：:]", name) is None)
    # "如果只推荐一款，我会选 **联想 ThinkPad X1 Carbon 2024**：" — one pick named at the end of its lead
    last = _LAST_BOLD_RE.search(head)
    return (last is not None and _NAMELIKE_RE.search(last.group("bold")) is not None
            and _PLURAL_LEAD_RE.search(head[: last.start()]) is None)


_LAST_BOLD_RE = re.compile(r"\*\*(?P<bold>[^*\n]{2,40})\*\*\s*[：:]?\s*$")
# A lead that announces several ("推荐下面几款 **高性价比** 笔记本：") does not name one pick.
_PLURAL_LEAD_RE = re.compile(r"几|些|以下|下面|如下|\d+\s*[款个家台部本]|[两二三四五六七八九十]+\s*[款个家台部本]")


def _stated(candidates: list[ItemList], all_units: list[Unit]) -> ItemList | None:
    """The candidate right after a lead-in announcing its count ("推荐这 3 款：" then 3 entries),
    whatever larger list follows (must-order dishes, a packing list)."""
    for candidate in candidates:
        lead = _lead(all_units, candidate.line)
        if lead and stated_count(lead[0].text) == len(candidate.items) and len(candidate.items) >= 2:
            return candidate
    return None


_RECOMMEND_LABEL_RE = re.compile(r"^(?:我的)?(?:推荐|首选|结论|答案|最佳选择|建议选择?)\s*[：:]\s*")


def _single(doc: MarkdownDoc, all_units: list[Unit], candidates: list[ItemList]) -> ItemList | None:
    """One recommendation without a list of items: the heading or bold line before a list of its
    attributes ("### 推荐：MacBook Air M3" then "- **价格**：…"); else the prose's bold names —
    several that read as product or place names are the items, otherwise the first bold span and
    the rest of its paragraph is the one."""
    for candidate in candidates:
        lead = _lead(all_units, candidate.line)
        if lead and not notes_lead(lead[0].text):
            last = _LAST_BOLD_RE.search(lead[0].raw.strip())  # "……我会选 **联想 ThinkPad X1**：" names it last
            head = last.group("bold") if last else _RECOMMEND_LABEL_RE.sub("", strip_marker(lead[0].text)).strip()
            body = "\n".join(item.text for item in candidate.items)
            bold = head if lead[0].kind == "heading" else None
            return ItemList("single", (_item(head, f"{head}\n{body}", lead[0].line, bold),), lead[0].line)
    if candidates:
        return None
    ordinals = _ordinal_paragraphs(doc)
    if ordinals is not None:
        return ordinals
    named = _prose_names(doc)
    if len({fold(name) for _, name in named if _NAMELIKE_RE.search(name)}) >= 2:
        return _prose_items(doc, [(b, n) for b, n in named if _NAMELIKE_RE.search(n)])
    if named:
        block, name = named[0]
        start = block.text.find(name)
        text = "\n".join([block.text[start:] if start >= 0 else block.text, *_referring(doc, block)])
        return ItemList("single", (_item(text.split("\n", 1)[0], text, block.line, name),), block.line)
    return None


# A paragraph that goes on about the one recommendation ("这家是四合院式的京菜馆……人均 200-250 元").
_REFERS_BACK_RE = re.compile(r"^\s*(?:这家|该店|这间|这里|它家|它|店里|餐厅|店内|这款|该款|这个)")


def _referring(doc: MarkdownDoc, block: Block) -> list[str]:
    """The paragraphs right after ``block`` that speak of what it recommends."""
    found: list[str] = []
    index = next((i for i, b in enumerate(doc.flow) if b is block), len(doc.flow))
    for following in doc.flow[index + 1:]:
        if following.kind != "paragraph" or not _REFERS_BACK_RE.match(following.text):
            break
        found.append(following.text)
    return found


# A bold span that reads as a product or place name: Latin letters or digits in it (AirPods Pro 2),
# or a shop or place ending (…店, …馆, …寺, …梯田). Bold advice ("**一定要**提前订") is not one.
_NAMELIKE_RE = re.compile(r"[A-Za-z0-9]|^《|(?:店|馆|楼|斋|居|坊|轩|阁|酒店|餐厅|饭庄|寺|宫|庙|园|山|湖|岛|海滩|梯田|崖|塔|街|"
                          r"古镇|博物馆|公园)(?:（[^）]{1,12}）)?$")


# Paragraphs that introduce products by prose ordinals: "首先是 Bose QC Ultra，…" "其次是…" "最后是…".
_ORDINAL_OPEN_RE = re.compile(r"^\s*(?P<word>首先|第一|其次|第二|再次|第三|然后|接着|另外|最后)(?:款|个|家)?(?:是|推荐的?是|推荐)\s*")
_ORDINAL_NAME_END_RE = re.compile(r"[，,。；;：:（(]")


def _ordinal_paragraphs(doc: MarkdownDoc) -> ItemList | None:
    """Two or more paragraphs in a row, the first opened by 首先/第一, each naming a product or place
    after its ordinal: those are the items (no list markup needed)."""
    found: list[Item] = []
    for block in doc.flow:
        match = _ORDINAL_OPEN_RE.match(block.text) if block.kind == "paragraph" else None
        if match is None or (not found and match.group("word") not in ("首先", "第一")):
            if len(found) >= 2:
                break
            found = []
            continue
        rest = block.text[match.end():]
        end = _ORDINAL_NAME_END_RE.search(rest)
        name = (rest[: end.start()] if end else rest.split("\n", 1)[0]).strip()
        if not name or len(name) > 40 or not _NAMELIKE_RE.search(name):
            found = []
            continue
        found.append(Item(name=name, description=rest[len(name):].lstrip("，, "), text=rest, line=block.line,
                          prices=tuple(find_prices(rest))))
    return ItemList("ordinals", tuple(found), found[0].line) if len(found) >= 2 else None


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
        items.append(_item(text.split("\n", 1)[0], text, block.line, name))
    return ItemList("prose", tuple(items), named[0][0].line)


# 「乌布地区：德格拉朗梯田、圣泉寺、乌布皇宫」: a region label and the places it lists, the places
# being the items. Only a label that names a region, so "**Bose**：降噪强、续航长" stays one item.
# A region label: ends in a place word ("乌布地区" "北部与离岛"), or holds a direction or an area
# anywhere in its few characters ("南部海滩" "市区景点").
_REGION_RE = re.compile(r"(?:地区|区域|片区|一带|附近|周边|市区|城区|老城|新城|南部|北部|东部|西部|中部|沿海|岛|区|县|镇|"
                        r"沿线)$|^.{0,4}(?:南部|北部|东部|西部|中部|周边|一带|沿海|沿线|市区|城区|老城|近郊|远郊)")
_LABEL_MAX = 12
_ENTRY_MAX = 16


_BRACKETED_RE = re.compile(r"【[^【】]{1,10}】")


def _colon(text: str) -> int:
    """Where the first colon (full- or half-width) is, or -1."""
    return min((i for i in (text.find("："), text.find(":")) if i >= 0), default=-1)


def _label_and_entries(line: str) -> tuple[str, str] | None:
    """"乌布地区：A、B、C" or "【近郊周末】A、B" as (label, entries); None for any other line."""
    stripped = line.strip()
    bracket = _BRACKETED_RE.match(stripped)
    cut = _colon(line)
    if bracket is not None and (cut < 0 or cut > bracket.end()):
        label, entries = bracket.group(0), stripped[bracket.end():].strip().rstrip("。").strip()
    elif cut > 0:
        label, entries = line[:cut].strip(), line[cut + 1:].strip().rstrip("。").strip()
    else:
        return None
    if len(label) > _LABEL_MAX or any(mark in label for mark in "，,。；") or any(mark in entries for mark in "。；;：:"):
        return None
    return label, entries


def _enumerated(label: str, entries: str, line: int, *, alone: bool = False) -> list[Item] | None:
    """The places a region or bracketed label lists ("乌布地区：A、B、C", "【近郊周末】A、B"), or None
    when it is no such line. ``alone``: one entry is enough (beside other such lines)."""
    label = re.sub(r"[*_]", "", strip_marker(label)).strip()
    parts = [part.strip() for part in re.split(r"[、/]", entries)]
    labelled = _REGION_RE.search(label) is not None or _BRACKETED_RE.fullmatch(label) is not None
    if not labelled or len(parts) < (1 if alone else 2) or any(not p or len(p) > _ENTRY_MAX or "，" in p for p in parts):
        return None
    return [Item(name=part, description="", text=part, line=line, prices=tuple(find_prices(part))) for part in parts]


def _spots(items: tuple[Item, ...]) -> tuple[Item, ...] | None:
    """A list whose every entry is a region and the places it lists: the places, all of them."""
    found: list[Item] = []
    for item in items:
        split = _label_and_entries(f"{item.name}：{item.description}") if item.description else None
        spots = _enumerated(*split, item.line) if split else None
        if spots is None:
            return None
        found += spots
    return tuple(found) if found else None


def _enumeration_lines(doc: MarkdownDoc) -> ItemList | None:
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


def _stated_inline(doc: MarkdownDoc) -> ItemList | None:
    """Picks enumerated inline after a lead stating their count ("我会推荐这 4 款：联想小新 Pro 14（约
    5499 元）、华为 MateBook 14（¥5,999）、…。"): each part is an item."""
    for block in doc.flow:
        if block.kind != "paragraph":
            continue
        cut = _colon(block.text)
        lead = block.text[:cut] if cut > 0 else ""
        if not lead or stated_count(lead) is None or notes_lead(lead):
            continue
        sentence = re.split(r"[。！？!?\n]", block.text[cut + 1:], maxsplit=1)[0]
        parts = [part.strip() for part in sentence.split("、")]
        if len(parts) >= 2 and all(0 < len(part) <= _INLINE_PART_MAX for part in parts):
            return ItemList("enumeration", tuple(_item(part, part, block.line) for part in parts), block.line)
    return None


def extract(answer: str, doc: MarkdownDoc | None = None) -> ItemList:
    """The items of ``answer``'s main structure (see the module docstring)."""
    parsed = parse_answer(answer)
    if parsed.ok:
        array = main_array(parsed.value)
        return ItemList("json", tuple(json_items(array[1])) if array is not None else ())
    doc = doc or MarkdownDoc(answer)
    all_units = units(doc)
    runs = find_runs(doc, all_units)
    candidates = _candidates(doc, runs)
    hand = tuple(
        (r.line, r.kind) for r in runs if r.lines_only and r.kind in ("numbered", "bullets") and not r.outline
    )
    described = [c for c in candidates if not _attributes_only(c) and not _clauses_of_a_named_lead(c, all_units)]
    main = [c for c in described if c.items and not _notes(all_units, c.line) and not _questions(c)]
    if not main and len(described) == len(candidates):  # only notes: read them, unless one item is described
        main = [c for c in described if not _questions(c) and not _criteria(all_units, c.line)]
    if not main:
        enumeration = None if candidates else (_enumeration_lines(doc) or _stated_inline(doc))
        if enumeration is not None:
            return replace(enumeration, hand_lists=hand)
        single = _single(doc, all_units, [c for c in candidates if not _questions(c) and not _criteria(all_units, c.line)])
        if single is None:
            return ItemList("none", (), hand_lists=hand)
        extras = extra_items(doc, single, [], {}) if single.source == "single" else []
        return _with_entities(ItemList(single.source, single.items, single.line, hand_lists=hand), extras, [], {})
    best = _stated(main, all_units) or _main(main)
    spots = _spots(best.items)
    best = replace(best, items=spots) if spots else best
    rest = [c for c in candidates if c is not best]
    leads = {c.line: " ".join(u.text for u in reversed(_lead(all_units, c.line))) for c in rest}
    found = ItemList(best.source, best.items, best.line, tuple(f"{c.source}@{c.line}:{len(c.items)}" for c in rest),
                     hand, best.by_columns)
    return _with_entities(found, extra_items(doc, best, rest, leads), rest, leads)


def _with_entities(main: ItemList, added: list[Item], rest: list[ItemList], leads: dict[int, str]) -> ItemList:
    """``main`` with every entity the answer's structures name; its items the recommended ones."""
    entities = read_entities(main, added, rest, leads)
    items = recommended(entities)
    return replace(main, items=tuple(items), extras=len(items) - len(main.items), entities=entities)
