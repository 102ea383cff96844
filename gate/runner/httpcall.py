"""One JSON POST with httpx, its failures sorted into retryable or not, secrets kept out of errors."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import httpx

from gate.redaction import redact
from gate.runner.base import ERROR_BODY_LIMIT, OUTPUT_CAP, AgentError, human_size, parse_json_object, snippet
from gate.runner.retry import parse_retry_after
from gate.tls import built_from_environment, verification_for


def new_client(timeout_s: float, concurrency: int, transport: httpx.AsyncBaseTransport | None = None,
               *, url: str | None = None) -> httpx.AsyncClient:
    """A client whose pool fits the run's concurrency; a read that stalls ``timeout_s`` fails.

    httpx applies its timeout to each socket operation, so a server that keeps sending a byte now
    and then never trips it: :func:`post_json` bounds the whole exchange as well. ``transport``: an
    injected one (httpx.MockTransport in tests) instead of the network. ``url``: the one address
    the client posts to (redirects are not followed); a plain-http one needs no CA bundle. A CA
    bundle or a proxy in the environment that cannot be used is a GateError naming its variables.
    """
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    with built_from_environment():
        verify = verification_for(url) if url is not None else True
        return httpx.AsyncClient(timeout=httpx.Timeout(timeout_s), limits=limits, follow_redirects=False,
                                 transport=transport, verify=verify)


class OnDemandClient:
    """A run's one client, built at its first request: a run whose every answer comes from the cache
    never builds it (that imports httpcore and anyio, and for https loads the CA bundle: 25–55 ms of
    a cached rerun's half second). A bad CA bundle or proxy in the environment is then a GateError
    at the first request, still before anything is sent."""

    def __init__(self, timeout_s: float, concurrency: int, transport: httpx.AsyncBaseTransport | None = None,
                 *, url: str) -> None:
        self._settings = (timeout_s, concurrency, transport, url)
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            timeout_s, concurrency, transport, url = self._settings
            self._client = new_client(timeout_s, concurrency, transport=transport, url=url)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()


async def post_json(
    client: httpx.AsyncClient, url: str, body: Any, headers: Mapping[str, str], *,
    timeout_s: float, cap: int = OUTPUT_CAP, hint: str = "",
) -> dict[str, Any]:
    """POST ``body`` as JSON; the response's JSON object, or an :class:`AgentError`.

    Retryable: connection errors, timeouts (of the whole exchange, ``timeout_s``), 429 (with
    Retry-After) and 5xx. Any other status (a 400 or 422 saying the request is invalid would say it
    again), a body that cannot be decoded (bad gzip) and any other request failure are final. An
    error's body is kept whole, redacted. Header values never appear in the message.
    """
    try:
        raw, response = await asyncio.wait_for(_send(client, url, body, headers, timeout_s, cap), timeout_s)
    except (asyncio.TimeoutError, httpx.TimeoutException):
        raise AgentError(redact(f"timed out after {timeout_s:g} s at {url}", headers), retryable=True) from None
    except httpx.DecodingError as exc:
        message = f"the response body from {url} could not be decoded: {_detail(exc)}"
        raise AgentError(redact(message, headers)) from None
    except httpx.ConnectError as exc:  # refused, unknown host: nothing listens there
        raise AgentError(redact(f"connection failed to {url}: {_detail(exc)}", headers), retryable=True,
                         unreachable=True) from None
    except httpx.TransportError as exc:
        raise AgentError(redact(f"connection failed to {url}: {_detail(exc)}", headers), retryable=True) from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:  # too many redirects, a URL httpx refuses…
        raise AgentError(redact(f"the request to {url} failed: {_detail(exc)}", headers)) from None
    status = response.status_code
    if status >= 300:
        # the body whole (up to ERROR_BODY_LIMIT): the server's reason is in it, often past 200 characters;
        # redacted before it is cut, so a secret split by the cut cannot leave its prefix
        body = redact(raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw, headers)
        message = redact(f"HTTP {status} from {url}: {snippet(body, ERROR_BODY_LIMIT) or '(empty body)'}", headers)
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


def _detail(exc: Exception) -> str:
    return str(exc) or type(exc).__name__
