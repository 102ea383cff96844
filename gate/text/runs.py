"""Runs of marked lines: items written without Markdown list syntax.

An answer often lists its items as numbered lines or headings ("1、" "一、" "第一家" "1️⃣" "## 1."),
as bold-led paragraphs ("**鹿回头海鲜楼**：…"), as bullet glyphs ("• …") or as same-level headings.
A run is such a sequence; each entry owns the lines that follow it (its body) up to the next entry.
A run whose heads are section labels ("一、推荐餐厅" "二、注意事项") is an outline, not a list of items.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

from gate import lexicon
from gate.lexicon import charset
from gate.text.card_frames import frames_one_list
from gate.text.cues import (
    BOLD_LEAD_RE,
    BULLET_RE,
    LABEL_MAX_CHARS,
    closing,
    marker,
    marker_re,
    notes_label,
    section_label,
    strip_marker,
)
from gate.text.deferred import deferred
from gate.text.markdown import MarkdownDoc, unquote
from gate.text.names import named, namelike


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

    @cached_property
    def end(self) -> int:
        """The last source line the entry covers (read once its body is attached)."""
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
        """The entry whose head or body covers source ``line``. Entries are in line order and own
        disjoint spans, so only the last one starting at or before ``line`` can."""
        index = bisect_right(self.entries, line, key=lambda e: e.line) - 1
        entry = self.entries[index] if index >= 0 else None
        return entry if entry is not None and line <= entry.end else None

    @property
    def end(self) -> int:
        """The last source line any entry covers."""
        return max(e.end for e in self.entries)


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


def unit_bold(unit: Unit) -> str | None:
    raw = re.sub(r"^\s*#{1,6}\s+", "", unit.raw)
    found = marker_re().match(raw) or BULLET_RE.match(raw)  # "1. **…**", "⭐ **…**"
    match = BOLD_LEAD_RE.match(raw[found.end() :] if found else raw)
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
    return closing(unit.text) or (starts_paragraph and notes_label(unit.text))


def _attach_bodies(run: Run, all_units: list[Unit], stop: int) -> None:
    """Give each entry the units up to the next entry, then take a closing remark off the last."""
    for entry, following in pairwise(run.entries):
        _take(entry, all_units, following.unit)
    last = run.entries[-1]
    if last.level or len(run.entries) < 2:
        _take(last, all_units, stop)  # a heading's section runs to the next heading
    else:
        # A line entry's own paragraph is its text; after a blank line it takes no more than its
        # siblings took, so prose after the list ("以上就是……") does not join the last item; and
        # numbering of its own style that starts again is another list. Read that far and no
        # further: reading to the end of the answer made an answer of many short runs quadratic.
        restart = marker(all_units[last.unit].text) if run.kind == "numbered" else None
        _take(last, all_units, stop, most=max(len(e.body) for e in run.entries[:-1]),
              restart=restart[0] if restart else None)
    closing = next((i for i, u in enumerate(last.body) if _closing(u, last.body[i - 1] if i else None)), None)
    if closing is not None:
        del last.body[closing:]


def _take(entry: Entry, all_units: list[Unit], end: int, *, most: int | None = None, restart: str | None = None) -> None:
    """Give ``entry`` the units after it up to ``end`` or a unit that ends its body. With ``most``:
    no more than its own paragraph's lines, or ``most`` units if that is more; with ``restart``: up
    to a line numbered in that style."""
    head_block = all_units[entry.unit].block
    own: int | None = None  # the units of the entry's own paragraph, once it has ended
    for position in range(entry.unit + 1, end):
        unit = all_units[position]
        if _ends_body(entry, unit):
            return
        if restart is not None and unit.kind == "line" and (again := marker(unit.text)) and again[0] == restart:
            return
        if most is not None:
            if own is None and (unit.kind != "line" or unit.block != head_block):
                own = len(entry.body)
            if own is not None and len(entry.body) >= max(own, most):
                return
        entry.body.append(unit)


def _entry(index: int, unit: Unit, number: int) -> Entry:
    head = strip_marker(unit.text)
    return Entry(index, head, unit.line, unit.level if unit.kind == "heading" else 0, unit_bold(unit), number)


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


def _consecutive(all_units: list[Unit], kind: str, is_entry: Callable[[Unit], bool],
                 breaks: Callable[[Unit], bool] | None = None) -> list[Run]:
    """Runs of entries matched by ``is_entry``; a heading (of a higher level) breaks a run, and so
    does any unit ``breaks`` names."""
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
        elif current and ((unit.kind == "heading" and (level == 0 or unit.level < level))
                          or (breaks is not None and breaks(unit))):
            runs.append(Run(kind, current))
            current = []
    if current:
        runs.append(Run(kind, current))
    return runs


def _plain_line(unit: Unit) -> bool:
    return unit.kind == "line" and marker(unit.text) is None


GLYPHS = "•●○◦▪▫■□◆◇►▶➤✓✔✅☑※·"  # the bullet glyphs proper (an emoji may lead a line of prose too)
_sentence_mark_re = deferred(lambda: charset("comma", "full_stop", "exclamation_mark", "question_mark", "semicolon"))


def _another_structure(unit: Unit) -> bool:
    """A table, or a numbered line naming a pick ("【1】🍵 **大益普洱茶**"): glyph-led lines around it (a
    card's title and footer) are no list together; lists and numbered clauses under one are its own."""
    if unit.kind == "block":
        return unit.block_kind == "table"
    head = strip_marker(unit.text) if unit.kind == "line" and marker(unit.text) is not None else ""
    return bool(head) and (named(head, unit_bold(unit)) is not None or namelike(head))


def _bullet_line(unit: Unit) -> bool:
    """A line led by a bullet glyph, or by an emoji when the rest reads as an entry ("🎧 Bose：…",
    "📍 圣泉寺") rather than a sentence the emoji decorates ("✈️ 已为你查询 6 月 10 日的航班，并对比了…")."""
    lead = BULLET_RE.match(unit.text) if _plain_line(unit) else None
    if lead is None:
        return False
    rest = unit.text[lead.end():]
    bold = BOLD_LEAD_RE.match(rest)
    return (unit.text.lstrip()[0] in GLYPHS or named(rest, bold.group("bold") if bold else None) is not None
            or _sentence_mark_re().search(rest) is None)


def _heading_runs(all_units: list[Unit]) -> list[Run]:
    runs: list[Run] = []
    for level in sorted({u.level for u in all_units if u.kind == "heading"}):
        def is_entry(unit: Unit, level: int = level) -> bool:
            return unit.kind == "heading" and unit.level == level and marker(unit.text) is None
        runs += _consecutive(all_units, "headings", is_entry)
    return runs


def is_label(entry: Entry) -> bool:
    head = (entry.bold or entry.head).strip(" " + "".join(lexicon.words("colon")))
    return len(head) <= LABEL_MAX_CHARS and section_label(head)


def _classify(run: Run) -> Run:
    if not any(e.body for e in run.entries):
        return run  # one-line entries ("1、注意防晒") label no sections
    labels = [e for e in run.entries if is_label(e)]
    if labels and 2 * len(labels) >= len(run.entries):
        run.outline = True
    elif labels:  # a trailing "总结" numbered like the items is not an item
        dropped = {id(e) for e in labels}
        run.entries = [e for e in run.entries if id(e) not in dropped]
    return run


def find_runs(doc: MarkdownDoc, all_units: list[Unit] | None = None) -> list[Run]:
    """Every run of two or more entries, bodies attached, outlines marked."""
    all_units = units(doc) if all_units is None else all_units
    runs = [
        *_numbered(all_units),
        *_consecutive(all_units, "bold", lambda u: _plain_line(u) and BOLD_LEAD_RE.match(u.raw) is not None),
        *_consecutive(all_units, "bullets", _bullet_line, _another_structure),
        *_heading_runs(all_units),
    ]
    kept: list[Run] = []
    for run in runs:
        if len(run.entries) < 2:
            continue
        _attach_bodies(run, all_units, len(all_units))
        run = _classify(run)
        if len(run.entries) >= 2 and not (run.kind == "bullets" and frames_one_list(run, doc.list_blocks)):
            kept.append(run)
    return sorted(kept, key=lambda r: r.line)


