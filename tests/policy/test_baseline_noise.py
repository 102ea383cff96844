"""An inconclusive line the baseline's own noise explains becomes a note; everything else stays open."""

from __future__ import annotations

import pytest

from gate.case import Case
from gate.config.decision import DecisionConfig
from gate.config.gate_yaml import Thresholds
from gate.policy import baseline_noise
from gate.policy import evidence as decision
from gate.report.wording import message_of
from gate.scoring.comparison import Comparison
from gate.verdict import RunCount
from tests.policy.test_evidence import dimension

SETTINGS = DecisionConfig()  # baseline_runs 5, alpha 0.05


def _case(case_id: str) -> Case:
    return Case.model_validate({"id": case_id, "suite": "B3", "dimension": "QC", "title": "t", "difficulty": "easy",
                                "scoring": "auto", "groups": {"A": {"skill_enabled": False}},
                                "input": {"messages": [{"role": "user", "content": "hi"}]},
                                "constraints": [{"id": "c", "check": "markdown:plain_text"}],
                                "examples": {"pass": [{"final_answer": "a"}], "fail": [{"final_answer": "b", "fails": ["c"]}]}})


def settled(now: list[tuple[int, int]], base: list[tuple[int, int]] | None, **comparison: object) -> list[tuple[str, str]]:
    metrics = dimension(now)
    counts = {} if base is None else {f"c{i}": {"A": RunCount(passed=p, judged=j)} for i, (p, j) in enumerate(base)}
    compared = Comparison(present=base is not None, counts=counts, **comparison)  # type: ignore[arg-type]
    lines = decision.line_findings(metrics, Thresholds(), SETTINGS)
    cases = {cid: _case(cid) for cid in metrics.cases}
    return [(f.level.value, f.outcome or "note") for f in baseline_noise.settle(lines, metrics, compared, cases, SETTINGS)
            if f.rule == "min-a"]


# four cases, one bad run in this check: 75 % of 4 runs would pass; two bad runs: 50 %, inconclusive
TWO_BAD = [(1, 1), (1, 1), (0, 1), (0, 1)]


@pytest.mark.parametrize(("base", "comparison", "expected"), [
    pytest.param([(5, 5), (5, 5), (4, 5), (4, 5)], {}, [("info", "note")], id="a 90% baseline of 5 runs, no drop: noise"),
    pytest.param(None, {}, [("warning", "inconclusive")], id="no baseline: open"),
    pytest.param([(1, 1), (1, 1), (1, 1), (1, 1)], {}, [("warning", "inconclusive")], id="a one-run baseline: open"),
    pytest.param([(5, 5), (5, 5), (1, 5), (2, 5)], {}, [("info", "note")],
                 id="the baseline left the line undecided too (65%, its interval reaching 70%): known"),
    pytest.param([(1, 5), (1, 5), (0, 5), (0, 5)], {}, [("warning", "inconclusive")],
                 id="the baseline missed the line beyond doubt (10%): open"),
    pytest.param([(5, 5), (5, 5), (4, 5)], {}, [("warning", "inconclusive")], id="a case the baseline lacks: open"),
    pytest.param([(5, 5), (5, 5), (4, 5), (4, 5)], {"stale": True}, [("warning", "inconclusive")], id="stale: open"),
    pytest.param([(5, 5), (5, 5), (4, 5), (4, 5)], {"other_agent": True}, [("warning", "inconclusive")],
                 id="another agent's baseline: open"),
])
def test_an_inconclusive_line_is_settled_only_by_a_baseline_that_can_speak_for_it(
        base: list[tuple[int, int]] | None, comparison: dict[str, object], expected: list[tuple[str, str]]) -> None:
    assert settled(TWO_BAD, base, **comparison) == expected


def test_a_drop_from_a_steady_baseline_is_not_noise() -> None:
    steady = [(20, 20)] * 4
    assert settled(TWO_BAD, steady) == [("warning", "inconclusive")]  # p = 0.0049 against 80 of 80 runs


def test_the_note_says_what_the_baseline_showed() -> None:
    metrics = dimension(TWO_BAD)
    counts = {f"c{i}": {"A": RunCount(passed=p, judged=5)} for i, p in enumerate((5, 5, 4, 4))}
    lines = decision.line_findings(metrics, Thresholds(), SETTINGS)
    (note,) = baseline_noise.settle(lines, metrics, Comparison(present=True, counts=counts), {c: _case(c) for c in metrics.cases},
                                    SETTINGS)
    assert message_of(note) == ("B3/QC: A pass rate 50.0% (2/4 cases) [15–85%] vs the 70.0% line — within the baseline's "
                            "noise (no drop from the baseline: A p = 0.111)")
    counts = {f"c{i}": {"A": RunCount(passed=p, judged=5)} for i, p in enumerate((5, 5, 1, 2))}
    (known,) = baseline_noise.settle(lines, metrics, Comparison(present=True, counts=counts),
                                     {c: _case(c) for c in metrics.cases}, SETTINGS)
    assert message_of(known).endswith("— undecided on the base too — a known open question, not this change's (no drop "
                                  "from the baseline: A p = 0.556)")
