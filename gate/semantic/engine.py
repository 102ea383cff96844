"""Ask the judge for every (rubric, trajectory) sample: bounded concurrency, the reply cache first,
progress, and Ctrl-C or SIGTERM ending the run with what was answered."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.config.gate_yaml import JudgeConfig
from gate.net.retry import DEFAULT_BACKOFF_S, Reachability, RetryPolicy
from gate.process.interrupts import StopRequests
from gate.runner.fdlimit import fitting_concurrency
from gate.runner.progress import Progress, auto_enabled
from gate.runner.tasks import gather_until_stopped
from gate.semantic.client import JudgeClient, Sample
from gate.semantic.rubrics import Rubric
from gate.trajectory import Trajectory


@dataclass(frozen=True)
class Ask:
    """One verdict to obtain: a rubric on a trajectory, and the prompt that asks for it."""

    rubric: Rubric
    trajectory: Trajectory
    messages: list[dict[str, Any]]


@dataclass
class Answers:
    """The samples obtained, by (ask index, sample index); what a stop left unasked is absent."""

    samples: dict[tuple[int, int], Sample] = field(default_factory=dict)
    interrupted: bool = False
    url: str = ""

    def of(self, index: int, count: int) -> list[Sample] | None:
        """The ``count`` samples of ask ``index``, or None when a stop left any unasked."""
        found = [self.samples.get((index, s)) for s in range(count)]
        return None if any(s is None for s in found) else [s for s in found if s is not None]

    def stop(self) -> None:
        self.interrupted = True


def ask_all(asks: list[Ask], config: JudgeConfig, root: Path, *, use_cache: bool = True,
            progress: bool | None = None, backoff_base_s: float = DEFAULT_BACKOFF_S,
            sleep: Callable[[float], Awaitable[None]] | None = None, stops: StopRequests | None = None) -> Answers:
    """``config.samples`` samples of every ask. Endpoint failures become sample errors, never exceptions.
    ``stops``: the command's stop requests: one made before asks nothing, one made during counts."""
    answers = Answers()
    policy = RetryPolicy(retries=config.retries, base_s=backoff_base_s, sleep=sleep or asyncio.sleep,
                         reachability=Reachability())  # a judge that was never started: say so in seconds
    show = auto_enabled() if progress is None else progress
    try:
        asyncio.run(_ask(asks, config, root, use_cache, policy, show, answers, stops))
    except KeyboardInterrupt:
        answers.interrupted = True
    if stops is not None:
        answers.interrupted = answers.interrupted or stops.requested
        if answers.interrupted:
            stops.request()
    return answers


async def _ask(asks: list[Ask], config: JudgeConfig, root: Path, use_cache: bool, policy: RetryPolicy,
               show: bool, answers: Answers, stops: StopRequests | None) -> None:
    client = JudgeClient(config, root, policy, use_cache=use_cache)
    answers.url = client.url
    progress = Progress(len(asks) * config.samples, enabled=show, what="judge samples", errors="judge errors")
    concurrency, warning = fitting_concurrency("http", config.concurrency, "judge.concurrency")  # a socket each
    if warning:
        print(f"gate: warning: {warning}", file=sys.stderr)
    semaphore = asyncio.Semaphore(concurrency)

    async def one(index: int, sample: int) -> None:
        ask = asks[index]
        found = client.cached(ask.messages, sample)
        if found is None:
            async with semaphore:
                found = await client.sample(ask.messages, sample)
        answers.samples[(index, sample)] = found
        progress.record(error=found.vote is None, cached=found.cached,
                        passed=None if found.vote is None else found.vote.passed)

    async def finish() -> None:
        progress.finish()
        await client.aclose()

    tasks = [asyncio.ensure_future(one(i, s)) for i in range(len(asks)) for s in range(config.samples)]
    await gather_until_stopped(tasks, answers.stop, finish, stopped=lambda: stops is not None and stops.requested)
