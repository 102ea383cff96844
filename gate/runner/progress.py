"""The progress line: one updating stderr line, shown on a terminal outside CI."""

from __future__ import annotations

import os
import sys
from typing import TextIO


def auto_enabled(stream: TextIO | None = None) -> bool:
    """On when ``stream`` (stderr) is a terminal and the CI variable is not set."""
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("CI")


class Progress:
    """Counts finished jobs and redraws "[n/N] ok x · err y · cached z" in place."""

    def __init__(self, total: int, *, enabled: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.ok = self.errors = self.cached = 0
        self._enabled = enabled
        self._stream = stream or sys.stderr

    @property
    def done(self) -> int:
        return self.ok + self.errors + self.cached

    def line(self) -> str:
        return f"[{self.done}/{self.total}] ok {self.ok} · err {self.errors} · cached {self.cached}"

    def record(self, *, error: bool, cached: bool = False) -> None:
        if cached:
            self.cached += 1
        elif error:
            self.errors += 1
        else:
            self.ok += 1
        if self._enabled:
            self._stream.write(f"\r\x1b[2K{self.line()}")
            self._stream.flush()

    def finish(self) -> None:
        if self._enabled and self.done:
            self._stream.write("\n")
            self._stream.flush()
