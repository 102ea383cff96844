"""A wall-clock budget for judging one trajectory, so a hostile answer ends as an error, not a hang.

Checkers are linear, but a megabyte of dense markup still costs seconds in a pure-Python Markdown
parser. Where POSIX interval timers are available and judging runs on the main thread (it does in
``gate check`` and ``gate eval``), the budget is enforced preemptively: a timer interrupts the
checker that is running. Elsewhere it is cooperative: no constraint starts once it is spent.
Code in C (a regular expression match) cannot be interrupted, which is why every pattern the
analysers use must run in linear time.
"""

from __future__ import annotations

import gc
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

DEFAULT_BUDGET_S = 5.0
_RETRY_S = 0.001

T = TypeVar("T")


class BudgetExceeded(BaseException):  # a BaseException: a checker's `except Exception` must not swallow it
    """Raised inside a checker when the trajectory's judging budget runs out."""


class Budget:
    """The time one trajectory may take to judge; ``None`` seconds is no limit."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._deadline = None if seconds is None else time.monotonic() + seconds
        self._armed = False  # only code run through :meth:`run` may be interrupted
        self._collecting = False  # inside a garbage collection, where a raised exception is lost
        self.fired = False

    @property
    def spent(self) -> bool:
        return self.fired or (self._deadline is not None and time.monotonic() >= self._deadline)

    def run(self, function: Callable[[], T]) -> T:
        """``function()``, interrupted by :class:`BudgetExceeded` when the budget runs out."""
        if self.spent:
            raise BudgetExceeded
        self._armed = True
        try:
            result = function()
        finally:
            self._armed = False
        if self.fired:  # the timer's exception was swallowed: raised in a gc callback or a __del__
            raise BudgetExceeded
        return result

    def _alarm(self, _signum: int, frame: Any) -> None:
        self.fired = True
        if not self._armed:
            return
        if self._collecting or _in_finalizer(frame):
            # Python would print and drop the exception here (a gc callback, a finalizer): try
            # again a moment later, back in the checker; run() still ends it if it returns first.
            signal.setitimer(signal.ITIMER_REAL, _RETRY_S)
            return
        self._armed = False
        raise BudgetExceeded

    def _collection_starts(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting = True

    def _collection_stops(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "stop":
            self._collecting = False

    def describe(self) -> str:
        return "no limit" if self.seconds is None else f"{self.seconds:g} s"


def _in_finalizer(frame: Any) -> bool:
    """Whether the interrupted code runs under a ``__del__`` called from inside :meth:`Budget.run`."""
    while frame is not None and frame.f_code is not Budget.run.__code__:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _can_preempt() -> bool:
    return (
        hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)  # someone else's timer: leave it
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0
    )


@contextmanager
def enforced(seconds: float | None) -> Iterator[Budget]:
    """A :class:`Budget` of ``seconds`` for the body, with the timer armed where it can be."""
    budget = Budget(seconds)
    if seconds is None or not _can_preempt():
        yield budget
        return
    previous = signal.signal(signal.SIGALRM, budget._alarm)
    # First and last of the gc callbacks, so the window covers every other callback and finalizer.
    gc.callbacks.insert(0, budget._collection_starts)
    gc.callbacks.append(budget._collection_stops)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield budget
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        gc.callbacks.remove(budget._collection_starts)
        gc.callbacks.remove(budget._collection_stops)
