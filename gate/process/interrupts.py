"""SIGINT and SIGTERM: how a stop request reaches a gate command, whatever it is doing.

A `gate` process takes both signals from its first import of the command line
(:func:`take_stop_signals`). While it starts — its imports, its options — a stop is only remembered:
a command that watches for stops takes it over as its first (`gate check` then calls no agent and
writes its reports, marked interrupted), any other ends at once with exit 130. Once a command runs
where it does not watch, a stop ends the process at once: exit 130, nothing more run. It is not
raised as KeyboardInterrupt there, which a library on the stack could swallow or misreport (pydantic
read one inside a pattern check as a failed match, and the stop became exit 2 or a pass).

A command that can end with reports watches for stops instead (:func:`stop_requests`): the first is
remembered, so the agent calls are cancelled, judging stops between trajectories and the
interrupted reports are still written; once the command has checked for a stop for the last time
(:meth:`StopRequests.settle`), a stop is too late to change what it decided. A second signal always
stops at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import NoReturn

from gate.errors import EXIT_INTERRUPTED

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


class _Process:
    """The process's own stop state (a `gate` process only)."""

    remembering = False
    """Starting, or in a command that watches for stops: a stop is remembered, not acted on."""
    pending = False
    """A stop came while remembering and no command has taken it over yet."""


def end_at_once() -> NoReturn:
    """Say so and end the process with exit 130, running nothing more (output so far is flushed)."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(OSError, ValueError, RuntimeError):  # closed, or being flushed by the code stopped
            stream.flush()
    with suppress(OSError):
        os.write(2, b"gate: interrupted\n")
    os._exit(EXIT_INTERRUPTED)


def _stop_at_once(_signum: int, _frame: FrameType | None) -> None:
    """The process's handler: a first stop while remembering is kept for the command, any other ends it."""
    if _Process.remembering and not _Process.pending:
        _Process.pending = True
        return
    end_at_once()


def take_stop_signals() -> None:
    """For a `gate` process, from its start: SIGINT and SIGTERM are remembered until a command runs
    (:func:`command_starts`), then end it at once with exit 130 wherever a command does not watch
    for them. Taken even when the parent left them ignored (a background job of a script ignores
    SIGINT): a stop sent to the gate is meant for it."""
    if threading.current_thread() is not threading.main_thread():
        return
    _Process.remembering = True
    for signum in _SIGNALS:
        signal.signal(signum, _stop_at_once)


def running_as_gate() -> bool:
    """Whether this process is the `gate` program (its script, or ``python -m gate``), not a
    program that imports the package (a test runner keeps its own handlers)."""
    main = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    return Path(sys.argv[0]).stem == "gate" or Path(main).parts[-2:] == ("gate", "__main__.py")


def command_starts(watches: bool) -> None:
    """The command is chosen. One that watches for stops (``watches``) takes over a stop that came
    while the process started; any other is not run when one came, and from now on a stop ends it
    at once."""
    if signal.getsignal(signal.SIGTERM) is not _stop_at_once or watches:
        return
    _Process.remembering = False
    if _Process.pending:
        end_at_once()


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
    if previous[signal.SIGTERM] is _stop_at_once:  # the process's: a stop while it started is this one's first
        stops.requested, _Process.pending = _Process.pending, False
    for signum, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(signum, stops._handle)
    try:
        yield stops
    finally:
        _Process.remembering = False  # the watched body is over: from here a stop ends the process at once
        for signum, handler in previous.items():
            if handler is signal.SIG_IGN or (stops.settled and handler is _stop_at_once):
                continue
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
