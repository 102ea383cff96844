"""Quote agent-written text inside GitHub Markdown without it becoming markup."""

from __future__ import annotations

import re

from gate.report.sanitize import one_line

_SPECIAL_RE = re.compile(r"([\\`*_\[\]#|~>!])")


def inline(text: str, limit: int = 160) -> str:
    """One line of text safe in a table cell or list item: no HTML, no markup, no @-mention."""
    flat = one_line(text, limit)
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    flat = _SPECIAL_RE.sub(r"\\\1", flat)
    # A zero-width joiner after '@' keeps GitHub from notifying whoever the agent named.
    return flat.replace("@", "@\u200d")
