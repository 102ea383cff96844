"""Run jobs against the agent: bounded concurrency, retries, the cache, progress, Ctrl-C and SIGTERM."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.config.agent_config import AgentConfig
from gate.config.agent_inputs import AgentInputs
from gate.files.jsonstore import writing_behind
from gate.net.retry import Reachability, RetryPolicy, with_retries
from gate.process.interrupts import StopRequests
from gate.runner.adapters import build_adapter
from gate.runner.base import Adapter, AgentError, error_trajectory, to_trajectory
from gate.runner.cache import Cache, cache_key
from gate.runner.fdlimit import fitting_concurrency
from gate.runner.identity import agent_identity
from gate.runner.progress import Progress, auto_enabled
from gate.runner.settings import RunnerSettings
from gate.runner.tasks import gather_until_stopped
from gate.runs.jobs import Job, build_request
from gate.runs.records import Kept
from gate.trajectory import UNREACHABLE, Trajectory
from gate.verdict import RunVerdict, Status

JUDGE_AFTER_S = 0.001
"""While other calls are out, an answer is judged this long after it arrives: answers that arrived
with it, and the requests their freed slots let out, go first. Judged at once, a round of answers
arriving together held back the next round's requests by all their judging."""

PREPARE_AFTER_S = 0.05
"""The work for the calls' idle time starts this long after the first call goes out: started at
once, it held the interpreter lock while the first requests were being connected and sent, and
the first round of calls took longer than the agent's latency."""

Key = tuple[str, str, int]


@dataclass(frozen=True)
class RunOutcome:
    """What a run produced: one trajectory per finished job, sorted by (case, group, run)."""

    trajectories: list[Kept]
    """Whole, or as the run's ``keep`` kept them."""
    interrupted: bool
    """Stopped by Ctrl-C or SIGTERM: the trajectories are the jobs that finished before."""
    calls: int
    """Jobs sent to the agent (a job counts once, however often it was retried)."""
    cache_hits: int
    retries: int = 0
    """Extra attempts after retryable failures."""
    verdicts: dict[Key, RunVerdict] = field(default_factory=dict)
    """The verdict of each trajectory, when the run was given a judge (the progress shows them)."""

    @property
    def errors(self) -> int:
        """Trajectories whose agent call failed."""
        return sum(1 for t in self.trajectories if t.error is not None)


@dataclass
class _State:
    finished: dict[Key, Kept] = field(default_factory=dict)
    interrupted: bool = False
    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    verdicts: dict[Key, RunVerdict] = field(default_factory=dict)
    in_flight: int = 0
    """Agent calls sent and not yet answered."""

    def count_retry(self, error: AgentError, delay: float) -> None:
        self.retries += 1

    def stop(self) -> None:
        self.interrupted = True

    def outcome(self) -> RunOutcome:
        ordered = [self.finished[k] for k in sorted(self.finished)]
        return RunOutcome(ordered, self.interrupted, self.calls, self.cache_hits, self.retries,
                          {k: self.verdicts[k] for k in sorted(self.verdicts)})


def run_jobs(jobs: list[Job], agent: AgentConfig, *, root: Path, settings: RunnerSettings | None = None,
             inputs: AgentInputs | None = None, stops: StopRequests | None = None) -> RunOutcome:
    """Call the agent once per job (cache permitting) and collect the trajectories.

    A failed call becomes a trajectory with ``error`` set, never an exception; Ctrl-C or SIGTERM
    stops the run and keeps what finished (``interrupted``). Bad settings raise GateError before
    any call. ``settings``: the progress line, the retry waits, the judge of each answer and what is
    kept of it (:class:`gate.runner.settings.RunnerSettings`; default: its defaults). ``inputs``: the agent's
    inputs as :func:`gate.config.agent_inputs.check_agent` checked them for these jobs (default: checked
    here); the run closes them. ``stops``: the command's stop requests: one made before the run
    sends no call, and a stop during the run counts as one.
    """
    settings = settings or RunnerSettings()
    state = _State()
    policy = RetryPolicy(retries=agent.retries, base_s=settings.backoff_base_s, sleep=settings.sleep or asyncio.sleep,
                         on_retry=state.count_retry,
                         reachability=Reachability() if settings.give_up_unreachable else None)
    try:
        asyncio.run(_run(jobs, agent, root, state, policy, settings, inputs, stops))
    except KeyboardInterrupt:  # no signal handler could be installed: asyncio cancelled the tasks
        state.interrupted = True
    if stops is not None:
        state.interrupted = state.interrupted or stops.requested  # a stop just before or after the loop took the signals
        if state.interrupted:
            stops.request()  # the command's next signal, while the rest is judged or written, stops at once
    return state.outcome()


