"""Retries with exponential backoff and full jitter, honouring a server's Retry-After."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from gate.net.errors import NetError
from gate.net.retryafter import retry_after_seconds

T = TypeVar("T")

DEFAULT_BACKOFF_S = 0.5
"""First retry waits up to this long (full jitter), doubling per attempt."""

MAX_RETRY_AFTER_S = 120.0
"""A longer Retry-After is given up on at once: a CI job should fail rather than sleep for an hour."""


@dataclass
class Reachability:
    """Whether anything listens at a run's endpoint, as its calls find out. Once ``limit`` calls have
    each found nothing listening on every attempt, and no call ever reached the endpoint, the rest
    are not sent: each would only wait out its retries to say the same (a run's calls to an agent
    that was never started would all wait out their retries before it ended in "unavailable")."""

    limit: int = 3
    reached: bool = False
    refused: int = 0
    first: str = ""
    """The first refused call's error, quoted by every call not sent."""

    @property
    def given_up(self) -> bool:
        return not self.reached and self.refused >= self.limit

    def not_sent(self) -> NetError:
        return NetError(f"not sent: the first {self.refused} calls found nothing listening ({self.first})",
                          unreachable=True)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait. ``sleep`` and ``rand`` are injectable so tests run fast."""

    retries: int = 3
    base_s: float = DEFAULT_BACKOFF_S
    cap_s: float = 30.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rand: Callable[[], float] = field(default=random.random)
    on_retry: Callable[[NetError, float], None] | None = None
    """Told of every retry (the error and the delay), e.g. to count them."""
    reachability: Reachability | None = None
    """Shared by a run's calls: none is sent once the endpoint is known to be down (see Reachability)."""

    def delay(self, attempt: int, error: NetError) -> float:
        """Seconds before retry number ``attempt`` (1-based): Retry-After if given, else full jitter."""
        if error.retry_after is not None:
            return min(max(error.retry_after, 0.0), MAX_RETRY_AFTER_S)
        return float(self.rand() * min(self.cap_s, self.base_s * 2.0 ** (attempt - 1)))


async def with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy) -> tuple[T, int]:
    """``call()``'s result and the number of attempts it took; the last error if all fail.

    Only a retryable :class:`NetError` is retried; the error finally raised says how many
    attempts were made. With ``policy.reachability``, no attempt is made once the endpoint is known
    to be down: a call not yet sent fails at once, one waiting to retry gives up with its own error.
    """
    reachability = policy.reachability
    if reachability is not None and reachability.given_up:
        raise reachability.not_sent()
    attempt = 0
    reached = False  # did any attempt get through to the agent?
    while True:
        attempt += 1
        try:
            result = await call()
        except NetError as exc:
            reached = reached or not exc.unreachable
            if reachability is not None and reached:
                reachability.reached = True
            if exc.retryable and attempt <= policy.retries:
                if exc.retry_after is not None and exc.retry_after > MAX_RETRY_AFTER_S:
                    raise NetError(f"{exc} — the agent asks to retry after {exc.retry_after:.0f} s, more than the "
                                     f"{MAX_RETRY_AFTER_S:.0f} s a run waits; gave up") from None
                wait = policy.delay(attempt, exc)
                await policy.sleep(wait)
                if reachability is None or not reachability.given_up:  # else: the endpoint is down, no more attempts
                    if policy.on_retry is not None:
                        policy.on_retry(exc, wait)
                    continue
            elif not reached and reachability is not None:
                reachability.refused += 1
                reachability.first = reachability.first or str(exc)
            if attempt > 1:
                raise NetError(f"{exc} (after {attempt} attempts)", retryable=exc.retryable,
                                 unreachable=not reached) from None
            raise
        if reachability is not None:
            reachability.reached = True
        return result, attempt


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date; None if absent or bad."""
    return retry_after_seconds(value)
