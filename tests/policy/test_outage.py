"""An outage is not a regression: when nothing listens where the agent should be, even one run says so."""

from __future__ import annotations

import asyncio

from test_budget import COUNT, _case

from gate.config import DecisionConfig
from gate.policy.outage import unavailable
from gate.runner.base import AgentError
from gate.runner.retry import RetryPolicy, with_retries
from gate.scoring.metrics import compute
from gate.trajectory import UNREACHABLE
from gate.verdict import RunVerdict, Status

REFUSED = "connection failed to http://127.0.0.1:9/run: [Errno 111] Connection refused (after 4 attempts)"


def _verdicts(refused: int, *, marked: bool = True, passed: int = 9) -> list[RunVerdict]:
    good = [RunVerdict(case_id="B3-QC-01", group="A", run=r, status=Status.PASS) for r in range(passed)]
    down = [RunVerdict(case_id="B3-QC-01", group="A", run=passed + r, status=Status.ERROR, error=REFUSED,
                       metadata={UNREACHABLE: True} if marked else {}) for r in range(refused)]
    return good + down


def _decide(verdicts: list[RunVerdict], **settings: object) -> str | None:
    cases = {"B3-QC-01": _case(COUNT)}
    finding = unavailable(compute(cases, verdicts), verdicts, DecisionConfig.model_validate(settings))
    return None if finding is None else finding.message


def test_one_run_that_never_reached_the_agent_is_an_outage() -> None:
    message = _decide(_verdicts(1))
    assert message == ("the agent is unavailable (nothing listened on any attempt of 1 run) — an outage, not a "
                       f"regression; the first error: {REFUSED}")


def test_without_the_unreachable_rule_one_run_of_ten_is_only_an_agent_error() -> None:
    assert _decide(_verdicts(1), outage_on_unreachable=False) is None
    assert _decide(_verdicts(1, marked=False)) is None  # an error that reached the agent (a 500) is no outage


def test_the_share_rule_still_holds_for_errors_that_reached_the_agent() -> None:
    message = _decide(_verdicts(10, marked=False, passed=2))
    assert message is not None and message.startswith("the agent is unavailable (group A: 10 of 12 runs ended")


def _attempts(*errors: AgentError) -> AgentError:
    pending = list(errors)

    async def call() -> None:
        raise pending.pop(0)

    async def no_wait(_: float) -> None:
        return None

    try:
        asyncio.run(with_retries(call, RetryPolicy(retries=len(errors) - 1, sleep=no_wait)))
    except AgentError as exc:
        return exc
    raise AssertionError("every attempt was meant to fail")


def test_unreachable_means_no_attempt_got_through() -> None:
    refused = AgentError("connection failed", retryable=True, unreachable=True)
    busy = AgentError("HTTP 503", retryable=True)
    assert _attempts(refused, refused, refused).unreachable
    assert not _attempts(refused, busy, refused).unreachable  # it answered once: it is there, but failing
