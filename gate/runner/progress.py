"""Progress a reader can see: one updating line on a terminal, periodic lines in a CI log.

Each shows how far the run is, how long it took so far and how long it may still take, and what the
answers came to — passed and failed as judged, not merely "answered":
``[48/156] 31% · 12 s · passed 40 · failed 6 · agent errors 2 · cached 0 · ETA 25 s``.
In a CI log (``CI`` or ``GITHUB_ACTIONS`` set, or any stream that is not a terminal) a line is
written at every 10 % and at least every ``interval_s`` seconds, inside a ``::group::`` on GitHub
Actions so the log stays folded; colour only on a terminal without ``NO_COLOR``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Literal, TextIO

Mode = Literal["tty", "log", "off"]

LOG_INTERVAL_S = 10.0
_RED, _RESET = "\x1b[31m", "\x1b[0m"


def auto_mode(stream: TextIO | None = None) -> Mode:
    """A terminal outside CI gets the updating line; CI logs get periodic lines."""
    stream = stream or sys.stderr
    is_tty = bool(getattr(stream, "isatty", lambda: False)())
    in_ci = bool(os.environ.get("CI") or os.environ.get("GITHUB_ACTIONS"))
    if is_tty and not in_ci:
        return "tty"
    return "log" if in_ci else "off"


def auto_enabled(stream: TextIO | None = None) -> bool:
    """Whether any progress is shown on ``stream`` by default."""
    return auto_mode(stream) != "off"


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


class Progress:
    """Counts finished jobs and reports them in the chosen mode."""

    def __init__(self, total: int, *, enabled: bool | Mode, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, interval_s: float = LOG_INTERVAL_S,
                 what: str = "agent calls", errors: str = "agent errors") -> None:
        self.total = total
        self._errors_label = errors
        self.passed = self.failed = self.errors = self.cached = self.answered = 0
        self._stream = stream or sys.stderr
        if enabled is True:
            enabled = auto_mode(self._stream) if auto_mode(self._stream) != "off" else "log"
        self.mode: Mode = "off" if enabled is False else enabled
        self._clock = clock
        self._started = clock()
        self._interval = interval_s
        self._last_line = self._started
        self._last_step = 0
        self._grouped = self.mode == "log" and bool(os.environ.get("GITHUB_ACTIONS"))
        self._colour = self.mode == "tty" and not os.environ.get("NO_COLOR")
        if self._grouped and total:
            self._write(f"::group::agent-gate: {total} {what}\n")

    @property
    def done(self) -> int:
        return self.answered + self.errors + self.cached

    def line(self) -> str:
        elapsed = self._clock() - self._started
        pct = f" {100 * self.done // self.total}%" if self.total else ""
        failed = f"failed {self.failed}"
        if self._colour and self.failed:
            failed = f"{_RED}{failed}{_RESET}"
        parts = [f"[{self.done}/{self.total}]{pct}", _duration(elapsed), f"passed {self.passed}", failed,
                 f"{self._errors_label} {self.errors}", f"cached {self.cached}"]
        fresh = self.answered + self.errors
        remaining = self.total - self.done
        if fresh and remaining:
            parts.append(f"ETA {_duration(elapsed / fresh * remaining)}")
        return " · ".join(parts)

    def record(self, *, error: bool, cached: bool = False, passed: bool | None = None) -> None:
        """One finished job: an agent error, a cached answer or a fresh one, and its verdict if judged."""
        if cached:
            self.cached += 1
        elif error:
            self.errors += 1
        else:
            self.answered += 1
        if passed is True:
            self.passed += 1
        elif passed is False:
            self.failed += 1
        if self.mode == "tty":
            self._write(f"\r\x1b[2K{self.line()}")
        elif self.mode == "log":
            step = 10 * self.done // self.total if self.total else 10
            now = self._clock()
            if step > self._last_step or now - self._last_line >= self._interval or self.done == self.total:
                self._last_step, self._last_line = step, now
                self._write(self.line() + "\n")

    def finish(self) -> None:
        if self.mode == "tty" and self.done:
            self._write("\n")
        if self._grouped and self.total:
            self._write("::endgroup::\n")

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()
