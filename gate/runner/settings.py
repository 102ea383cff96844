"""How one run calls the agent and what it does with each answer: the settings of ``run_jobs``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gate.net.retry import DEFAULT_BACKOFF_S
from gate.runs.records import Kept
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict

if TYPE_CHECKING:
    import httpx

Judge = Callable[[Trajectory], RunVerdict]


@dataclass(frozen=True)
class RunnerSettings:
    """The settings of one :func:`gate.runner.run_jobs`; the defaults are a plain command's."""

    progress: bool | None = None
    """Show the progress line; None: when stderr is a terminal."""
    backoff_base_s: float = DEFAULT_BACKOFF_S
    """The first retry waits up to this long (full jitter), doubling per attempt (tests: 0)."""
    sleep: Callable[[float], Awaitable[None]] | None = None
    """How retries wait (default asyncio.sleep; tests make it instant)."""
    transport: httpx.AsyncBaseTransport | None = None
    """An HTTP transport for the http and openai adapters instead of the network (tests)."""
    give_up_unreachable: bool = True
    """Once the first calls found nothing listening and none reached the agent, the rest are recorded
    as not sent instead of each waiting out its retries (gate.yaml's
    ``decision.outage_on_unreachable``: one such run is an outage anyway)."""
    judge: Judge | None = None
    """Judge each answer as it arrives, so the progress counts passed and failed and the verdicts
    come back with the trajectories (judged once)."""
    prepare: Callable[[], None] | None = None
    """Work for the idle time of the agent calls (imports the judge and the reports will need), done
    in a worker thread once the first call is out, so it is done by the time answers come."""
    keep: Callable[[Trajectory], Kept] | None = None
    """What the outcome holds of each trajectory once it is judged (``gate.runs.records.Spool.keep``: its
    key, the rest on disk); None: the trajectory."""
