"""Secrets kept out of every message and report: each configured secret, in any of its spellings
(raw, JSON-escaped, URL-encoded, base64 — gate/redaction/spellings.py), replaced by ***.

:func:`public` is the one path every sink takes (the terminal, results.json, junit.xml, comment.md,
trajectories.jsonl, annotations and the posted comment): it hides the secrets this process was given
(:func:`remember`: header values, API keys, the GitHub token) and the values of secret-looking
environment variables. Shared by the agent's client and GitHub's, so neither wing imports the other.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Iterator, Mapping

from gate.redaction.spellings import pattern

REDACTED = "***"
_SCHEMES = {"bearer", "basic", "token", "digest"}
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|API[-_]?KEY|ACCESS[-_]?KEY|PRIVATE[-_]?KEY|CREDENTIAL|AUTH|COOKIE",
                          re.IGNORECASE)
_URL_CREDENTIALS = re.compile(r"(?<=://)[^/?#@\s]+@")
"""The ``user:password@`` of a URL (one bounded class before the @: linear)."""
SECRET_MIN_LENGTH = 8
"""Shorter values of secret-looking variables are left alone: they would mask ordinary words."""
PART_MIN_LENGTH = 4
"""Shorter words of a header value (``Bearer ab``'s ``ab``) are left alone for the same reason."""
_ESCAPE_STARTS = re.compile(r"[\\%&@]")
_remembered: set[str] = set()


def secret_parts(values: Iterable[str]) -> frozenset[str]:
    """Each value, and each word of it that is not an auth scheme ("Bearer sk-…": the token alone
    may be echoed too), at least :data:`PART_MIN_LENGTH` characters long."""
    parts: set[str] = set()
    for value in values:
        parts.add(value)
        parts.update(p for p in value.split() if p.lower() not in _SCHEMES)
    return frozenset(p for p in parts if len(p) >= PART_MIN_LENGTH)


@functools.lru_cache(maxsize=64)
def _compiled(parts: frozenset[str]) -> re.Pattern[str] | None:
    return pattern(parts)


def _hide(text: str, parts: frozenset[str]) -> str:
    if not parts or not text:
        return text
    # as written first where the pattern may not find it so: it reads a raw '\\', '%', '&' or '@'
    # that starts an escape as that escape
    for part in sorted((p for p in parts if _ESCAPE_STARTS.search(p)), key=len, reverse=True):
        text = text.replace(part, REDACTED)
    found = _compiled(parts)
    return found.sub(REDACTED, text) if found is not None else text


def redact(text: str, secrets: Mapping[str, str]) -> str:
    """``text`` with every header value (and each credential inside it), in any spelling, replaced by ***."""
    return _hide(text, secret_parts(secrets.values()))


def remember(values: Iterable[str]) -> None:
    """Secrets this process was given (header values, an API key, a token): hidden from every sink
    from now on, by :func:`public`."""
    _remembered.update(value for value in values if value)


def secret_headers(raw: Mapping[str, str], expanded: Mapping[str, str], variable: re.Pattern[str]) -> list[str]:
    """The expanded values of the headers that hold a secret: those whose value takes a ``variable``
    from the environment, or whose name says so (Authorization, X-Api-Key, Cookie …). A plain
    ``Content-Type: application/json`` is no secret: hiding it would mask ordinary text in reports."""
    return [expanded[name] for name, value in raw.items()
            if name in expanded and (variable.search(value) or _SECRET_NAME.search(name))]


def forget_all() -> None:
    """Forget what :func:`remember` was told (a process running gate commands one after another)."""
    _remembered.clear()


def environment_secrets(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables whose names say they hold a secret (…_TOKEN, …_API_KEY, …PASSWORD…)."""
    return {name: value for name, value in environ.items()
            if _SECRET_NAME.search(name) and len(value) >= SECRET_MIN_LENGTH}


def scrub(text: str, environ: Mapping[str, str]) -> str:
    """``text`` with a URL's credentials and every secret-looking variable's value replaced by ***:
    what a message printed where others read it (a CI log, an annotation) may not show."""
    return redact(_URL_CREDENTIALS.sub(f"{REDACTED}@", text), environment_secrets(environ))


def _known(environ: Mapping[str, str]) -> frozenset[str]:
    return secret_parts([*_remembered, *environment_secrets(environ).values()])


def public(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` fit for anyone to read: a URL's credentials, the remembered secrets and the values of
    secret-looking environment variables (``environ``, the process's unless given) replaced by ***."""
    known = _known(os.environ if environ is None else environ)
    return _hide(_URL_CREDENTIALS.sub(f"{REDACTED}@", text), known)


def without_secrets(text: str) -> str:
    """``text`` with the remembered secrets and secret-looking variables' values replaced by ***, and
    nothing else changed (an answer about to be judged keeps its ``ssh://git@host``)."""
    return _hide(text, _known(os.environ))


def public_pieces(pieces: Iterable[str]) -> Iterator[str]:
    """:func:`public` over a text given in pieces (a report written as it is encoded): cut only at
    line ends, so a secret split between two pieces is still found."""
    known = _known(os.environ)
    pending: list[str] = []
    for piece in pieces:
        end = piece.rfind("\n") + 1
        if not end:
            pending.append(piece)
            continue
        yield _hide(_URL_CREDENTIALS.sub(f"{REDACTED}@", "".join([*pending, piece[:end]])), known)
        pending = [piece[end:]]
    rest = "".join(pending)
    if rest:
        yield _hide(_URL_CREDENTIALS.sub(f"{REDACTED}@", rest), known)
