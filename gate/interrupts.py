"""SIGINT and SIGTERM: how a stop request reaches a gate command, whatever it is doing.

A `gate` process takes both signals for its whole life (:func:`take_stop_signals`), so a stop while
it starts or loads ends it with exit 130 rather than a bare 143. A command that can end with reports
watches for stops instead (:func:`stop_requests`): the first is remembered, so the agent calls are
cancelled, judging stops between trajectories and the interrupted reports are still written; once
the command has checked for a stop for the last time (:meth:`StopRequests.settle`), a stop is too
late to change what it decided. A second signal always stops at once.
"""

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
        self.settled = False
        """The command has looked for the last time: a stop now is too late to change its outcome."""

    def _handle(self, _signum: int, _frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def request(self) -> None:
        """Count a stop that reached the command another way (the agent runner's own handler)."""
        self.requested = True

    def settle(self) -> bool:
        """Whether a stop came before now. From now on the first stop changes nothing (the outcome
        is decided and written), and the command ends as decided; a second still stops at once."""
        self.settled = True
        return self.requested


def _stop_at_once(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # the command line turns it into exit 130


def take_stop_signals() -> None:
    """For a `gate` process, from its start: SIGINT and SIGTERM end it as Ctrl-C does (exit 130)
    wherever a command does not watch for them. Taken even when the parent left them ignored (a
    background job of a script ignores SIGINT): a stop sent to the gate is meant for it."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in _SIGNALS:
        signal.signal(signum, _stop_at_once)


@contextmanager
def stop_requests() -> Iterator[StopRequests]:
    """Catch SIGINT/SIGTERM for the body (main thread only; signals ignored at start stay so).

    In a `gate` process, a body that settled keeps its handler to the end of the process: a stop
    after the outcome is decided is too late for it, not a reason to exit 130 beside reports that
    say otherwise."""
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
            if handler is signal.SIG_IGN or (stops.settled and handler is _stop_at_once):
                continue
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
