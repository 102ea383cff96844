"""One JSON POST through a client of gate.net.client: its failures sorted into retryable or not,
secrets kept out of errors."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import httpx

from gate.net.body import ERROR_BODY_LIMIT, OUTPUT_CAP, human_size, parse_json_object, snippet
from gate.net.errors import NetError
from gate.net.retryafter import retry_after_seconds
from gate.redaction.secrets import redact


async def post_json(
    client: httpx.AsyncClient, url: str, body: Any, headers: Mapping[str, str], *,
    timeout_s: float, cap: int = OUTPUT_CAP, hint: str = "",
) -> dict[str, Any]:
    """POST ``body`` as JSON; the response's JSON object, or a :class:`NetError`.

    Retryable: connection errors, timeouts (of the whole exchange, ``timeout_s``), 429 (with
    Retry-After) and 5xx. Any other status (a 400 or 422 saying the request is invalid would say it
    again), a body that cannot be decoded (bad gzip) and any other request failure are final. An
    error's body is kept whole, redacted. Header values never appear in the message.
    """
    try:
        raw, response = await asyncio.wait_for(_send(client, url, body, headers, timeout_s, cap), timeout_s)
    except (asyncio.TimeoutError, httpx.TimeoutException):
        raise NetError(redact(f"timed out after {timeout_s:g} s at {url}", headers), retryable=True) from None
    except httpx.DecodingError as exc:
        message = f"the response body from {url} could not be decoded: {_detail(exc)}"
        raise NetError(redact(message, headers)) from None
    except httpx.ConnectError as exc:  # refused, unknown host: nothing listens there
        raise NetError(redact(f"connection failed to {url}: {_detail(exc)}", headers), retryable=True,
                         unreachable=True) from None
    except httpx.TransportError as exc:
        raise NetError(redact(f"connection failed to {url}: {_detail(exc)}", headers), retryable=True) from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:  # too many redirects, a URL httpx refuses…
        raise NetError(redact(f"the request to {url} failed: {_detail(exc)}", headers)) from None
    status = response.status_code
    if status >= 300:
        # the body whole (up to ERROR_BODY_LIMIT): the server's reason is in it, often past 200 characters;
        # redacted before it is cut, so a secret split by the cut cannot leave its prefix
        body = redact(raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw, headers)
        message = redact(f"HTTP {status} from {url}: {snippet(body, ERROR_BODY_LIMIT) or '(empty body)'}", headers)
        if status == 401 or status == 403:
            message += hint
        if status == 429:
            retry_after = retry_after_seconds(response.headers.get("retry-after"))
            raise NetError(message, retryable=True, retry_after=retry_after, status=status)
        raise NetError(message, retryable=status >= 500, status=status)
    try:
        return parse_json_object(raw, f"the HTTP {status} response body")
    except NetError as exc:
        raise NetError(redact(str(exc), headers)) from None


async def _send(
    client: httpx.AsyncClient, url: str, body: Any, headers: Mapping[str, str], timeout_s: float, cap: int,
) -> tuple[bytes, httpx.Response]:
    chunks: list[bytes] = []
    size = 0
    async with client.stream("POST", url, json=body, headers=dict(headers), timeout=timeout_s) as response:
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > cap:
                raise NetError(f"the response body from {url} exceeded the {human_size(cap)} cap")
            chunks.append(chunk)
    return b"".join(chunks), response


def _detail(exc: Exception) -> str:
    return str(exc) or type(exc).__name__
