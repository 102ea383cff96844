"""The answer as a reader sees it rendered, for the readers that look for its picks.

Two shapes hide structure from a Markdown reading: HTML (:mod:`gate.text.html` reads it as the
Markdown it stands for) and a list or table wrapped in a plain code fence (```` ```text ````,
```` ```markdown ````, a bare ```` ``` ````), which chat interfaces show as the list it holds. The
view unwraps such a fence when what it holds reads as a list or table — two or more lines led by a
list marker or a number, or table rows — and leaves code, formulas and JSON fenced. A chat
template's token a small model lets through (``<|im_end|>``, a final ``</s>``) is dropped, and
records laid out without Markdown (pipe lines with no separator row, key: value blocks) are
written as the table or list they stand for (:mod:`gate.text.records`). Only the
item readers use the view; the format checks judge the answer as written.
"""

from __future__ import annotations

import re

from gate.text.cues import BULLET_RE, marker
from gate.text.html import as_markdown
from gate.text.records import as_markdown as records_as_markdown

_FENCE_RE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[A-Za-z]*)[ \t]*\n(?P<body>.*?)\n(?P=fence)[ \t]*$",
                       re.MULTILINE | re.DOTALL)
_PROSE_INFOS = frozenset({"", "text", "txt", "plain", "plaintext", "markdown", "md"})
_MARKDOWN_LINE_RE = re.compile(r"^[ \t]*(?:[-*+][ \t]+\S|\|.*\|[ \t]*$)")


def _structured(line: str) -> bool:
    """A line led by a list marker, a number or a bullet glyph (as the list readers know them), or a table row."""
    return _MARKDOWN_LINE_RE.match(line) is not None or marker(line) is not None or BULLET_RE.match(line) is not None


def _unwrap(match: re.Match[str]) -> str:
    body = match.group("body")
    if match.group("info").lower() not in _PROSE_INFOS or sum(_structured(line) for line in body.splitlines()) < 2:
        return match.group(0)
    return "\n" + body + "\n"


# A chat template's special token a small model lets through (<|im_end|>, <|eot_id|>, a closing </s>
# at the very end): no chat client shows it as text, and a reader of the picks looks past it.
_TEMPLATE_TOKEN_RE = re.compile(r"<\|[A-Za-z_]{2,24}\|>|</s>\s*\Z")


def item_view(text: str) -> str:
    """``text`` without chat-template tokens, with its HTML read as Markdown, its fenced lists and
    tables unwrapped and its records written as Markdown; the same string when there is none of these."""
    if "<" in text:
        text = _TEMPLATE_TOKEN_RE.sub("", text)
    viewed = as_markdown(text)
    if "```" in viewed or "~~~" in viewed:
        viewed = _FENCE_RE.sub(_unwrap, viewed)
    return records_as_markdown(viewed)
