"""The shared retry policy's decisions: backoff with and without jitter, the longest wait, the
deadline, a client's rate-limit hook, and the two loops that wait by them."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from gate.net.errors import NetError
from gate.net.retry import GiveUp, RetryPolicy, Stop, retry_blocking, with_retries, worded_for_a_run

BUSY = NetError("HTTP 503 from http://agent: busy", retryable=True, status=503)


def test_the_backoff_doubles_up_to_its_cap_exactly_without_jitter_and_as_a_share_with_it() -> None:
    exact = RetryPolicy(base_s=1.0, cap_s=5.0, jitter=False, rand=lambda: 0.5)
    assert [exact.backoff(n) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 5.0]
    jittered = RetryPolicy(base_s=1.0, cap_s=5.0, rand=lambda: 0.5)
    assert [jittered.backoff(n) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 2.5]


def test_a_rate_limit_beyond_the_longest_wait_stops_while_a_server_errors_is_cut_to_it() -> None:
    policy = RetryPolicy(max_wait_s=60.0)
    limited = NetError("HTTP 429", retryable=True, retry_after=61.0, status=429)
    assert policy.plan(1, limited) == GiveUp(limited, Stop.TOO_LONG, 1, False, 61.0, 60.0, True)
    hinted = NetError("HTTP 503", retryable=True, retry_after=600.0, status=503)
    assert policy.plan(1, hinted) == 60.0


def test_what_is_not_retryable_stops_first_and_the_last_attempt_stops_second() -> None:
    final = NetError("HTTP 400 from http://agent: bad request", status=400)
    assert RetryPolicy().plan(1, final) == GiveUp(final, Stop.FINAL, 1, False, None, 120.0, True)
    assert RetryPolicy(retries=1).plan(2, BUSY, reached=False) == GiveUp(BUSY, Stop.EXHAUSTED, 2, True, None,
                                                                        120.0, False)
    only = RetryPolicy(retries=1, retryable=lambda error: error.status == 429)
    assert isinstance(only.plan(1, BUSY), GiveUp)


def test_a_wait_that_would_end_past_the_deadline_is_not_started() -> None:
    policy = RetryPolicy(base_s=4.0, jitter=False, deadline=1005.0, clock=lambda: 1000.0)
    assert policy.plan(1, BUSY) == 4.0
    assert policy.plan(2, BUSY) == GiveUp(BUSY, Stop.NO_TIME, 2, False, None, 120.0, True)


def test_a_clients_hook_reads_the_failed_response_before_the_retry_after_it_carries() -> None:
    asked: list[tuple[int, float]] = []

    def quota(response: httpx.Response, now: float) -> float | None:
        asked.append((response.status_code, now))
        return float(response.headers["x-ratelimit-reset"]) - now

    policy = RetryPolicy(rate_limit=quota, clock=lambda: 1000.0)
    response = httpx.Response(403, headers={"x-ratelimit-reset": "1042"})
    assert policy.plan(1, NetError("403", retryable=True, retry_after=5.0, status=403, response=response)) == 42.0
    assert policy.plan(1, NetError("no answer", retryable=True, retry_after=5.0)) == 5.0
    assert asked == [(403, 1000.0)]


def test_a_runs_last_error_names_a_wait_too_long_only_while_attempts_were_left() -> None:
    limited = NetError("HTTP 429 from http://agent", retryable=True, retry_after=3600.0, status=429)
    early = worded_for_a_run(GiveUp(limited, Stop.TOO_LONG, 1, False, 3600.0, 120.0, True))
    assert str(early) == ("HTTP 429 from http://agent — the agent asks to retry after 3600 s, more than the 120 s "
                          "a run waits; gave up")
    late = worded_for_a_run(GiveUp(limited, Stop.TOO_LONG, 4, True, 3600.0, 120.0, True))
    assert str(late) == "HTTP 429 from http://agent (after 4 attempts)" and late.retryable


def test_an_agent_call_given_a_deadline_stops_retrying_before_it() -> None:
    waited: list[float] = []

    async def wait(seconds: float) -> None:
        waited.append(seconds)

    async def busy() -> str:
        raise BUSY

    policy = RetryPolicy(retries=5, base_s=1.0, jitter=False, deadline=1001.5, clock=lambda: 1000.0, sleep=wait)
    with pytest.raises(NetError) as caught:
        asyncio.run(with_retries(busy, policy))
    assert str(caught.value) == "HTTP 503 from http://agent: busy (after 2 attempts)" and waited == [1.0]


def test_the_blocking_loop_waits_by_the_same_decisions_and_reports_each_retry() -> None:
    waited: list[float] = []
    told: list[tuple[str, float]] = []
    failures = iter([BUSY, NetError("refused", retryable=True, unreachable=True)])

    def call() -> str:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return "answer"

    policy = RetryPolicy(base_s=2.0, jitter=False, sleep_blocking=waited.append,
                         on_retry=lambda error, wait: told.append((str(error), wait)))
    assert retry_blocking(call, policy) == ("answer", 3)
    assert waited == [2.0, 4.0] and told == [(str(BUSY), 2.0), ("refused", 4.0)]


def test_the_blocking_loop_ends_with_the_policys_wording_of_the_last_error() -> None:
    def call() -> str:
        raise BUSY

    policy = RetryPolicy(retries=2, base_s=0.0, sleep_blocking=lambda seconds: None)
    with pytest.raises(NetError, match=r"^HTTP 503 from http://agent: busy \(after 3 attempts\)$"):
        retry_blocking(call, policy)
