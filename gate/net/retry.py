"""The one retry policy of every HTTP client of the gate (the agent's adapters, the judge, the GitHub
client): how many attempts, how long to back off between them, the longest wait a server may ask
for, an optional deadline, and which failures are retried. A client's own rules come in as hooks —
GitHub's rate-limit headers as ``rate_limit``, how its last error reads as ``final_error`` — so the
loop that waits and tries again is this module's alone: :func:`with_retries` for the async clients,
:func:`retry_blocking` for the blocking one, both deciding through :meth:`RetryPolicy.plan`."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, TypeVar

from gate.net.errors import NetError
from gate.net.reachability import Reachability
from gate.net.retryafter import retry_after_seconds

if TYPE_CHECKING:
    import httpx

__all__ = ["DEFAULT_BACKOFF_S", "MAX_RETRY_AFTER_S", "GiveUp", "Reachability", "RetryPolicy", "Stop",
           "parse_retry_after", "retry_blocking", "with_retries"]

T = TypeVar("T")

DEFAULT_BACKOFF_S = 0.5
"""First retry waits up to this long (full jitter), doubling per attempt."""

MAX_RETRY_AFTER_S = 120.0
"""A longer Retry-After is given up on at once: a CI job should fail rather than sleep for an hour."""


class Stop(Enum):
    """Why a call is not tried again."""

    FINAL = "final"
    """The failure is not retryable (a 400, a 404, a refused token…)."""
    TOO_LONG = "too long"
    """The server asks for a wait longer than ``max_wait_s``."""
    EXHAUSTED = "exhausted"
    """Every attempt was made."""
    NO_TIME = "no time"
    """The next wait would end past the deadline."""
    ENDPOINT_DOWN = "endpoint down"
    """While the call waited, the run found nothing listening at the endpoint (a Reachability)."""


@dataclass(frozen=True)
class GiveUp:
    """The end of a call's retries, for the client's ``final_error`` hook to word its last error."""

    error: NetError
    """The last attempt's failure."""
    stop: Stop
    attempts: int
    exhausted: bool
    """No attempt was left, whatever else stopped the call."""
    asked_s: float | None
    """The wait the server asked for (Retry-After, a rate limit), if it asked."""
    max_wait_s: float
    reached: bool
    """An attempt got an answer from the server (not only refused connections)."""


def _marked_retryable(error: NetError) -> bool:
    return error.retryable


def worded_for_a_run(end: GiveUp) -> NetError:
    """The agent's and the judge's last error: a wait beyond what a run accepts says so; an error
    after retries says how many attempts were made."""
    error = end.error
    if end.stop is Stop.TOO_LONG and not end.exhausted:
        return NetError(f"{error} — the agent asks to retry after {end.asked_s:.0f} s, more than the "
                        f"{end.max_wait_s:.0f} s a run waits; gave up")
    if end.attempts > 1:
        return NetError(f"{error} (after {end.attempts} attempts)", retryable=error.retryable,
                        unreachable=not end.reached)
    return error


