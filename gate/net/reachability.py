"""Whether anything listens at a run's endpoint, as its calls find out (gate.net.retry.with_retries)."""

from __future__ import annotations

from dataclasses import dataclass

from gate.net.errors import NetError


@dataclass
class Reachability:
    """Whether anything listens at a run's endpoint, as its calls find out. Once ``limit`` calls have
    each found nothing listening on every attempt, and no call ever reached the endpoint, the rest
    are not sent: each would only wait out its retries to say the same (a run's calls to an agent
    that was never started would all wait out their retries before it ended in "unavailable")."""

    limit: int = 3
    reached: bool = False
    refused: int = 0
    first: str = ""
    """The first refused call's error, quoted by every call not sent."""

    @property
    def given_up(self) -> bool:
        return not self.reached and self.refused >= self.limit

    def not_sent(self) -> NetError:
        return NetError(f"not sent: the first {self.refused} calls found nothing listening ({self.first})",
                          unreachable=True)

    def refused_call(self, error: NetError) -> None:
        """A call that ended without reaching the endpoint on any attempt."""
        self.refused += 1
        self.first = self.first or str(error)
