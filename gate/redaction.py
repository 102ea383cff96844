"""Secrets kept out of every message: header values, and the credential inside each, replaced by ***.

Shared by the agent's client and GitHub's, so neither wing imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping

REDACTED = "***"
_SCHEMES = {"bearer", "basic", "token", "digest"}


def redact(text: str, secrets: Mapping[str, str]) -> str:
    """``text`` with every header value (and each credential inside it) replaced by ***."""
    parts: set[str] = set()
    for value in secrets.values():
        parts.add(value)
        # "Bearer sk-…": the token alone may be echoed too; the scheme name is no secret.
        parts.update(p for p in value.split() if p.lower() not in _SCHEMES)
    for part in sorted((p for p in parts if len(p) >= 4), key=len, reverse=True):
        text = text.replace(part, REDACTED)
    return text
