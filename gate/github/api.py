"""GitHub REST calls with bounded retries: rate limits honoured, server errors backed off — by the
shared retry policy (gate.net.retry), to which this client brings only GitHub's own rules: what its
rate-limit headers ask for (:func:`requested_wait`) and how a request's last error reads
(:func:`worded_for_github`).

Errors are typed so callers can tell "cannot post here" (a fork's read-only token, a rate limit
that does not clear) from a misconfiguration. Messages never carry the token.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Any

import httpx

from gate.files import safejson
from gate.net.errors import NetError
from gate.net.retry import GiveUp, RetryPolicy, Stop, retry_blocking
from gate.net.retryafter import retry_after_seconds
from gate.redaction.secrets import redact as redact_headers
from gate.redaction.secrets import remember

API_VERSION = "2022-11-28"
DEFAULT_API_URL = "https://api.github.com"
TIMEOUT = httpx.Timeout(30.0, connect=10.0)


def github_retries(*, retries: int = 3, base_s: float = 1.0, max_wait_s: float = 60.0,
                   deadline: float | None = None, sleep: Callable[[float], None] = time.sleep,
                   clock: Callable[[], float] = time.time) -> RetryPolicy:
    """The shared retry policy (gate.net.retry) as the GitHub client uses it: ``retries`` after the
    first try; server errors and network failures wait 1, 2, 4 … times ``base_s``, exactly (one
    client, nothing to spread); a rate limit asking for more than ``max_wait_s`` is given up on at
    once, as CI should not stall; GitHub's rate-limit headers read by :func:`requested_wait`.
    ``sleep`` and ``clock`` are injectable for tests."""
    return RetryPolicy(retries=retries, base_s=base_s, cap_s=math.inf, jitter=False, max_wait_s=max_wait_s,
                       deadline=deadline, rate_limit=requested_wait, final_error=worded_for_github,
                       sleep_blocking=sleep, clock=clock)


class ApiError(NetError):
    """A request GitHub refused for a reason retrying will not fix (401, 404, 422 …): the one error type
    of a failed call (gate.net.errors), its subclasses saying why."""

    def __init__(self, message: str, status: int | None = None, *, retryable: bool = False,
                 response: httpx.Response | None = None) -> None:
        super().__init__(message, status=status, retryable=retryable, response=response)


class Forbidden(ApiError):
    """403 that is not a rate limit: the token may not write here (a fork's read-only token)."""


class RateLimited(ApiError):
    """Still rate limited after the allowed retries, or asked to wait longer than allowed."""

    def __init__(self, message: str, status: int | None = None, *, where: str = "", retryable: bool = False,
                 response: httpx.Response | None = None) -> None:
        super().__init__(message, status, retryable=retryable, response=response)
        self.where = where
        """The request (``GET /repos/…``) of a response not yet waited out, for the message the rate
        limit ends with; empty in that final error."""


class Unavailable(ApiError):
    """Server errors or network failures that outlasted the retries."""


def headers(token: str) -> dict[str, str]:
    """Request headers for the REST API (the token is hidden from every report and message from now on)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        agent = f"agent-gate/{version('agent-gate')}"
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        agent = "agent-gate"
    remember([token])
    return {
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": API_VERSION,
        "Authorization": f"Bearer {token}",
        "User-Agent": agent,
    }


def redact(text: str, client: httpx.Client) -> str:
    """``text`` with the client's token replaced by ***."""
    return redact_headers(text, {"authorization": client.headers.get("authorization", "")})


def json_body(response: httpx.Response) -> Any:
    """The response's JSON, read as strictly as any other input; an :class:`ApiError` naming the request if not."""
    try:
        return safejson.loads(response.content)
    except json.JSONDecodeError as exc:
        where = f"{response.request.method} {response.request.url.path}"
        raise ApiError(f"{where}: unreadable response ({exc.msg} at line {exc.lineno} column {exc.colno})",
                       response.status_code) from None


def _message(response: httpx.Response, client: httpx.Client | None = None) -> str:
    """GitHub's message, credentials redacted before the cut (a cut secret must leave no prefix)."""
    try:
        data: Any = safejson.loads(response.content)
    except ValueError:
        data = None
    text = data.get("message") if isinstance(data, dict) else None
    text = str(text) if text else response.reason_phrase or "no message"
    return (redact(text, client) if client is not None else text)[:300]


def rate_limit_wait(response: httpx.Response, now: float) -> float | None:
    """Seconds to wait before retrying a 403/429, or None when the response is no rate limit."""
    retry_after = response.headers.get("retry-after")
    if retry_after is not None:
        wait = retry_after_seconds(retry_after, now)  # against RetryPolicy.clock: testable
        if wait is not None:
            return wait
    if response.headers.get("x-ratelimit-remaining") == "0":
        reset = response.headers.get("x-ratelimit-reset")
        try:
            return max(0.0, float(reset) - now) if reset is not None else 60.0
        except ValueError:
            return 60.0
    if response.status_code == 429 or "rate limit" in _message(response).lower():
        return 60.0  # GitHub's advice when a secondary limit names no time: wait a minute
    return None


def requested_wait(response: httpx.Response, now: float) -> float | None:
    """GitHub's rate-limit rules as the shared policy's hook: the wait a rate limit (403, 429) asks
    for by its headers, or a server error's Retry-After; None when the response asks for none."""
    if response.status_code in (403, 429) or "retry-after" in response.headers:
        return rate_limit_wait(response, now)
    return None


def worded_for_github(end: GiveUp) -> NetError:
    """The error a request ends with: a rate limit says why it was not waited out; a server error
    that the deadline left no time to retry says so; any other failure reads as it came."""
    error = end.error
    if isinstance(error, RateLimited) and error.where:
        if end.stop is Stop.TOO_LONG:
            return RateLimited(f"{error.where}: rate limited; GitHub asks to wait {end.asked_s:.0f} s, more than "
                               f"the {end.max_wait_s:.0f} s allowed", error.status)
        return RateLimited(f"{error.where}: still rate limited after {end.attempts} tries", error.status)
    if end.stop is Stop.NO_TIME and error.status is not None:
        return Unavailable(f"{error} (no time left to retry)", error.status)
    return error


def request(
    client: httpx.Client,
    method: str,
    url: str,
    *,
    policy: RetryPolicy,
    json: Any = None,
    retry_server_errors: bool = True,
) -> httpx.Response:
    """Send one API request, retrying rate limits and (when safe) server and network errors."""
    where = f"{method} {httpx.URL(url).path}"

    def attempt() -> httpx.Response:
        try:
            response = client.request(method, url, json=json)
        except httpx.TransportError as exc:
            raise Unavailable(f"{where}: {type(exc).__name__}: {redact(str(exc), client)}",
                              retryable=retry_server_errors) from None
        status = response.status_code
        if status in (403, 429):
            if rate_limit_wait(response, policy.clock()) is None:
                raise Forbidden(f"{where}: {status} {_message(response, client)}", status)
            raise RateLimited(f"{where}: {status} {_message(response, client)}", status, where=where,
                              retryable=True, response=response)
        if status >= 500:
            raise Unavailable(f"{where}: {status} {_message(response, client)}", status,
                              retryable=retry_server_errors, response=response)
        if status >= 400:
            raise ApiError(f"{where}: {status} {_message(response, client)}", status)
        return response

    return retry_blocking(attempt, policy)[0]
