"""Runs of marked lines: items written without Markdown list syntax.

An answer often lists its items as numbered lines or headings ("1、" "一、" "第一家" "1️⃣" "## 1."),
as bold-led paragraphs ("**鹿回头海鲜楼**：…"), as bullet glyphs ("• …") or as same-level headings.
A run is such a sequence; each entry owns the lines that follow it (its body) up to the next entry.
A run whose heads are section labels ("一、推荐餐厅" "二、注意事项") is an outline, not a list of items.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from gate.text.markdown import ListBlock, MarkdownDoc, unquote
from gate.text.names import named
from gate.text.numerals import to_int
from gate.text.terms import fold

Role = Literal["items", "outline", "categories", "open"]

_MARKER_RE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*"
    r"(?:(?P<arabic>\d{1,2})(?P<delim>[.．、)）]|\ufe0f?\u20e3)(?!\d)"
    r"|[（(](?P<paren>\d{1,2})[)）]"
    r"|(?P<cn>[一二三四五六七八九十]{1,3})[、.．]"
    r"|第\s*(?P<ordinal>[一二三四五六七八九十\d]{1,3})\s*"
    r"(?:[家款个本名站部台位种道处条只件](?:\s*[：:，,、]\s*)?|(?=[：:，,、\s]|$))"
    r"|(?:No|NO|Top|TOP)\.?\s*(?P<no>\d{1,2})(?!\d))"
)
_BULLET_RE = re.compile(r"^\s*[•●○◦▪▫■□◆◇►▶➤✓✔✅☑※·]\s*(?=\S)")
_BOLD_LEAD_RE = re.compile(r"^\s*(\*\*|__)(?P<bold>\S.*?)\1")
# Words that label notes, advice, a summary, exclusions or where to buy: not the items.
_NOTES = (r"注意|提示|贴士|须知|备注|提醒|温馨|建议|总结|小结|怎么选择?|如何选择?|选购|渠道|排除|购买|"
          r"\b(?:tips?|notes?|reminders?|summary|advice)\b")
# A notes label ends with the word ("选购建议" "购买渠道" "以下几款因超出预算已排除" "注意事项").
_NOTES_LABEL_RE = re.compile(rf"(?:{_NOTES})(?:事项|须知|指南|参考|汇总|一览)?(?:如下|一下|一点|几点)?$", re.IGNORECASE)
_NOTES_LABEL_MAX_CHARS = 16
# Heads that name a part of the answer rather than an item ("推荐餐厅", "注意事项", "总结").
_SECTION_LABEL_RE = re.compile(rf"{_NOTES}|推荐|概览|概述|结语|其他|说明|附录|"
                               r"\b(?:overview|recommendations?|conclusion)\b", re.IGNORECASE)
_LABEL_MAX_CHARS = 8
# Section labels whose lists hold no items either (a "categories" run leaves them out).
_ASIDE_RE = re.compile(r"概览|概述|结语|其他|说明|附录", re.IGNORECASE)
_DAY_RE = re.compile(r"^\s*(?:第\s*[一二三四五六七八九十\d]{1,3}\s*天|day\s*\d{1,2}|d\d{1,2}\b)", re.IGNORECASE)
# Sub-point names that are an item's attributes, not items of their own.
_ATTRIBUTE_RE = re.compile(
    r"^(?:优点|缺点|亮点|不足|特点|特色|理由|推荐理由|适合|适合人群|推荐菜|招牌菜?|必点|地址|位置|交通|门票|"
    r"评分|口碑|环境|服务|口味|续航|重量|尺寸|屏幕|处理器|配置|参数|音质|降噪|佩戴|电池|颜色|时长|建议|"
    r"预算|用途|场景|需求|人数|天数|出发地|第.{1,3}天|day\s*\d{1,2}|d\d{1,2})$|价|人均|时间",
    re.IGNORECASE,
)
# A line that speaks of all the items, closing the list ("以上三家……" "希望对你有帮助").
_CLOSING_RE = re.compile(r"^\s*(?:以上|上述|上面|这[几些两三四五六七八九十]|总之|总的来说|综上|总体来说|希望|祝|如需|如有|需要我|欢迎)")


def attribute(name: str) -> bool:
    """True when a sub-point's name is an attribute of an item ("价格" "优点" "预算"), not an item."""
    return _ATTRIBUTE_RE.search(name.strip()) is not None


def day(name: str) -> bool:
    """True when ``name`` labels a day of an itinerary ("第一天" "Day 2" "D3")."""
    return _DAY_RE.match(name) is not None


