"""GitHub REST calls with bounded retries: rate limits honoured, server errors backed off.

Errors are typed so callers can tell "cannot post here" (a fork's read-only token, a rate limit
that does not clear) from a misconfiguration. Messages never carry the token.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from gate.files import safejson
from gate.net.errors import NetError
from gate.net.retryafter import retry_after_seconds
from gate.redaction.secrets import redact as redact_headers
from gate.redaction.secrets import remember

API_VERSION = "2022-11-28"
DEFAULT_API_URL = "https://api.github.com"
TIMEOUT = httpx.Timeout(30.0, connect=10.0)


@dataclass(frozen=True)
class RetryPolicy:
    """How long and how often to retry. ``sleep`` and ``clock`` are injectable for tests."""

    attempts: int = 4
    """Tries per request, the first included."""
    backoff_s: float = 1.0
    """Server errors and network failures wait 1, 2, 4 … times this."""
    max_wait_s: float = 60.0
    """A rate limit asking for a longer wait is given up on at once: CI should not stall."""
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    clock: Callable[[], float] = field(default=time.time, repr=False)
    deadline: float | None = None
    """A ``clock`` time after which no retry starts: every request of one command shares it, so an
    API that accepts connections and never answers cannot stall CI beyond it."""

    def affords(self, wait: float) -> bool:
        return self.deadline is None or self.clock() + wait < self.deadline

    def backoff(self, attempt: int) -> float:
        return float(self.backoff_s * 2 ** (attempt - 1))


class ApiError(NetError):
    """A request GitHub refused for a reason retrying will not fix (401, 404, 422 …): the one error type
    of a failed call (gate.net.errors), its subclasses saying why."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message, status=status)


class Forbidden(ApiError):
    """403 that is not a rate limit: the token may not write here (a fork's read-only token)."""


class RateLimited(ApiError):
    """Still rate limited after the allowed retries, or asked to wait longer than allowed."""


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
    for attempt in range(1, policy.attempts + 1):
        last = attempt == policy.attempts
        try:
            response = client.request(method, url, json=json)
        except httpx.TransportError as exc:
            if last or not retry_server_errors or not policy.affords(policy.backoff(attempt)):
                raise Unavailable(f"{where}: {type(exc).__name__}: {redact(str(exc), client)}") from None
            policy.sleep(policy.backoff(attempt))
            continue
        status = response.status_code
        if status in (403, 429):
            wait = rate_limit_wait(response, policy.clock())
            if wait is None:
                raise Forbidden(f"{where}: {status} {_message(response, client)}", status)
            if wait > policy.max_wait_s:
                raise RateLimited(
                    f"{where}: rate limited; GitHub asks to wait {wait:.0f} s, more than the "
                    f"{policy.max_wait_s:.0f} s allowed", status)
            if last or not policy.affords(wait):
                raise RateLimited(f"{where}: still rate limited after {attempt} tries", status)
            policy.sleep(wait)
            continue
        if status >= 500:
            if last or not retry_server_errors:
                raise Unavailable(f"{where}: {status} {_message(response, client)}", status)
            wait = rate_limit_wait(response, policy.clock()) if "retry-after" in response.headers else None
            pause = min(wait, policy.max_wait_s) if wait is not None else policy.backoff(attempt)
            if not policy.affords(pause):
                raise Unavailable(f"{where}: {status} {_message(response, client)} (no time left to retry)", status)
            policy.sleep(pause)
            continue
        if status >= 400:
            raise ApiError(f"{where}: {status} {_message(response, client)}", status)
        return response
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