async def _run(jobs: list[Job], agent: AgentConfig, root: Path, state: _State, policy: RetryPolicy,
               settings: RunnerSettings, inputs: AgentInputs | None, stops: StopRequests | None) -> None:
    # The adapter's inputs depend on the (case, group) pairs only; each request is built on its
    # job's turn and dropped with it: held for the whole run, every run's request (its messages
    # copied per run) grew with the case set.
    judge, prepare, keep = settings.judge, settings.prepare, settings.keep
    show = auto_enabled() if settings.progress is None else settings.progress
    adapter = build_adapter(agent, root, jobs, policy, settings.transport, inputs)
    cache = Cache(root / agent.cache) if agent.cache is not False and adapter.cacheable else None
    identity = agent_identity(agent, root, os.environ) if cache is not None else None
    if cache is not None and identity is None:
        print("gate: warning: the answer cache is keyed without an agent identity, so a changed agent behind "
              "the same endpoint would be served old answers; set agent.identity (a version or commit)",
              file=sys.stderr)
    progress = Progress(len(jobs), enabled=show)
    concurrency, warning = fitting_concurrency(adapter.name, agent.concurrency)
    if warning:
        print(f"gate: warning: {warning}", file=sys.stderr)
    semaphore = asyncio.Semaphore(concurrency)
    waits = adapter.cacheable  # its calls cost time; replay (not cached) answers at once

    def verdict_of(key: Key, trajectory: Trajectory) -> bool | None:
        if judge is None:
            return None
        verdict = state.verdicts[key] = judge(trajectory)
        return None if verdict.status in (Status.SKIPPED, Status.UNCERTAIN) else verdict.status is Status.PASS

    def kept(key: Key, trajectory: Trajectory) -> None:
        if keep is not None:  # once judged: a run stopped before holds the whole trajectory
            state.finished[key] = keep(trajectory)

    async def one(job: Job) -> None:
        request = build_request(job)
        key = cache_key(identity, adapter.name, adapter.fingerprint(request), request) if cache else None
        if cache is not None and key is not None:
            hit = cache.get(key, expect=job.key)
            if hit is not None:
                state.finished[job.key] = hit  # as first recorded: a cached rerun gives the same results
                state.cache_hits += 1
                progress.record(error=False, cached=True, passed=verdict_of(job.key, hit))
                kept(job.key, hit)
                return
        async with semaphore:
            if policy.reachability is None or not policy.reachability.given_up:  # a job not sent is no call
                state.calls += 1
                if state.calls == 1 and prepare is not None and waits:
                    _in_worker_thread(prepare)
            state.in_flight += 1
            try:
                trajectory = await _call(adapter, job.key, request, policy)
            finally:
                state.in_flight -= 1
            state.finished[job.key] = trajectory
        if cache is not None and key is not None:
            cache.put(key, trajectory)
        if judge is not None and state.in_flight:  # an adapter that answers at once (replay) never waits
            await asyncio.sleep(JUDGE_AFTER_S)
        progress.record(error=trajectory.error is not None, passed=verdict_of(job.key, trajectory))
        kept(job.key, trajectory)

    async def finish() -> None:
        progress.finish()
        await adapter.aclose()

    # Answers and verdicts are cached by the writer thread while calls that cost something are out
    # (replay's verdicts are written by the loop); all are on disk at the end.
    with writing_behind(waits):
        await gather_until_stopped(workers(jobs, one, concurrency), state.stop, finish,
                                   stopped=lambda: stops is not None and stops.requested)


def workers(jobs: list[Job], one: Callable[[Job], Awaitable[None]], concurrency: int) -> list[asyncio.Future[None]]:
    """Tasks taking the jobs in order until none is left: twice the agent's concurrency, so that
    while some judge the answers they got, the others keep every call slot busy. A task per job
    held memory for every pending job before the first was done."""
    pending = iter(jobs)

    async def work() -> None:
        for job in pending:
            await one(job)

    return [asyncio.ensure_future(work()) for _ in range(min(len(jobs), 2 * concurrency))]


def _in_worker_thread(work: Callable[[], None]) -> None:
    """Run ``work`` beside the event loop, which idles while agent calls are out (after
    PREPARE_AFTER_S); on the loop, the first answer judged imported the analysers while the
    answers that came with it waited. A failure is ignored here: whoever needs the same import meets
    it and reports it."""
    loop = asyncio.get_running_loop()

    def start() -> None:
        done = loop.run_in_executor(None, work)
        done.add_done_callback(lambda future: future.cancelled() or future.exception())

    loop.call_later(PREPARE_AFTER_S, start)


async def _call(adapter: Adapter, key: Key, request: dict[str, Any], policy: RetryPolicy) -> Trajectory:
    started = time.monotonic()

    async def attempt() -> dict[str, Any]:
        nonlocal started
        started = time.monotonic()  # latency of the answering attempt, not of the backoff waits
        return await adapter.call(request)

    attempts = 1
    try:
        if adapter.handles_retries:
            data = await attempt()
        else:
            data, attempts = await with_retries(attempt, policy)
        latency = round((time.monotonic() - started) * 1000)
        trajectory = to_trajectory(data, key)
    except AgentError as exc:
        latency = round((time.monotonic() - started) * 1000)
        return error_trajectory(key, str(exc), {"latency_ms": latency, **({UNREACHABLE: True} if exc.unreachable else {})})
    metadata = {**trajectory.metadata, "latency_ms": latency}
    if attempts > 1:
        metadata["attempts"] = attempts
    return trajectory.model_copy(update={"metadata": metadata})
