"""Markdown structure, read with a real parser: tables, lists, no list, plain text."""

from __future__ import annotations

from pydantic import Field, field_validator

from gate.checkers.base import Params, checker, quote
from gate.subject import Subject
from gate.text.formatting import FORMATTING_KINDS, Formatting
from gate.verdict import Outcome


class TableParams(Params):
    min_rows: int = Field(1, ge=1)
    """Data rows, header and delimiter not counted."""
    min_cols: int = Field(2, ge=1)


@checker("markdown:table", TableParams, "the answer contains a GFM table with a header and enough data rows")
def markdown_table(subject: Subject, params: TableParams) -> Outcome:
    tables = subject.markdown.tables()
    if not tables:
        return Outcome.failed("no Markdown table found (needs a header row and a |---| delimiter row)")
    best = max(tables, key=lambda t: len(t.cells))
    rows, cols = len(best.cells) - 1, len(best.cells[0])
    detail = f"table at line {best.line}: {rows} data rows × {cols} columns; needs ≥ {params.min_rows} rows, ≥ {params.min_cols} columns"
    return Outcome.of(rows >= params.min_rows and cols >= params.min_cols, detail)


class ListParams(Params):
    ordered: bool | None = None
    """True: numbered list; False: bullets; None: either."""


@checker("markdown:list", ListParams, "the answer's items are given as a Markdown list")
def markdown_list(subject: Subject, params: ListParams) -> Outcome:
    lists = subject.markdown.lists()
    if not lists:
        return Outcome.failed(f"no Markdown list; the items are given as {subject.items.source}")
    if subject.items.source not in ("list",):
        return Outcome.failed(f"the main items are a {subject.items.source} structure, not a Markdown list")
    main = next((lst for lst in lists if lst.line == subject.items.line), None) or max(
        lists, key=lambda lst: len(lst.items)
    )
    if params.ordered is not None and main.ordered != params.ordered:
        want = "numbered" if params.ordered else "bulleted"
        return Outcome.failed(f"the list at line {main.line} is not {want}")
    kind = "numbered" if main.ordered else "bulleted"
    return Outcome.passed(f"{kind} list at line {main.line} with {len(main.items)} items")


class NoListParams(Params):
    pass


@checker("markdown:no_list", NoListParams, "no Markdown list, and none made by hand (numbered lines such as 1、, bullets such as •)")
def markdown_no_list(subject: Subject, params: NoListParams) -> Outcome:
    # Every list the parser sees, wherever it is (a quoted "> - …" too), not only top-level ones —
    # and in HTML or inside a plain fence, where a reader sees it as one.
    marked = next((f for f in _shown_formatting(subject) if f.kind == "list"), None)
    if marked is not None:
        return Outcome.failed(f"Markdown list at line {marked.line}: '{quote(marked.snippet)}'", (f"line {marked.line}",))
    if subject.items.hand_lists:
        line, kind = subject.items.hand_lists[0]
        what = "numbered lines" if kind == "numbered" else "bullet symbols"
        return Outcome.failed(f"{what} used as a list at line {line}: '{quote(_line(subject.answer.splitlines(), line))}'")
    return Outcome.passed("no list")


def _emoji_paragraphs(lines: list[str], number: int) -> bool:
    """Paragraphs that each open with an emoji ("🚗 交通｜…", a blank line, "🏨 住宿｜…"): labelled
    prose, which plain text allows — not the adjacent lines of a bulleted list."""
    from gate.text.runs import GLYPHS

    line = _line(lines, number).lstrip()
    return bool(line) and line[0] not in GLYPHS and not _line(lines, number + 1).strip()


def _line(lines: list[str], number: int) -> str:
    """Line ``number`` (from 1) of the answer split once by its caller: split for each hand-made
    list, an answer of thousands was split thousands of times."""
    return lines[number - 1] if 0 < number <= len(lines) else ""


class PlainTextParams(Params):
    forbid: list[str] = Field(default_factory=lambda: list(FORMATTING_KINDS))
    """Formatting kinds that are violations; default: all."""

    @field_validator("forbid")
    @classmethod
    def _known(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - set(FORMATTING_KINDS))
        if unknown:
            raise ValueError(f"unknown formatting kinds {unknown}; known: {FORMATTING_KINDS}")
        return value


def _shown_formatting(subject: Subject) -> list[Formatting]:
    """The answer's formatting as written, plus the lists and tables a reader sees in its HTML or
    inside a plain fence (:attr:`Subject.viewed`), plus its HTML itself."""
    from gate.text.html import first_tag

    found = list(subject.markdown.formatting())
    if subject.viewed is not subject.markdown:
        found += [f for f in subject.viewed.formatting() if f.kind in ("list", "table")
                  and not any(g.kind == f.kind for g in found)]
        tag = first_tag(subject.answer)
        if tag is not None:
            found.append(Formatting("html", tag[0], tag[1]))
    return found


@checker("markdown:plain_text", PlainTextParams, "no heading, list, emphasis, block quote, code, table, rule or link")
def markdown_plain_text(subject: Subject, params: PlainTextParams) -> Outcome:
    found = [f for f in _shown_formatting(subject) if f.kind in params.forbid]
    if "list" in params.forbid:  # "• 清水寺" lines are a list to the reader, Markdown or not
        lines = subject.answer.splitlines()
        found += [
            Formatting("list", line, _line(lines, line).strip()[:40])
            for line, kind in subject.items.hand_lists if kind == "bullets" and not _emoji_paragraphs(lines, line)
        ]
        found.sort(key=lambda f: (f.line, f.kind))
    if found:
        shown = "; ".join(f"{f.kind} at line {f.line}: '{quote(f.snippet)}'" for f in found[:3])
        more = f" (+{len(found) - 3} more)" if len(found) > 3 else ""
        return Outcome.failed(f"{len(found)} formatting mark(s): {shown}{more}",
                              tuple(f"{f.kind}@{f.line}" for f in found))
    return Outcome.passed("plain text: no Markdown formatting")


