"""Reading what a server (or an agent's stdout) sends: bounded, quoted short in errors, one JSON object."""

from __future__ import annotations

import json
from typing import Any

from gate.files import safejson
from gate.net.errors import NetError

OUTPUT_CAP = 10 * 1024 * 1024
"""Largest agent answer read (stdout or HTTP body), in bytes: a runaway agent cannot exhaust memory."""

ERROR_BODY_LIMIT = 16 * 1024
"""Characters of a server's error body kept in the run's error: the whole of any real one (a
validation error naming the field, a context-length message), while a body echoing the whole
request back is still bounded."""


def human_size(size: int) -> str:
    """``size`` bytes as the largest whole unit: '10 MB', '64 KB', '300 bytes'."""
    for unit, scale in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


def snippet(data: str | bytes, limit: int = 200) -> str:
    """A short, single-line excerpt of ``data`` for an error message."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def parse_json_object(raw: str | bytes, source: str) -> dict[str, Any]:
    """``raw`` as one JSON object, or a :class:`NetError` saying what ``source`` sent instead."""
    try:
        data = safejson.loads(raw)
    except json.JSONDecodeError as exc:  # invalid, or beyond the reader's bounds (depth, digits, NaN)
        where = f" ({exc.msg} at line {exc.lineno} column {exc.colno})"
        shown = snippet(raw) or "(empty)"
        raise NetError(f"{source} is not valid JSON{where}: {shown}") from None
    if not isinstance(data, dict):
        raise NetError(f"{source} must be a JSON object (a trajectory), got {type(data).__name__}")
    return data
