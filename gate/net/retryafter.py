"""The seconds an HTTP Retry-After header asks for, read one way for every client (the agent's and GitHub's)."""

from __future__ import annotations

import math
import time
from datetime import timezone
from email.utils import parsedate_to_datetime


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds from a Retry-After header — delta-seconds or an HTTP date, measured from ``now``
    (epoch seconds; the wall clock when not given) — never negative; None if absent or unreadable
    (a non-finite number included)."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return max(seconds, 0.0) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # "-0000" means UTC; a naive datetime would be read as local time
        when = when.replace(tzinfo=timezone.utc)
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)
