"""Secrets kept out of every message: header values, and the credential inside each, replaced by ***.

Shared by the agent's client and GitHub's, so neither wing imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

REDACTED = "***"
_SCHEMES = {"bearer", "basic", "token", "digest"}
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|AUTH", re.IGNORECASE)
_URL_CREDENTIALS = re.compile(r"(?<=://)[^/?#@\s]+@")
"""The ``user:password@`` of a URL (one bounded class before the @: linear)."""
SECRET_MIN_LENGTH = 8
"""Shorter values of secret-looking variables are left alone: they would mask ordinary words."""


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


def environment_secrets(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables whose names say they hold a secret (…_TOKEN, …_API_KEY, …PASSWORD…)."""
    return {name: value for name, value in environ.items()
            if _SECRET_NAME.search(name) and len(value) >= SECRET_MIN_LENGTH}


def scrub(text: str, environ: Mapping[str, str]) -> str:
    """``text`` with a URL's credentials and every secret-looking variable's value replaced by ***:
    what a message printed where others read it (a CI log, an annotation) may not show."""
    return redact(_URL_CREDENTIALS.sub(f"{REDACTED}@", text), environment_secrets(environ))
