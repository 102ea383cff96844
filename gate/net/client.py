"""The one factory of the gate's httpx clients: TLS verified (a custom CA bundle from SSL_CERT_FILE or
SSL_CERT_DIR), proxies taken from the environment as httpx takes them, the pool bounded, every
operation timed out. A CA bundle or a proxy in the environment that cannot be used is a GateError
naming its variables (gate.net.tls), never a traceback."""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from gate.net.tls import built_from_environment, verification_for

_HTTPX_MAX_CONNECTIONS = 100
"""httpx's own default pool (with 20 kept alive)."""


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
    never builds it (that imports httpcore and anyio, and for https loads the CA bundle: a sizeable
    share of a cached rerun's time, benchmarks/README.md (a)). A bad CA bundle or proxy in the
    environment is then a GateError at the first request, still before anything is sent."""

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


def sync_client(url: str, *, timeout: httpx.Timeout, headers: Mapping[str, str] | None = None,
                max_connections: int | None = None) -> httpx.Client:
    """A blocking client for the API at ``url`` (the GitHub client's): ``headers`` on every request,
    at most ``max_connections`` open (httpx's default, 100, when None), a bundle-free TLS context when
    every byte goes as plain http (gate.net.tls.verification_for)."""
    limits = httpx.Limits(max_connections=max_connections or _HTTPX_MAX_CONNECTIONS, max_keepalive_connections=20)
    with built_from_environment():
        return httpx.Client(headers=dict(headers or {}), timeout=timeout, verify=verification_for(url), limits=limits)
