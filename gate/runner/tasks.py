"""Running a batch of tasks the way a CI job needs: Ctrl-C or SIGTERM cancels what is pending and
keeps what finished; a task's own exception is a bug and is raised, never swallowed."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def gather_until_stopped(tasks: Sequence[asyncio.Future[Any]], on_stop: Callable[[], None],
                               finish: Callable[[], Awaitable[None]],
                               stopped: Callable[[], bool] = lambda: False) -> None:
    """Wait for every task; a stop signal tells ``on_stop`` and cancels the pending ones; ``finish``
    (progress, connections) runs whatever happens; then the first exception a task raised, if any.
    ``stopped``: whether a stop came before the signals were taken here (then none of the tasks runs)."""
    restore = cancel_on_signals(tasks, on_stop, stopped)
    try:
        results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        restore()
        await finish()
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            raise result  # a bug, not an agent's or a judge's failure


def cancel_on_signals(tasks: Sequence[asyncio.Future[Any]], on_stop: Callable[[], None],
                      stopped: Callable[[], bool] = lambda: False) -> Callable[[], None]:
    """Ctrl-C or SIGTERM cancels the pending tasks (finished ones stay) after telling ``on_stop``;
    returns the undo. ``stopped`` is asked once the signals are taken: a stop that came before
    (while the cases loaded, between two runs) cancels them at once.

    Cancelling a call ends its agent process, so a CI runner's SIGTERM orphans no agent either.
    """
    loop = asyncio.get_running_loop()

    def interrupt() -> None:
        on_stop()
        for task in tasks:
            task.cancel()

    installed: list[tuple[signal.Signals, Any]] = []
    for signum in _STOP_SIGNALS:
        previous = signal.getsignal(signum)
        if previous is signal.SIG_IGN:  # the caller's choice (a `gate` process never ignores them)
            continue
        try:
            loop.add_signal_handler(signum, interrupt)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows, or not the main thread
            continue
        installed.append((signum, previous))
    if stopped():
        interrupt()

    def restore() -> None:
        for signum, previous in installed:
            loop.remove_signal_handler(signum)
            if previous is not None:
                signal.signal(signum, previous)

    return restore