def marker(line: str) -> tuple[str, int] | None:
    """The style and ordinal a line starts with ("1." "1、" "一、" "第一家" "1️⃣"), or None."""
    match = _MARKER_RE.match(line)
    if not match:
        return None
    for group in ("arabic", "paren", "cn", "ordinal", "no"):
        token = match.group(group)
        if token:
            number = to_int(token)
            if number is None:
                return None
            delim = match.group("delim") or ""
            style = group + {"．": ".", "）": ")"}.get(delim, delim)
            return style, number
    return None


def marker_number(line: str) -> int | None:
    """The ordinal a line starts with, or None."""
    found = marker(line)
    return found[1] if found else None


def strip_marker(line: str) -> str:
    """The line without its leading ordinal marker or bullet glyph."""
    match = _MARKER_RE.match(line) or _BULLET_RE.match(line)
    return line[match.end() :].strip() if match else line.strip()


def notes_label(text: str) -> bool:
    """True when ``text`` labels notes, advice or a summary ("注意事项：" "### 怎么选？" "选购建议"),
    not when it only mentions one ("推荐 3 款，下单前请注意核对型号：")."""
    label = re.split(r"[：:？?]", strip_marker(text), maxsplit=1)[0]
    if re.search(r"[，,。；;]", label):
        return False  # a sentence, not a label
    label = re.sub(r"[^\w\s]", "", label).strip()  # emoji, brackets: 【注意事项】 💡小贴士
    if label.startswith("我"):
        return False  # "我建议：" speaks the recommendation itself
    return len(label) <= _NOTES_LABEL_MAX_CHARS and _NOTES_LABEL_RE.search(label) is not None


# Lead-ins that introduce notes rather than the items, whether a label or a sentence ("买之前可以
# 留意这几点：" "出发前记得带上这些装备：" "挑降噪耳机主要看这几点：" "**对比基线**").
_NOTES_LEAD_RE = re.compile(
    r"留意|注意|这样[挑选]|怎么[挑选]|如何[挑选]|按(?:使用)?(?:场景|需求|用途|人群|预算|情况|口味)来?[挑选]|看这几点|几点建议|建议如下|记得带|带上|备好|清单|"
    r"必点|基线|对比(?!了)|要点|总结|提示|提醒|\b(?:tips?|checklist)\b",
    re.IGNORECASE,
)
# Lead-ins that set items aside ("下面这 3 款超出了 8000 元，已经帮您去掉：").
_EXCLUDED_LEAD_RE = re.compile(r"去掉|排除|剔除|超出|超过了?预算|不符合|不推荐|不建议|不考虑")
# Lead-ins that introduce the recommendations themselves ("推荐这 3 款" "为您精选以下 5 家"; a
# stated count of items too: "以下 3 款，注意价格会浮动：").
_RECOMMENDING_LEAD_RE = re.compile(r"(?<![不再])推荐|精选")
_CLASSIFIERS = "款家个本部处条道种座台只件首位站间所样套份"
_STATED_COUNT_RE = re.compile(
    rf"(?:(?<![不再])推荐|精选|挑选?了?|选了|以下|如下|这|只剩|列出|共)\s*(?:这|以下|了)?\s*"
    rf"(?P<n>\d{{1,2}}|[一二两三四五六七八九十]{{1,3}})\s*[{_CLASSIFIERS}]"
)


def notes_lead(text: str) -> bool:
    """True when ``text``, the line right before a list, introduces notes, advice, criteria, a
    checklist or exclusions rather than the recommendations ("买之前可以留意这几点：" "下面这 3 款
    超出了 8000 元，已经帮您去掉："), whether a label or a sentence."""
    if notes_label(text) or _EXCLUDED_LEAD_RE.search(text):
        return True
    recommending = _RECOMMENDING_LEAD_RE.search(text) is not None or stated_count(text) is not None
    return _NOTES_LEAD_RE.search(text) is not None and not recommending


def stated_count(text: str) -> int | None:
    """The number of items a recommending lead-in announces ("推荐这 3 款" "以下 5 家"), or None."""
    if _EXCLUDED_LEAD_RE.search(text):
        return None
    match = _STATED_COUNT_RE.search(text)
    return to_int(match.group("n")) if match else None


@dataclass
class Unit:
    """One line of a paragraph, one heading, or one other top-level block (list, table, rule …)."""

    kind: str  # line, heading, block, rule
    text: str
    raw: str
    line: int
    level: int = 0
    block_kind: str = ""
    end: int = 0  # last source line of a block unit
    block: int = 0  # index of the block (paragraph …) it comes from


