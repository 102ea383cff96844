"""HTML in an answer, read as the Markdown it stands for: what a reader of the rendered answer sees.

Models answer with ``<table>``, ``<ul><li>``, ``<b>`` and ``<br>`` as often as with Markdown; the
item readers know Markdown. :func:`as_markdown` turns the HTML of an answer into Markdown with the
standard library's HTML parser (tolerant of unclosed and stray tags): a table becomes a GFM table —
a ``rowspan`` cell repeated down the rows it spans, a ``colspan`` cell across its columns, a row that
is one cell spanning the whole table (a note under it) set after the table as a paragraph — lists
become Markdown lists (nested by indentation), ``<b>``/``<strong>`` bold, headings ``#`` headings,
``<br>`` and paragraphs line breaks; other tags are dropped, their text kept. Text outside the HTML
is kept as written. Only the item readers see the result: the format checks (``markdown:table``,
``markdown:plain_text``) judge the answer as written, where an HTML table is not a Markdown table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_STRUCTURE_RE = re.compile(r"<(?:table|tr|td|th|ul|ol|li|br|p|b|strong|h[1-6]|div)\b[^<>]{0,200}>", re.IGNORECASE)
"""A tag that gives an answer HTML structure; without one the text is left alone (a "<3000" is prose)."""

_MAX_SPAN = 50
"""A rowspan or colspan beyond this is read as this: a hostile span cannot make a grid of millions."""


def has_html(text: str) -> bool:
    """True when ``text`` holds HTML structure worth reading."""
    return _STRUCTURE_RE.search(text) is not None


def first_tag(text: str) -> tuple[int, str] | None:
    """The line and text of the first structural HTML tag, or None."""
    found = _STRUCTURE_RE.search(text)
    if found is None:
        return None
    return text.count("\n", 0, found.start()) + 1, found.group(0)[:40]


# Lists left open nest every later one deeper: past this depth they are written at it, so a
# thousand unclosed <ul> do not indent every line by thousands of spaces (quadratic text).
_DEEPEST_LIST = 8


@dataclass
class _Table:
    rows: list[list[tuple[str, int, int]]] = field(default_factory=list)
    """Each row's cells: (text, rowspan, colspan)."""
    heading_rows: list[bool] = field(default_factory=list)
    """Per row: every cell of it a ``<th>`` (or it sits in ``<thead>``)."""
    header_rows: int = 0
    in_head: bool = False


def _span(value: str | None) -> int:
    try:
        return max(1, min(_MAX_SPAN, int(value or 1)))
    except ValueError:
        return 1


def _grid(table: _Table) -> tuple[list[list[str]], list[str], bool]:
    """The table's cells laid out on a grid, spans filled in, its notes rows (a single cell
    spanning every column: a group label or a remark), and whether its first row is a header."""
    width = max((sum(colspan for _, _, colspan in row) for row in table.rows), default=0)
    grid: list[list[str]] = []
    notes: list[str] = []
    headed = False
    pending: dict[int, tuple[str, int]] = {}  # column → (text, rows still to fill)
    for row, heading in zip(table.rows, table.heading_rows, strict=True):
        if width > 1 and len(row) == 1 and row[0][2] >= width and not pending:
            notes.append(row[0][0])
            continue
        if not grid:
            headed = heading
        cells: list[str] = []
        taken = 0
        column = 0
        while taken < len(row) or column in pending:
            if column in pending:
                text, left = pending.pop(column)
                cells.append(text)
                if left > 1:
                    pending[column] = (text, left - 1)
                column += 1
                continue
            text, rowspan, colspan = row[taken]
            taken += 1
            for _ in range(colspan):
                if rowspan > 1:
                    pending[column] = (text, rowspan - 1)
                cells.append(text)
                column += 1
        grid.append(cells)
    return grid, notes, headed


def _table_markdown(table: _Table) -> str:
    grid, notes, headed = _grid(table)
    if not grid:
        return "\n\n".join(notes)
    width = max(len(row) for row in grid)
    if not headed:  # no header row (a group label over the rows, say): every row is data
        grid = [[""] * width, *grid]
    rows = [[cell.replace("|", "\\|") for cell in row] + [""] * (width - len(row)) for row in grid]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return "\n\n" + "\n".join(lines) + "\n\n" + "".join(f"{note}\n\n" for note in notes)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.tables: list[_Table] = []
        self.cell: list[str] | None = None
        self.cell_spans = (1, 1)
        self.lists: list[list[int]] = []  # per open list: [ordered (0/1), items so far]

    def _write(self, text: str) -> None:
        if self.cell is not None:
            self.cell.append(text)
        else:
            self.out.append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append(_Table())
        elif tag == "thead" and self.tables:
            self.tables[-1].in_head = True
        elif tag == "tr" and self.tables:
            self.end_cell()
            self.tables[-1].rows.append([])
            self.tables[-1].heading_rows.append(True)
        elif tag in ("td", "th") and self.tables:
            self.end_cell()  # a cell left open ends where the next one starts
            found = dict(attrs)
            self.cell, self.cell_spans = [], (_span(found.get("rowspan")), _span(found.get("colspan")))
            table = self.tables[-1]
            if not table.rows:
                table.rows.append([])
                table.heading_rows.append(True)
            table.heading_rows[-1] = table.heading_rows[-1] and (tag == "th" or table.in_head)
        elif tag in ("ul", "ol"):
            if not self.lists:
                self._write("\n")
            self.lists.append([int(tag == "ol"), 0])
        elif tag == "li" and self.lists:
            ordered, count = self.lists[-1]
            self.lists[-1][1] = count + 1
            indent = "   " * min(len(self.lists) - 1, _DEEPEST_LIST)
            self._write(f"\n{indent}{count + 1}. " if ordered else f"\n{indent}- ")
        elif tag in ("b", "strong"):
            self._write("**")
        elif tag == "br":
            self._write(" " if self.cell is not None else "\n")
        elif tag in ("p", "div"):
            self._write(" " if self.cell is not None else "\n\n")
        elif re.fullmatch(r"h[1-6]", tag) and self.cell is None:
            self._write("\n\n" + "#" * int(tag[1]) + " ")

    def end_cell(self) -> None:
        if self.tables and self.cell is not None:
            text = " ".join("".join(self.cell).split())
            self.tables[-1].rows[-1].append((text, *self.cell_spans))
            self.cell = None

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self.end_cell()
        elif tag == "thead" and self.tables:
            self.tables[-1].in_head = False
        elif tag == "table" and self.tables:
            self.end_cell()
            self._write(_table_markdown(self.tables.pop()))
        elif tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            self._write("\n\n" if not self.lists else "")
        elif tag in ("b", "strong"):
            self._write("**")
        elif tag in ("p", "div") or re.fullmatch(r"h[1-6]", tag):
            self._write(" " if self.cell is not None else "\n\n")

    def handle_data(self, data: str) -> None:
        if self.tables and self.cell is None and not data.strip():
            return  # whitespace between table tags
        self._write(data)


def as_markdown(text: str) -> str:
    """``text`` with its HTML read as the Markdown it stands for (unchanged when it has none)."""
    if not has_html(text):
        return text
    reader = _Reader()
    reader.feed(text)
    reader.close()
    while reader.tables:  # an unclosed table still holds its rows
        reader.end_cell()
        reader.out.append(_table_markdown(reader.tables.pop()))
    converted = "".join(reader.out)
    return re.sub(r"\n{3,}", "\n\n", converted).strip() + "\n"