@dataclass(frozen=True)
class RetryPolicy:
    """How often to try, how long to wait between tries, and what is worth another try.

    ``sleep``, ``sleep_blocking``, ``clock`` and ``rand`` are injectable so tests run fast."""

    retries: int = 3
    """Tries after the first."""
    base_s: float = DEFAULT_BACKOFF_S
    """The first backoff; each later one doubles, up to ``cap_s``."""
    cap_s: float = 30.0
    jitter: bool = True
    """Full jitter (a random share of the backoff, so that a run's calls do not retry in step);
    off, the backoff is exact."""
    max_wait_s: float = MAX_RETRY_AFTER_S
    """A rate limit asking for a longer wait is given up on at once; a server error's Retry-After is
    cut to it."""
    deadline: float | None = None
    """A ``clock`` time after which no retry starts: the requests of one command may share it."""
    retryable: Callable[[NetError], bool] = _marked_retryable
    """Which failures are tried again (default: those the client marked retryable)."""
    rate_limit: Callable[[httpx.Response, float], float | None] | None = field(default=None, repr=False)
    """A client's reading of a failed response (and the ``clock`` time): the wait it asks for, or
    None. Without one, the error's ``retry_after`` (Retry-After, read by gate.net.retryafter)."""
    final_error: Callable[[GiveUp], NetError] = field(default=worded_for_a_run, repr=False)
    """The error a call ends with once it is not tried again."""
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep, repr=False)
    """How :func:`with_retries` waits."""
    sleep_blocking: Callable[[float], None] = field(default=time.sleep, repr=False)
    """How :func:`retry_blocking` waits."""
    clock: Callable[[], float] = field(default=time.time, repr=False)
    rand: Callable[[], float] = field(default=random.random, repr=False)
    on_retry: Callable[[NetError, float], None] | None = None
    """Told of every retry (the error and the delay), e.g. to count them."""
    reachability: Reachability | None = None
    """Shared by a run's calls: none is sent once the endpoint is known to be down (see Reachability)."""

    def asked_wait(self, error: NetError) -> float | None:
        """The seconds the failed call's server asked to wait, if it asked."""
        if self.rate_limit is not None and error.response is not None:
            return self.rate_limit(error.response, self.clock())
        return error.retry_after

    def backoff(self, attempt: int) -> float:
        """The wait after failed attempt ``attempt`` (1-based) when the server asked for none."""
        ceiling = min(self.cap_s, self.base_s * 2.0 ** (attempt - 1))
        return float(self.rand() * ceiling if self.jitter else ceiling)

    def delay(self, attempt: int, error: NetError) -> float:
        """Seconds before retry number ``attempt`` (1-based): the wait asked for (at most
        ``max_wait_s``) if there is one, else the backoff."""
        return self._wait(attempt, self.asked_wait(error))

    def _wait(self, attempt: int, asked: float | None) -> float:
        return min(max(asked, 0.0), self.max_wait_s) if asked is not None else self.backoff(attempt)

    def affords(self, wait: float) -> bool:
        """Whether a wait of ``wait`` seconds ends before the deadline."""
        return self.deadline is None or self.clock() + wait < self.deadline

    def plan(self, attempt: int, error: NetError, *, reached: bool = True) -> float | GiveUp:
        """After failed attempt ``attempt`` (1-based): the seconds to wait before the next one, or
        why there is none. ``reached``: whether any attempt of the call got an answer."""
        exhausted = attempt > self.retries

        def stop(why: Stop, asked: float | None = None) -> GiveUp:
            return GiveUp(error, why, attempt, exhausted, asked, self.max_wait_s, reached)

        if not self.retryable(error):
            return stop(Stop.FINAL)
        asked = self.asked_wait(error)
        # a rate limit's wait is a condition; a server error's Retry-After is a hint, cut to max_wait_s
        server_error = error.status is not None and error.status >= 500
        if asked is not None and not server_error and asked > self.max_wait_s:
            return stop(Stop.TOO_LONG, asked)
        if exhausted:
            return stop(Stop.EXHAUSTED, asked)
        wait = self._wait(attempt, asked)
        return wait if self.affords(wait) else stop(Stop.NO_TIME, asked)


async def with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy) -> tuple[T, int]:
    """``call()``'s result and the number of attempts it took; ``policy.final_error`` of the last
    failure if no attempt succeeds.

    Only a :class:`NetError` the policy finds retryable is retried. With ``policy.reachability``, no
    attempt is made once the endpoint is known to be down: a call not yet sent fails at once, one
    waiting to retry gives up with its own error.
    """
    reachability = policy.reachability
    if reachability is not None and reachability.given_up:
        raise reachability.not_sent()
    attempt = 0
    reached = False  # did any attempt get through to the server?
    while True:
        attempt += 1
        try:
            result = await call()
        except NetError as exc:
            reached = reached or not exc.unreachable
            if reachability is not None and reached:
                reachability.reached = True
            plan = policy.plan(attempt, exc, reached=reached)
            if isinstance(plan, GiveUp):
                if reachability is not None and not reached:
                    reachability.refused_call(exc)
                raise policy.final_error(plan) from None
            await policy.sleep(plan)
            if reachability is not None and reachability.given_up:  # the endpoint is down: no more attempts
                down = GiveUp(exc, Stop.ENDPOINT_DOWN, attempt, False, None, policy.max_wait_s, reached)
                raise policy.final_error(down) from None
            if policy.on_retry is not None:
                policy.on_retry(exc, plan)
            continue
        if reachability is not None:
            reachability.reached = True
        return result, attempt


def retry_blocking(call: Callable[[], T], policy: RetryPolicy) -> tuple[T, int]:
    """:func:`with_retries` for a blocking client (GitHub's): the same decisions, waiting with
    ``policy.sleep_blocking``."""
    attempt = 0
    reached = False
    while True:
        attempt += 1
        try:
            return call(), attempt
        except NetError as exc:
            reached = reached or not exc.unreachable
            plan = policy.plan(attempt, exc, reached=reached)
            if isinstance(plan, GiveUp):
                raise policy.final_error(plan) from None
            failure = exc
        policy.sleep_blocking(plan)
        if policy.on_retry is not None:
            policy.on_retry(failure, plan)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date; None if absent or bad."""
    return retry_after_seconds(value)
