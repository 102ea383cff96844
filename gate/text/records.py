"""Records laid out without Markdown, read as the table or list a reader sees in them.

    露营地 | 所在地 | 亮点              型号: 联想小新 Pro 14
    安吉江南天池 | 浙江湖州 | 凉快      价格: 约 5499 元
    莫干山竹海营地 | 浙江德清 | 安静    定位: 轻薄办公

Pipe-separated lines with no separator row are no GFM table, and key: value blocks are plain
paragraphs, yet each line or block is one record to a reader. :func:`as_markdown` writes them as
the table (its first line the header when it reads as one) or the list of named entries they
stand for; everything else is left as written. One pass over the lines.
"""

from __future__ import annotations

import re

from gate.lexicon import charset
from gate.text.deferred import deferred

_DELIMITER_CELL_RE = re.compile(r":?-+:?")
_HEADER_CELL_MAX = 6  # a header names a column in a few characters, without figures
_RECORD_KEY_MAX = 8
_KEY_EXCLUDES = r"\s|*#>"  # a key is a word: no space, no Markdown mark


def _key_value() -> str:
    key = charset("colon", also=_KEY_EXCLUDES, negated=True)
    return rf"^\s*(?P<key>{key}{{1,{_RECORD_KEY_MAX}}})\s*{charset('colon')}\s*(?P<value>\S.*)$"


_key_value_re = deferred(_key_value)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _delimiter_row(line: str) -> bool:
    """A GFM table's delimiter row: every cell hyphens, a colon at either end (|---|:--:|)."""
    return all(_DELIMITER_CELL_RE.fullmatch(cell) for cell in _cells(line))


def _table(rows: list[list[str]]) -> list[str]:
    header = all(0 < len(cell) <= _HEADER_CELL_MAX and not any(ch.isdigit() for ch in cell) for cell in rows[0])
    head, body = (rows[0], rows[1:]) if header else ([" "] * len(rows[0]), rows)
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *("| " + " | ".join(row) + " |" for row in body)]


def _pipe_table(block: list[str]) -> list[str] | None:
    """A block of adjacent lines holding '|' as a table, when it has no separator row and three or
    more lines of as many cells each (two or more)."""
    rows = [_cells(line) for line in block]
    if (len(block) < 3 or any(_delimiter_row(line) for line in block)
            or len(rows[0]) < 2 or any(len(row) != len(rows[0]) for row in rows)):
        return None
    return _table(rows)


def _record(paragraph: list[str]) -> list[tuple[str, str]] | None:
    """The paragraph's (key, value) pairs when every line of two or more is one."""
    pairs = [(m.group("key"), m.group("value").strip()) for line in paragraph if (m := _key_value_re().match(line))]
    return pairs if len(paragraph) >= 2 and len(pairs) == len(paragraph) else None


def _as_list(paragraphs: list[list[str]]) -> list[list[str]] | None:
    """Two or more key: value blocks in a row opening with the same key as list entries, each named
    by its first value and described by the other pairs; ``None`` when there are none."""
    records = [_record(p) for p in paragraphs]
    found: list[list[str]] = []
    changed = False
    for index, paragraph in enumerate(paragraphs):
        pairs = records[index]
        beside = [records[i] for i in (index - 1, index + 1) if 0 <= i < len(records)]
        if pairs is None or not any(other is not None and other[0][0] == pairs[0][0] for other in beside):
            found.append(paragraph)
            continue
        details = "; ".join(f"{key}: {value}" for key, value in pairs[1:])
        entry = f"- **{pairs[0][1]}**: {details}"
        if changed and found and found[-1][-1].startswith("- **"):
            found[-1].append(entry)  # one list: no blank line between its entries
        else:
            found.append([entry])
        changed = True
    return found if changed else None


_FENCE_RE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def as_markdown(text: str) -> str:
    """``text`` with its pipe lines and key: value records written as Markdown (code left alone);
    the same string when it has neither."""
    paragraphs: list[list[str]] = [[]]
    pipes: list[str] = []
    fenced = changed = False

    def flush() -> None:
        nonlocal changed
        table = _pipe_table(pipes) if pipes and not fenced else None
        paragraphs[-1].extend(table or pipes)
        changed = changed or table is not None
        pipes.clear()

    for line in text.split("\n"):
        if _FENCE_RE.match(line):
            flush()
            fenced = not fenced
        if "|" in line and not fenced and line.strip():
            pipes.append(line)
            continue
        flush()
        if line.strip() or fenced:
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    flush()
    listed = _as_list([p for p in paragraphs if p])
    if listed is None and not changed:
        return text
    return "\n\n".join("\n".join(p) for p in (listed or [p for p in paragraphs if p])) + "\n"
