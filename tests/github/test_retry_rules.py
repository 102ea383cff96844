"""GitHub's retry rules as the shared policy applies them: each wait, each limit, each last message."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx
import pytest

from gate.github import api
from gate.github.comment import CommentStatus, upsert_comment
from gate.net.retry import RetryPolicy

NOW = 1000.0


def _policy(waited: list[float], *, retries: int = 3, base_s: float = 1.0, deadline: float | None = None) -> RetryPolicy:
    return api.github_retries(retries=retries, base_s=base_s, deadline=deadline, sleep=waited.append, clock=lambda: NOW)


def _answers(*responses: httpx.Response | type[httpx.TransportError]) -> Callable[[httpx.Request], httpx.Response]:
    """A transport answering with ``responses`` in turn, the last one for ever."""
    queue: Iterator[httpx.Response | type[httpx.TransportError]] = iter(responses)
    last: list[httpx.Response | type[httpx.TransportError]] = []

    def reply(request: httpx.Request) -> httpx.Response:
        answer = next(queue, None) or last[0]
        last[:] = [answer]
        if isinstance(answer, type):
            raise answer("no route", request=request)
        return answer

    return reply


def _request(reply: Callable[[httpx.Request], httpx.Response], policy: RetryPolicy, method: str = "GET",
             retry_server_errors: bool = True) -> httpx.Response:
    with httpx.Client(transport=httpx.MockTransport(reply)) as client:
        return api.request(client, method, "https://api.github.com/repos/o/r/x", policy=policy,
                           retry_server_errors=retry_server_errors)


def _error(reply: Callable[[httpx.Request], httpx.Response], policy: RetryPolicy,
           retry_server_errors: bool = True) -> api.ApiError:
    with pytest.raises(api.ApiError) as caught:
        _request(reply, policy, retry_server_errors=retry_server_errors)
    return caught.value


def test_a_rate_limit_that_does_not_clear_says_how_many_tries_it_waited_out() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.Response(429, headers={"retry-after": "5"})), _policy(waited))
    assert type(error) is api.RateLimited and error.status == 429
    assert str(error) == "GET /repos/o/r/x: still rate limited after 4 tries" and waited == [5.0, 5.0, 5.0]


def test_a_rate_limit_too_long_to_wait_is_named_even_on_the_only_try() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.Response(429, headers={"retry-after": "61"})), _policy(waited, retries=0))
    assert type(error) is api.RateLimited
    assert str(error) == "GET /repos/o/r/x: rate limited; GitHub asks to wait 61 s, more than the 60 s allowed"
    assert waited == []


def test_an_exhausted_quota_waits_until_its_reset_and_a_secondary_limit_a_minute() -> None:
    waited: list[float] = []
    quota = httpx.Response(403, headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1012"})
    secondary = httpx.Response(403, json={"message": "You have exceeded a secondary rate limit"})
    assert _request(_answers(quota, secondary, httpx.Response(200)), _policy(waited)).status_code == 200
    assert waited == [12.0, 60.0]


def test_a_403_that_is_no_rate_limit_is_forbidden_at_once() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.Response(403, json={"message": "Resource not accessible by integration"})),
                   _policy(waited))
    assert type(error) is api.Forbidden
    assert str(error) == "GET /repos/o/r/x: 403 Resource not accessible by integration" and waited == []


def test_a_server_errors_retry_after_is_cut_to_the_longest_wait_not_given_up_on() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.Response(503, headers={"retry-after": "600"})), _policy(waited))
    assert type(error) is api.Unavailable and str(error) == "GET /repos/o/r/x: 503 Service Unavailable"
    assert waited == [60.0, 60.0, 60.0]


def test_server_errors_back_off_by_doubling_without_jitter() -> None:
    waited: list[float] = []
    assert _request(_answers(httpx.Response(500), httpx.Response(502), httpx.Response(200)),
                    _policy(waited, base_s=1.5)).status_code == 200
    assert waited == [1.5, 3.0]


def test_a_server_error_the_deadline_leaves_no_time_to_retry_says_so() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.Response(500)), _policy(waited, deadline=NOW + 1.5))
    assert str(error) == "GET /repos/o/r/x: 500 Internal Server Error (no time left to retry)"
    assert type(error) is api.Unavailable and waited == [1.0]


def test_a_network_failure_the_deadline_cuts_short_reads_as_it_came() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.ConnectError), _policy(waited, deadline=NOW + 1.5))
    assert type(error) is api.Unavailable and str(error) == "GET /repos/o/r/x: ConnectError: no route"
    assert waited == [1.0]


def test_a_request_that_must_not_be_resent_fails_on_its_first_server_error() -> None:
    waited: list[float] = []
    error = _error(_answers(httpx.Response(502)), _policy(waited), retry_server_errors=False)
    assert type(error) is api.Unavailable and str(error) == "GET /repos/o/r/x: 502 Bad Gateway" and waited == []


def test_a_post_that_keeps_failing_is_looked_for_before_each_new_try_then_skipped() -> None:
    waited: list[float] = []
    seen: list[str] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request.method)
        return httpx.Response(200, json=[]) if request.method == "GET" else httpx.Response(502)

    with httpx.Client(transport=httpx.MockTransport(reply)) as client:
        result = upsert_comment(client, api_url="https://api.github.com", repo="o/r", pr=1, body="x",
                                policy=_policy(waited))
    assert result.status is CommentStatus.SKIPPED
    assert result.reason == "POST /repos/o/r/issues/1/comments: 502 Bad Gateway; the gate's verdict stands"
    assert seen == ["GET", "POST"] * 4 and waited == [1.0, 2.0, 4.0]
