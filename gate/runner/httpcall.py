"""One JSON POST with httpx, its failures sorted into retryable or not, secrets kept out of errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from gate.runner.base import OUTPUT_CAP, AgentError, human_size, parse_json_object, snippet
from gate.runner.headers import redact
from gate.runner.retry import parse_retry_after


def new_client(timeout_s: float, concurrency: int) -> httpx.AsyncClient:
    """A client whose pool fits the run's concurrency; a read that stalls ``timeout_s`` fails."""
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    return httpx.AsyncClient(timeout=httpx.Timeout(timeout_s), limits=limits, follow_redirects=False)


async def post_json(
    client: httpx.AsyncClient, url: str, body: Any, headers: Mapping[str, str], *,
    timeout_s: float, cap: int = OUTPUT_CAP, hint: str = "",
) -> dict[str, Any]:
    """POST ``body`` as JSON; the response's JSON object, or an :class:`AgentError`.

    Retryable: connection errors, timeouts, 429 (with Retry-After) and 5xx. Any other status is
    final. Header values never appear in the message.
    """
    try:
        raw, response = await _send(client, url, body, headers, timeout_s, cap)
    except httpx.TimeoutException as exc:
        raise AgentError(redact(f"timed out after {timeout_s:g} s ({type(exc).__name__}) at {url}", headers),
                         retryable=True) from None
    except httpx.TransportError as exc:
        detail = str(exc) or type(exc).__name__
        raise AgentError(redact(f"connection failed to {url}: {detail}", headers), retryable=True) from None
    status = response.status_code
    if status >= 300:
        message = redact(f"HTTP {status} from {url}: {snippet(raw) or '(empty body)'}", headers)
        if status == 401 or status == 403:
            message += hint
        if status == 429:
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            raise AgentError(message, retryable=True, retry_after=retry_after)
        raise AgentError(message, retryable=status >= 500)
    try:
        return parse_json_object(raw, f"the HTTP {status} response body")
    except AgentError as exc:
        raise AgentError(redact(str(exc), headers)) from None


async def _send(
    client: httpx.AsyncClient, url: str, body: Any, headers: Mapping[str, str], timeout_s: float, cap: int,
) -> tuple[bytes, httpx.Response]:
    chunks: list[bytes] = []
    size = 0
    async with client.stream("POST", url, json=body, headers=dict(headers), timeout=timeout_s) as response:
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > cap:
                raise AgentError(f"the response body from {url} exceeded the {human_size(cap)} cap")
            chunks.append(chunk)
    return b"".join(chunks), response
