"""The event file of an Actions run (``GITHUB_EVENT_PATH``), read within GitHub's own bound."""

from __future__ import annotations

from typing import Any

from gate import safejson
from gate.filecap import MIB, read_bounded

MAX_EVENT_BYTES = 25 * MIB
"""GitHub caps a webhook payload at 25 MB: an event file larger than that is not one of its events."""


def read_event(path: str) -> Any:
    """The event's JSON; an OSError when it cannot be read, a ValueError (gate.filecap.TooLarge
    when over MAX_EVENT_BYTES, checked before reading) when it is not a bounded JSON document."""
    return safejson.loads(read_bounded(path, MAX_EVENT_BYTES))
