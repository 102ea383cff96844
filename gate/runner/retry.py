"""Retries with exponential backoff and full jitter, honouring a server's Retry-After."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from gate.retryafter import retry_after_seconds
from gate.runner.base import AgentError

T = TypeVar("T")

MAX_RETRY_AFTER_S = 120.0
"""A longer Retry-After is given up on at once: a CI job should fail rather than sleep for an hour."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait. ``sleep`` and ``rand`` are injectable so tests run fast."""

    retries: int = 3
    base_s: float = 0.5
    cap_s: float = 30.0
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rand: Callable[[], float] = field(default=random.random)
    on_retry: Callable[[AgentError, float], None] | None = None
    """Told of every retry (the error and the delay), e.g. to count them."""

    def delay(self, attempt: int, error: AgentError) -> float:
        """Seconds before retry number ``attempt`` (1-based): Retry-After if given, else full jitter."""
        if error.retry_after is not None:
            return min(max(error.retry_after, 0.0), MAX_RETRY_AFTER_S)
        return float(self.rand() * min(self.cap_s, self.base_s * 2.0 ** (attempt - 1)))


async def with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy) -> tuple[T, int]:
    """``call()``'s result and the number of attempts it took; the last error if all fail.

    Only a retryable :class:`AgentError` is retried; the error finally raised says how many
    attempts were made.
    """
    attempt = 0
    reached = False  # did any attempt get through to the agent?
    while True:
        attempt += 1
        try:
            return await call(), attempt
        except AgentError as exc:
            reached = reached or not exc.unreachable
            if not exc.retryable or attempt > policy.retries:
                if attempt > 1:
                    raise AgentError(f"{exc} (after {attempt} attempts)", retryable=exc.retryable,
                                     unreachable=not reached) from None
                raise
            if exc.retry_after is not None and exc.retry_after > MAX_RETRY_AFTER_S:
                raise AgentError(f"{exc} — the agent asks to retry after {exc.retry_after:.0f} s, more than the "
                                 f"{MAX_RETRY_AFTER_S:.0f} s a run waits; gave up") from None
            wait = policy.delay(attempt, exc)
            if policy.on_retry is not None:
                policy.on_retry(exc, wait)
            await policy.sleep(wait)


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: delta-seconds or an HTTP date; None if absent or bad."""
    return retry_after_seconds(value)
