from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from gate.net.headers import expand
from gate.net.retry import MAX_RETRY_AFTER_S, RetryPolicy, parse_retry_after
from gate.redaction.secrets import redact
from gate.runner.base import AgentError


def test_retry_after_seconds_and_dates() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    later = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=30), usegmt=True)
    parsed = parse_retry_after(later)
    assert parsed is not None and 25 < parsed <= 30


def test_delay_full_jitter_doubles_and_caps() -> None:
    policy = RetryPolicy(base_s=1.0, cap_s=5.0, rand=lambda: 1.0)
    error = AgentError("503", retryable=True)
    assert [policy.delay(n, error) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 5.0]
    assert RetryPolicy(rand=lambda: 0.0).delay(3, error) == 0.0


def test_retry_after_wins_but_is_clamped() -> None:
    policy = RetryPolicy(rand=lambda: 0.5)
    assert policy.delay(1, AgentError("429", retryable=True, retry_after=4)) == 4
    assert policy.delay(1, AgentError("429", retryable=True, retry_after=86400)) == MAX_RETRY_AFTER_S


def test_redact_hides_whole_values_and_bare_tokens() -> None:
    secrets = {"Authorization": "Bearer sk-abc123456", "X-Id": "42"}
    assert redact("got Bearer sk-abc123456 and sk-abc123456; Bearer scheme; id 42", secrets) == (
        "got *** and ***; Bearer scheme; id 42")  # values under 4 characters are too short to hunt for


def test_expand_at_call_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATE_T", "one")
    headers = {"A": "x-${GATE_T}-y"}
    assert expand(headers) == {"A": "x-one-y"}
    monkeypatch.setenv("GATE_T", "two")
    assert expand(headers) == {"A": "x-two-y"}
    monkeypatch.delenv("GATE_T")
    with pytest.raises(AgentError) as info:
        expand(headers)
    assert str(info.value) == "header uses ${GATE_T}, which is not set"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_a_non_finite_retry_after_is_unreadable_for_both_clients(value: str) -> None:
    import httpx

    from gate.github.api import rate_limit_wait

    assert parse_retry_after(value) is None
    response = httpx.Response(429, headers={"retry-after": value})
    assert rate_limit_wait(response, 0.0) == rate_limit_wait(httpx.Response(429), 0.0)


def test_both_clients_read_a_date_the_same_way() -> None:
    from datetime import datetime, timezone
    from email.utils import format_datetime

    from gate.net.retryafter import retry_after_seconds

    date = format_datetime(datetime(2026, 1, 1, 0, 1, tzinfo=timezone.utc), usegmt=True)
    now = datetime(2026, 1, 1, tzinfo=timezone.utc).timestamp()
    assert retry_after_seconds(date, now) == 60.0 and retry_after_seconds(date, now + 120) == 0.0
