"""The one error type of a failed HTTP call, whoever made it (an agent adapter, the judge, the GitHub client)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx


class NetError(Exception):
    """One failed call. ``retryable``: a timeout, a lost connection, HTTP 429 or 5xx.

    The runner records any failed agent call with it (gate.runner.base.AgentError is this type), so
    its retry policy (gate.net.retry) reads the same fields whichever adapter failed.
    """

    def __init__(self, message: str, *, retryable: bool = False, retry_after: float | None = None,
                 unreachable: bool = False, status: int | None = None,
                 response: httpx.Response | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after
        """Seconds the server asked us to wait (HTTP Retry-After), if it said."""
        self.unreachable = unreachable
        """No connection could be made (refused, unknown host): nothing is listening there."""
        self.status = status
        """The HTTP status the server answered with, when it answered."""
        self.response = response
        """The answer that failed, when a retry policy's hook reads it (GitHub's rate-limit headers)."""
