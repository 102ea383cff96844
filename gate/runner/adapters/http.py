"""The HTTP adapter: POST the request, read the trajectory from the JSON response."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from gate.net import headers as headers_mod
from gate.net.client import OnDemandClient
from gate.net.post import post_json


class HttpAdapter:
    """POSTs each request to ``url`` (checked: gate.config.agent_inputs) with the configured headers
    (${ENV} expanded per call)."""

    name = "http"
    handles_retries = False
    cacheable = True

    def __init__(self, url: str, headers: Mapping[str, str], timeout_s: float, concurrency: int,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        self._url = url
        self._headers = dict(headers)
        self._timeout = timeout_s
        self._http = OnDemandClient(timeout_s, concurrency, transport, url=url)

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return self._url  # header values are credentials, not part of what the agent answers

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        expanded = headers_mod.expand(self._headers)
        return await post_json(self._http.client, self._url, request, expanded, timeout_s=self._timeout)

    async def aclose(self) -> None:
        await self._http.aclose()
