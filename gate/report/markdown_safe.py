"""Quote agent-written text inside GitHub Markdown without it becoming markup."""

from __future__ import annotations

import re

from gate.redaction.sanitize import one_line

_SPECIAL_RE = re.compile(r"([\\`*_\[\]#|~!])")


def _guard(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # A zero-width joiner after '@' keeps GitHub from notifying whoever the text names.
    return text.replace("@", "@\u200d")


def own(text: str, limit: int = 300) -> str:
    """Text the gate wrote itself (findings): may use `code` spans; still no HTML, no @-mention."""
    return _guard(one_line(text, limit))


def inline(text: str, limit: int = 160) -> str:
    """One line of text safe in a table cell or list item: no HTML, no markup, no @-mention."""
    # HTML-escape first: the entities it writes contain no Markdown specials to escape again.
    return _SPECIAL_RE.sub(r"\\\1", _guard(one_line(text, limit)))
