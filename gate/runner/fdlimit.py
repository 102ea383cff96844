"""Concurrency within the file descriptors the process may open.

Each agent call in flight holds descriptors: a command agent's three pipes (six while it is
started, with the event loop's child watcher), an HTTP agent's socket. With ``ulimit -n 64`` and
``concurrency: 256`` the 20th process could not be started, and the run ended in an internal
error. The soft limit is raised toward the hard one where that is enough; otherwise the calls in
flight are capped to what fits, with a warning, and the run goes on, slower.
"""

from __future__ import annotations

import os

try:
    import resource
except ImportError:  # Windows: no such limit to query
    resource = None  # type: ignore[assignment]

DESCRIPTORS_PER_CALL = {"command": 8, "http": 2, "openai": 2}
"""Descriptors one call in flight may hold, with room to spare; adapters not named hold none."""

RESERVE = 48
"""Descriptors kept for everything else: cases, the cache, the spool, the reports, the judge."""


def _open_now() -> int:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 0


def fitting_concurrency(adapter: str, wanted: int, setting: str = "agent.concurrency") -> tuple[int, str | None]:
    """The calls that may be in flight at once for ``adapter``, and a warning (naming ``setting``)
    when fewer than ``wanted`` fit within the process's descriptor limit."""
    per_call = DESCRIPTORS_PER_CALL.get(adapter, 0)
    if not per_call or resource is None:
        return wanted, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = _open_now() + RESERVE + wanted * per_call
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return wanted, None
    fits = max(1, (soft - _open_now() - RESERVE) // per_call)
    return min(fits, wanted), (f"{setting} {wanted} needs about {needed} open files, more than this process may "
                  f"open ({soft}, ulimit -n): running {fits} call(s) at a time instead")
