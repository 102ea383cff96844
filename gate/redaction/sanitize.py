"""Make agent-written text safe for XML and one-line reports."""

from __future__ import annotations

import re

# A terminated OSC (ESC ] … BEL or ESC \: terminal hyperlinks, window titles) whole — an unterminated
# one loses only its ESC ], so it cannot hide the text after it — then CSI, then two-character
# escapes. Each alternative is a run of one negated or ranged class, bounded by the next ESC: linear.
_ANSI_RE = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
# Characters XML 1.0 forbids (controls other than tab/LF/CR, surrogates, U+FFFE/FFFF).
_XML_ILLEGAL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` without ANSI escapes and XML-illegal characters."""
    return _XML_ILLEGAL_RE.sub("", _ANSI_RE.sub("", text))


def one_line(text: str, limit: int = 200) -> str:
    """Whitespace collapsed, cut at ``limit`` characters with an ellipsis."""
    flat = " ".join(xml_safe(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
