"""How text the gate did not write is laid out in the judge's prompt so that none of it can pose as
the prompt's own structure: every line of agent, tool or example text starts with DATA_MARK, which
no line the gate writes starts with, and a case author's multi-line text (a rubric) continues on
indented lines. No nonce is needed for that: a line of data is marked whatever it spells."""

from __future__ import annotations

import re

DATA_MARK = "│ "
"""The start of every line of quoted text in the prompt (the system prompt explains it)."""

CONTINUED = "  "
"""The start of each further line of a labelled line the gate writes ("Rubric: …")."""

_LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
"""Every line boundary Python (str.splitlines) and Unicode know: a lone CR, a form feed or a line
separator must not start an unmarked line for a model that reads it as a break."""


def lines_of(text: str) -> list[str]:
    """``text`` split at every kind of line break, empty lines (and a trailing one) kept."""
    return _LINE_BREAK.split(text)


def quote(text: str) -> str:
    """``text`` with each of its lines marked as data."""
    return "\n".join(DATA_MARK + line for line in lines_of(text))


def unquote(quoted: str) -> str:
    """The text :func:`quote` marked, its line breaks as LF (what a reader of the prompt recovers)."""
    lines = quoted.split("\n")
    if not all(line.startswith(DATA_MARK) for line in lines):
        raise ValueError("a line of the quoted block does not start with the data mark")
    return "\n".join(line[len(DATA_MARK):] for line in lines)


def labelled(head: str, text: str) -> str:
    """``head`` and the first line of ``text``, then each further line of it indented: a rubric keeps
    its list layout, and none of its lines can start at the margin, where the gate's structure is."""
    first, *rest = lines_of(text.strip())
    return "\n".join([head + first, *(CONTINUED + line for line in rest)])
