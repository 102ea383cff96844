"""SIGINT/SIGTERM outside agent calls: remembered, so judging stops between trajectories and the
interrupted reports are still written (the agent runner cancels its own calls)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopRequests:
    """Whether a stop was asked for. A second signal stops at once (KeyboardInterrupt)."""

    def __init__(self) -> None:
        self.requested = False

    def _handle(self, _signum: int, _frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True


@contextmanager
def stop_requests() -> Iterator[StopRequests]:
    """Catch SIGINT/SIGTERM for the body (main thread only; signals ignored at start stay so)."""
    stops = StopRequests()
    if threading.current_thread() is not threading.main_thread():
        yield stops
        return
    previous = {signum: signal.getsignal(signum) for signum in _SIGNALS}
    for signum, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, stops._handle)
    try:
        yield stops
    finally:
        for signum, handler in previous.items():
            if handler is not signal.SIG_IGN:
                signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