@dataclass
class Entry:
    """One marked unit of a run and the units it owns."""

    unit: int
    head: str
    line: int
    level: int
    bold: str | None
    number: int
    body: list[Unit] = field(default_factory=list)

    @property
    def end(self) -> int:
        """The last source line the entry covers."""
        return max([self.line, *(max(u.line, u.end) for u in self.body)])


@dataclass
class Run:
    """Entries of one style in order; ``outline`` when their heads label sections, not items."""

    kind: str  # numbered, bold, bullets, headings
    entries: list[Entry]
    outline: bool = False

    @property
    def line(self) -> int:
        return self.entries[0].line

    @property
    def lines_only(self) -> bool:
        """True when every entry is a paragraph line (a list written by hand), not a heading."""
        return all(e.level == 0 for e in self.entries)

    def owner(self, line: int) -> Entry | None:
        """The entry whose head or body covers source ``line``."""
        return next((e for e in self.entries if e.line <= line <= e.end), None)


def units(doc: MarkdownDoc) -> list[Unit]:
    """The document as a flat sequence of units, in order (block quotes opened)."""
    raw_lines = [unquote(line) for line in doc.text.splitlines()]
    found: list[Unit] = []
    for index, block in enumerate(doc.flow):
        if block.kind == "paragraph":
            for offset, text in enumerate(block.text.split("\n")):
                number = block.line + offset
                raw = raw_lines[number - 1] if 0 < number <= len(raw_lines) else text
                found.append(Unit("line", text, raw, number, block=index))
        elif block.kind == "heading":
            raw = raw_lines[block.line - 1] if 0 < block.line <= len(raw_lines) else block.text
            found.append(Unit("heading", block.text, raw, block.line, block.level, block=index))
        else:
            kind = "rule" if block.kind == "rule" else "block"
            found.append(Unit(kind, block.text, "", block.line, block_kind=block.kind, end=block.end_line,
                              block=index))
    return found


def _bold(unit: Unit) -> str | None:
    raw = re.sub(r"^\s*#{1,6}\s+", "", unit.raw)
    found = _MARKER_RE.match(raw)
    match = _BOLD_LEAD_RE.match(raw[found.end() :] if found else raw)
    return (strip_marker(match.group("bold")).strip() or None) if match else None


def _ends_body(entry: Entry, unit: Unit) -> bool:
    if unit.kind == "rule":
        return True
    return unit.kind == "heading" and (entry.level == 0 or unit.level <= entry.level)


def _closing(unit: Unit, before: Unit | None) -> bool:
    """A line that speaks of all the items ("以上三家都在三亚湾附近"), or a paragraph of notes
    after them ("**选购提示**：……" "最后提醒一点：……"): the end of the last item."""
    if unit.kind != "line":
        return False
    starts_paragraph = before is None or before.block != unit.block
    return _CLOSING_RE.match(unit.text) is not None or (starts_paragraph and notes_label(unit.text))


def _attach_bodies(run: Run, all_units: list[Unit], stop: int) -> None:
    """Give each entry the units up to the next entry, then take a closing remark off the last."""
    for index, entry in enumerate(run.entries):
        end = run.entries[index + 1].unit if index + 1 < len(run.entries) else stop
        for unit in all_units[entry.unit + 1 : end]:
            if _ends_body(entry, unit):
                break
            entry.body.append(unit)
    last = run.entries[-1]
    closing = next((i for i, u in enumerate(last.body) if _closing(u, last.body[i - 1] if i else None)), None)
    if closing is not None:
        del last.body[closing:]
    if last.level or len(run.entries) < 2:
        return  # a heading's section runs to the next heading
    # A line entry's own paragraph is its text; after a blank line it takes no more than its
    # siblings took, so prose after the list ("以上就是……") does not join the last item.
    head_block = all_units[last.unit].block
    own = next((i for i, u in enumerate(last.body) if u.kind != "line" or u.block != head_block), len(last.body))
    most = max(len(e.body) for e in run.entries[:-1])
    del last.body[max(own, most) :]


def _entry(index: int, unit: Unit, number: int) -> Entry:
    head = strip_marker(unit.text)
    return Entry(index, head, unit.line, unit.level if unit.kind == "heading" else 0, _bold(unit), number)


