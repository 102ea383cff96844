"""An outage is not a regression: when nothing listens where the agent should be, even one run says so."""

from __future__ import annotations

import asyncio

from test_budget import COUNT, _case

from gate.config.decision import DecisionConfig
from gate.net.retry import Reachability, RetryPolicy, with_retries
from gate.policy.outage import unavailable
from gate.report.wording import message_of
from gate.runner.base import AgentError
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
    return None if finding is None else message_of(finding)


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


REFUSAL = AgentError("connection failed to http://127.0.0.1:9/run: [Errno 111] Connection refused",
                     retryable=True, unreachable=True)


async def _no_wait(_: float) -> None:
    return None


def _calls(outcomes: list[list[AgentError | None]], reachability: Reachability | None) -> tuple[list[str], list[int]]:
    """Each call, one after the other, with its own attempts' outcomes (None answers); what each
    ended with and how many attempts it made."""
    ended: list[str] = []
    made: list[int] = []
    policy = RetryPolicy(retries=2, sleep=_no_wait, reachability=reachability)
    for attempts in outcomes:
        pending = list(attempts)
        count = [0]

        async def call(pending: list[AgentError | None] = pending, count: list[int] = count) -> str:
            count[0] += 1
            error = pending.pop(0)
            if error is not None:
                raise error
            return "answer"

        try:
            ended.append(asyncio.run(with_retries(call, policy))[0])
        except AgentError as exc:
            ended.append(str(exc))
        made.append(count[0])
    return ended, made


def test_once_three_calls_found_nothing_listening_the_rest_are_not_sent() -> None:
    ended, made = _calls([[REFUSAL] * 3] * 6, Reachability())
    assert made == [3, 3, 3, 0, 0, 0]
    assert ended[:3] == [f"{REFUSAL} (after 3 attempts)"] * 3
    assert ended[3:] == [f"not sent: the first 3 calls found nothing listening ({REFUSAL})"] * 3


def test_an_endpoint_that_answered_once_is_never_given_up_on() -> None:
    busy = AgentError("HTTP 503 from http://127.0.0.1:9/run", retryable=True)
    for first in ([None], [busy, busy, busy]):  # an answer, or errors that reached it
        ended, made = _calls([first, *[[REFUSAL] * 3] * 5], Reachability())
        assert made == [len(first), 3, 3, 3, 3, 3] and not any(e.startswith("not sent") for e in ended)


def test_without_reachability_every_call_waits_out_its_retries() -> None:
    assert _calls([[REFUSAL] * 3] * 5, None)[1] == [3] * 5


def test_a_call_waiting_to_retry_makes_no_more_attempts_once_the_endpoint_is_known_down() -> None:
    reachability = Reachability(limit=2)
    attempts: dict[str, int] = {"waiting": 0, "one": 0, "two": 0}
    release = asyncio.Event()

    async def sleep(_: float) -> None:
        await release.wait()

    async def refused(name: str) -> str:
        attempts[name] += 1
        raise REFUSAL

    async def run() -> list[object]:
        waiting = asyncio.ensure_future(with_retries(lambda: refused("waiting"), RetryPolicy(
            retries=5, sleep=sleep, reachability=reachability)))
        await asyncio.sleep(0)  # its first attempt failed: it waits to retry
        now = RetryPolicy(retries=0, reachability=reachability)
        results: list[object] = []
        for name in ("one", "two"):
            try:
                await with_retries(lambda name=name: refused(name), now)
            except AgentError as exc:
                results.append(exc)
        release.set()
        results.append(await asyncio.gather(waiting, return_exceptions=True))
        return results

    *_, (waiting,) = asyncio.run(run())
    assert attempts == {"waiting": 1, "one": 1, "two": 1}
    assert isinstance(waiting, AgentError) and waiting.unreachable and str(waiting) == str(REFUSAL)