def _numbered(all_units: list[Unit]) -> list[Run]:
    runs: dict[str, list[list[Entry]]] = {}
    for index, unit in enumerate(all_units):
        if unit.kind not in ("line", "heading"):
            continue
        found = marker(unit.text)
        if found is None:
            continue
        style, number = found
        style_runs = runs.setdefault(f"{style}@{unit.level if unit.kind == 'heading' else 0}", [])
        if style_runs and number == style_runs[-1][-1].number + 1:
            style_runs[-1].append(_entry(index, unit, number))
        elif number == 1:
            style_runs.append([_entry(index, unit, number)])
    return [Run("numbered", entries) for style_runs in runs.values() for entries in style_runs]


def _consecutive(all_units: list[Unit], kind: str, is_entry: Callable[[Unit], bool]) -> list[Run]:
    """Runs of entries matched by ``is_entry``; a heading (of a higher level) breaks a run."""
    runs: list[Run] = []
    current: list[Entry] = []
    level = 0
    for index, unit in enumerate(all_units):
        if is_entry(unit):
            if current and unit.level != level:
                runs.append(Run(kind, current))
                current = []
            level = unit.level
            current.append(_entry(index, unit, len(current) + 1))
        elif unit.kind == "heading" and (level == 0 or unit.level < level) and current:
            runs.append(Run(kind, current))
            current = []
    if current:
        runs.append(Run(kind, current))
    return runs


def _plain_line(unit: Unit) -> bool:
    return unit.kind == "line" and marker(unit.text) is None


def _heading_runs(all_units: list[Unit]) -> list[Run]:
    runs: list[Run] = []
    for level in sorted({u.level for u in all_units if u.kind == "heading"}):
        def is_entry(unit: Unit, level: int = level) -> bool:
            return unit.kind == "heading" and unit.level == level and marker(unit.text) is None
        runs += _consecutive(all_units, "headings", is_entry)
    return runs


def _is_label(entry: Entry) -> bool:
    head = (entry.bold or entry.head).strip(" ：:")
    return len(head) <= _LABEL_MAX_CHARS and _SECTION_LABEL_RE.search(head) is not None


def _classify(run: Run) -> Run:
    if not any(e.body for e in run.entries):
        return run  # one-line entries ("1、注意防晒") label no sections
    labels = [e for e in run.entries if _is_label(e)]
    if labels and 2 * len(labels) >= len(run.entries):
        run.outline = True
    elif labels:  # a trailing "总结" numbered like the items is not an item
        run.entries = [e for e in run.entries if e not in labels]
    return run


def find_runs(doc: MarkdownDoc, all_units: list[Unit] | None = None) -> list[Run]:
    """Every run of two or more entries, bodies attached, outlines marked."""
    all_units = units(doc) if all_units is None else all_units
    runs = [
        *_numbered(all_units),
        *_consecutive(all_units, "bold", lambda u: _plain_line(u) and _BOLD_LEAD_RE.match(u.raw) is not None),
        *_consecutive(all_units, "bullets", lambda u: _plain_line(u) and _BULLET_RE.match(u.text) is not None),
        *_heading_runs(all_units),
    ]
    kept: list[Run] = []
    for run in runs:
        if len(run.entries) < 2:
            continue
        _attach_bodies(run, all_units, len(all_units))
        run = _classify(run)
        if len(run.entries) >= 2:
            kept.append(run)
    return sorted(kept, key=lambda r: r.line)


def _aside(entry: Entry) -> bool:
    """A section of notes, advice or an overview, whose list holds no items."""
    head = entry.bold or entry.head
    return notes_label(head) or (_is_label(entry) and _ASIDE_RE.search(head) is not None)


def _owned(run: Run, lists: list[ListBlock]) -> dict[int, list[ListBlock]]:
    """The lists inside each entry's section, by entry line (sections of notes left out)."""
    owned: dict[int, list[ListBlock]] = {}
    for block in lists:
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
    if run.outline or any(e.level == 0 for e in run.entries) or all(_DAY_RE.match(e.head) for e in run.entries):
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
            sub = Entry(entry.unit, strip_marker(unit.text), unit.line, level, _bold(unit), len(entries) + 1)
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
    # An itinerary's days ("### 第一天") stay its items, whatever their sections list.
    grouping = _distinct_groups(names) and not all(_DAY_RE.match(e.head) for e in run.entries)
    if run.outline:
        return "categories" if grouping else "outline"
    if sub_run(run) is not None:
        return "categories"
    if run.lines_only and run.kind in ("numbered", "bullets"):
        return "items"
    if grouping:
        return "categories"
    numbered_inside = any(
        other is not run and other.lines_only and other.kind == "numbered" and run.owner(other.line)
        for other in runs
    )
    if numbered_inside or any(b.ordered and len(b.items) >= 2 for bs in owned.values() for b in bs):
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
