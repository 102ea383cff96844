"""Every kind of reason a finding can carry, in the words the reports print: one example each, its text
pinned. The terminal, JUnit, the PR comment and results.json all print these lines, so a change here
is a change to every report."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import gate.policy.reasons
from gate.baseline.store import Acceptance
from gate.policy.drift import DimensionDrift
from gate.policy.reasons import Reason
from gate.policy.reasons.bar import (
    BarLowered,
    CaseGone,
    ConstraintChanged,
    ConstraintRemoved,
    GroupRemoved,
    LineSetBelow,
    Lowered,
    NoLongerNever,
    TurnedOff,
)
from gate.policy.reasons.consistency import ConsistencyBelow, CurveBroken, GainBelow
from gate.policy.reasons.drift import DetectableDrops, DriftCleared, Drifted, Spending
from gate.policy.reasons.lines import (
    AgentErrors,
    DeltaBelow,
    DeltaEvidence,
    NoJudgedRun,
    RateBelow,
    RateEvidence,
    Settled,
    UnjudgedRuns,
)
from gate.policy.reasons.never import NeverBroken, NeverUncertain, StandingAcceptance, Uncertain
from gate.policy.reasons.reference import (
    AcceptancesAdded,
    BaselineLoweredAt,
    BaselineUnparsable,
    ComparedAt,
    NoBarAt,
    NoBaselineAt,
    RefUnreadable,
)
from gate.policy.reasons.regressions import (
    BaselineNote,
    DimensionBelow,
    DimensionTest,
    PairCleared,
    PairOpen,
    PairRegressed,
)
from gate.policy.reasons.run import AgentDown, Interrupted, ShardOnly, Unreachable
from gate.policy.regressions import PairDecision, PairOutcome
from gate.report.wording import words
from gate.scoring.metrics import GroupMetrics
from gate.verdict import ConstraintVerdict, Reading, RunCount, Status

RATE = GroupMetrics(runs=4, passed=2, failed=2, case_counts=((1, 1), (1, 1), (0, 1), (0, 1)))
PAIR = PairDecision(case_id="B3-QC-01", group="A", baseline=RunCount(passed=5, judged=5), now=RunCount(passed=1, judged=4),
                    outcome=PairOutcome.REGRESSED, p_value=0.0238, level=0.0125, runs_needed=6)
POINT_PAIR = PairDecision(case_id="B3-QC-01", group="B", baseline=RunCount(passed=1, judged=1),
                          now=RunCount(passed=0, judged=1), outcome=PairOutcome.REGRESSED)
ACCEPTANCE = Acceptance(case_id="support-01", constraint="no_refund", reason="refunds under 5 EUR are automatic",
                        accepted_on="2026-12-01")
UNSURE = ConstraintVerdict(id="count", check="items:count", status=Status.UNCERTAIN, detail="3 or 5 items", readings=(
    Reading(label="3 items from the numbered list", verdict=Status.PASS, why="it follows the request"),
    Reading(label="5 entries of a plan list", verdict=Status.FAIL, why="a plan lead-in may precede it")))
DRIFT = DimensionDrift(dimension="B3/QC", strata=6, rounds=4, planned=6, first_round=RunCount(passed=4, judged=6),
                       baseline=RunCount(passed=29, judged=30), fresh=RunCount(passed=18, judged=24), outcome="regressed",
                       p_value=0.00412, level=0.0107, detectable_drop=0.19)
FIRST_ROUND = ({"dimension": "B3/QC", "group": "A", "stage": "first round", "detectable_drop": 0.81},
               {"dimension": "B3/QC", "group": "B", "stage": "first round", "detectable_drop": 0.7},
               {"dimension": "B3/AC", "group": "A", "stage": "first round", "detectable_drop": None})
SPENT = Spending(budget_calls=60, budget=2.0, first_calls=30, confirm_calls=3, pilot_calls=6, round_calls=24,
                 rounds=(("B3/QC", 4),))


WORDED: list[tuple[str, Reason, str]] = [
    ('no-judged-run', NoJudgedRun(dimension="B3/QC", by_consistency=False),
     'B3/QC: no rule-judged run in group A — the dimension is not gated'),
    ('no-judged-run-by-consistency', NoJudgedRun(dimension="X/OC", by_consistency=True),
     'X/OC: no rule-judged run in group A — gated by consistency only'),
    ('rate-below', RateBelow(dimension="B3/QC", group="A", rate=0.5, line=0.7),
     'B3/QC: A pass rate 50.0% < 70.0%'),
    ('rate-below-skill-explicit-red-line', RateBelow(dimension=None, group="B", rate=0.6, line=0.75, red_line=True),
     "skill-explicit cases: B pass rate 60.0% < 75.0% — the skill's own rules are not followed"),
    ('rate-evidence-below', RateEvidence(dimension="B3/QC", group="A", measured=RATE, confidence=0.95, line=0.9, decided=True),
     'B3/QC: A pass rate 50.0% (2/4 cases) [15–85%] is below the 90.0% line'),
    ('rate-evidence-open', RateEvidence(dimension=None, group="B", measured=RATE, confidence=0.95, line=0.85, decided=False, runs_per_case=3),
     'skill-explicit cases: B pass rate 50.0% (2/4 cases) [15–85%] vs the 85.0% line — inconclusive: about 3 runs per case would decide it'),
    ('rate-evidence-open-more-cases', RateEvidence(dimension="B3/QC", group="A", measured=RATE, confidence=0.95, line=0.7, decided=False),
     'B3/QC: A pass rate 50.0% (2/4 cases) [15–85%] vs the 70.0% line — inconclusive: more cases or runs would decide it'),
    ('delta-below-red-line', DeltaBelow(dimension="B3/QC", delta=-0.2, line=-0.15, red_line=True),
     'B3/QC: B − A = -20.0 pts < -15 pts — the skill must be fixed'),
    ('delta-evidence-below', DeltaEvidence(dimension="B3/QC", delta=-0.25, interval=(-0.5, -0.05), cases=4, line=0.0, red_line=False, decided=True),
     'B3/QC: B − A = -25.0 pts [-50, -5] over 4 cases < +0 pts'),
    ('delta-evidence-open', DeltaEvidence(dimension="B3/QC", delta=-0.2, interval=(-0.6, 0.2), cases=4, line=-0.15, red_line=True, decided=False),
     'B3/QC: B − A = -20.0 pts [-60, +20] over 4 cases vs the -15 pts line — inconclusive: more runs of these cases would decide it'),
    ('agent-errors', AgentErrors(group="A", errors=2, runs=10),
     'group A: 2 of 10 runs ended in an agent error (counted as not passed)'),
    ('unjudged-runs', UnjudgedRuns(group="B", unjudged=1, runs=10),
     'group B: 1 of 10 runs could not be fully judged — a checker error or the judging budget (counted as not passed; see the constraint details)'),
    ('settled-met', Settled(line=RateEvidence(dimension="B3/QC", group="A", measured=RATE, confidence=0.95, line=0.7, decided=False, runs_per_case=3), standing="met", tests=(("A", 0.5),)),
     "B3/QC: A pass rate 50.0% (2/4 cases) [15–85%] vs the 70.0% line — within the baseline's noise (no drop from the baseline: A p = 0.5)"),
    ('settled-undecided', Settled(line=DeltaEvidence(dimension="B3/QC", delta=-0.2, interval=(-0.6, 0.2), cases=4, line=-0.15, red_line=True, decided=False), standing="undecided", tests=(("A", 0.31), ("B", 0.0424))),
     "B3/QC: B − A = -20.0 pts [-60, +20] over 4 cases vs the -15 pts line — undecided on the base too — a known open question, not this change's (no drop from the baseline: A p = 0.31, B p = 0.0424)"),
    ('pair-regressed', PairRegressed(decision=PAIR, point=False, attribution="skill"),
     'B3-QC-01 (A): passes 1 of 4 runs now, 5 of 5 in the baseline (Fisher p = 0.0238 ≤ 0.0125) — attributed to the skill'),
    ('pair-regressed-point', PairRegressed(decision=POINT_PAIR, point=True),
     'B3-QC-01 (B) passed in the baseline and fails now (passes 0 of 1 run now, 1 of 1 in the baseline)'),
    ('pair-open-baseline-runs', PairOpen(decision=PAIR, needs="baseline-runs", baseline_runs=5),
     'B3-QC-01 (A): passes 1 of 4 runs now, 5 of 5 in the baseline (Fisher p = 0.0238) — inconclusive: record the baseline from more runs (`gate baseline update` records 5 per case) to decide it'),
    ('pair-open-more-runs', PairOpen(decision=PAIR, needs="more-runs", baseline_runs=5),
     'B3-QC-01 (A): passes 1 of 4 runs now, 5 of 5 in the baseline (Fisher p = 0.0238) — inconclusive: about 6 more runs would decide it (more `decision.confirm_runs`)'),
    ('pair-open-base-branch', PairOpen(decision=PAIR, needs="base-branch", baseline_runs=5),
     'B3-QC-01 (A): passes 1 of 4 runs now, 5 of 5 in the baseline (Fisher p = 0.0238) — inconclusive: more runs than a check makes would decide it: watch it on the base branch'),
    ('pair-cleared', PairCleared(decision=PAIR),
     "B3-QC-01 (A): passes 1 of 4 runs now, 5 of 5 in the baseline — within the baseline's noise, not a regression"),
    ('dimension-below', DimensionBelow(dimension="B3/QC", group="B", rate=0.6, baseline=0.8),
     "B3/QC (B): pass rate 60.0% fell below the baseline's 80.0%"),
    ('dimension-test', DimensionTest(dimension="B3/QC", group="A", measured=RATE, confidence=0.95, baseline=0.95, p_value=0.00123, level=0.0125, decided=True),
     "B3/QC (A): pass rate 50.0% (2/4 cases) [15–85%] vs the baseline's 95.0% (stratified exact test p = 0.00123 ≤ 0.0125)"),
    ('dimension-test-open', DimensionTest(dimension="B3/QC", group="A", measured=RATE, confidence=0.95, baseline=0.95, p_value=0.03, level=0.0125, decided=False),
     "B3/QC (A): pass rate 50.0% (2/4 cases) [15–85%] vs the baseline's 95.0% (stratified exact test p = 0.03; 0.0125 needed) — inconclusive"),
    ('no-baseline', BaselineNote(state="none"),
     'no baseline yet: nothing to compare with — `gate baseline update` records one from fresh runs'),
    ('stale-baseline', BaselineNote(state="stale"),
     'the baseline was recorded on a different case set (cases_digest changed) — update it with `gate baseline update`'),
    ('baseline-other-agent', BaselineNote(state="other-agent"),
     'the baseline was recorded with another agent identity or gate.yaml policy — the comparison may mix two agents; update it with `gate baseline update`'),
    ('baseline-v1', BaselineNote(state="v1"),
     'the baseline is a v1 file, read as one run per case: too thin to confirm most regressions — record a v2 one from fresh runs with `gate baseline update`'),
    ('consistency-below', ConsistencyBelow(case_id="X-OC-01", group="A", consistency=0.6, failed=True),
     "X-OC-01 (A): consistency 60.0% is below the case's fail line"),
    ('gain-below', GainBelow(case_id="X-SD-01", gain=0.02, failed=False),
     "X-SD-01: skill stability gain B − A = 2.0% is below the case's pass line"),
    ('curve-broken', CurveBroken(case_id="X-CD-04", breaks=("A: X-CD-02 → X-CD-03 drops 0.40",), hardest_gain=0.1),
     'X-CD-04: consistency degradation curve — A: X-CD-02 → X-CD-03 drops 0.40'),
    ('curve-hardest-gain', CurveBroken(case_id="X-CD-04", breaks=(), hardest_gain=0.0),
     'X-CD-04: consistency degradation curve — B gain on the hardest task 0.0%'),
    ('unreachable', Unreachable(runs=1, first_error="connection refused"),
     'the agent is unavailable (nothing listened on any attempt of 1 run) — an outage, not a regression; the first error: connection refused'),
    ('agent-down', AgentDown(groups=(("A", 10, 12), ("B", 9, 12)), first_error="HTTP 500"),
     'the agent is unavailable (group A: 10 of 12 runs; group B: 9 of 12 runs ended in an agent error) — an outage or a broken agent, not a regression; the first error: HTTP 500'),
    ('shard', ShardOnly(),
     'thresholds are enforced on the merged result (`gate merge`)'),
    ('interrupted', Interrupted(),
     'the run was interrupted: results are partial and never pass'),
    ('never-broken', NeverBroken(case_id="support-01", constraint="no_refund", group="A", runs=(0, 1, 2, 3, 4, 5), judged=6, first_detail="called refund_order (#1)"),
     'support-01 (A): never-rule `no_refund` broken in 6 of 6 runs (run 0, 1, 2, 3, 4, …; run 0: called refund_order (#1)) — one violation fails the gate, whatever the rates, the baseline or the reruns say'),
    ('never-broken-accepted', NeverBroken(case_id="support-01", constraint="no_refund", group="A", runs=(3,), judged=6, first_detail="called refund_order (#1)", acceptance=ACCEPTANCE),
     'support-01 (A): never-rule `no_refund` broken in 1 of 6 runs (run 3; run 3: called refund_order (#1)) — a known violation, accepted on 2026-12-01: refunds under 5 EUR are automatic'),
    ('standing-acceptance', StandingAcceptance(acceptance=ACCEPTANCE),
     'support-01: never-rule `no_refund` has a standing acceptance (accepted on 2026-12-01: refunds under 5 EUR are automatic), not broken in this run — revoke it with `gate baseline accept --revoke`'),
    ('uncertain', Uncertain(case_id="QC-01", group="A", uncertain=2, total=3, baseline=RunCount(passed=5, judged=5), known=False, shown=((1, UNSURE),)),
     'QC-01 (A): 2 of 3 runs uncertain, left out of the pass rate and never counted as passes (the baseline read all 5 of its runs of this pair); `gate review` settles it — `count` (run 1): read as «3 items from the numbered list» → pass (it follows the request); or as «5 entries of a plan list» → fail (a plan lead-in may precede it)'),
    ('uncertain-no-record', Uncertain(case_id="QC-01", group="A", uncertain=2, total=3, baseline=None, known=False, shown=((1, UNSURE),)),
     'QC-01 (A): 2 of 3 runs uncertain, left out of the pass rate and never counted as passes (no baseline record of this pair says whether it was read so before); `gate review` settles it — `count` (run 1): read as «3 items from the numbered list» → pass (it follows the request); or as «5 entries of a plan list» → fail (a plan lead-in may precede it)'),
    ('uncertain-known', Uncertain(case_id="QC-01", group="A", uncertain=2, total=3, baseline=RunCount(passed=3, judged=4, uncertain=1), known=True, shown=((1, UNSURE),)),
     'known: QC-01 (A): 2 of 3 runs uncertain, left out of the pass rate and never counted as passes (the baseline had 1 of its 5 runs of this pair uncertain too); `gate review` settles it — `count` (run 1): read as «3 items from the numbered list» → pass (it follows the request); or as «5 entries of a plan list» → fail (a plan lead-in may precede it)'),
    ('never-uncertain', NeverUncertain(case_id="QC-01", group="A", uncertain=1, total=2, run=1, first=UNSURE),
     'QC-01 (A): never-rule `count` uncertain in 1 of 2 runs — a possible violation of a never-rule is not waved through; `gate review` settles it — `count` (run 1): read as «3 items from the numbered list» → pass (it follows the request); or as «5 entries of a plan list» → fail (a plan lead-in may precede it)'),
    ('never-uncertain-accepted', NeverUncertain(case_id="QC-01", group="A", uncertain=1, total=2, run=1, first=UNSURE, accepted_on="2026-12-01"),
     'QC-01 (A): never-rule `count` uncertain in 1 of 2 runs — a possible case of a violation accepted on 2026-12-01; `gate review` settles it — `count` (run 1): read as «3 items from the numbered list» → pass (it follows the request); or as «5 entries of a plan list» → fail (a plan lead-in may precede it)'),
    ('lowered', Lowered(setting=("thresholds", "min_a"), before=0.7, after=0.5),
     'thresholds.min_a lowered from 0.7 to 0.5'),
    ('lowered-alpha', Lowered(setting=("decision", "alpha"), before=0.05, after=0.01),
     'decision.alpha lowered from 0.05 to 0.01 (fewer regressions confirmed)'),
    ('lowered-repeats', Lowered(setting=("repeats",), before=None, after=1),
     'repeats lowered from each case’s own to 1'),
    ('lowered-case-repeats', Lowered(setting=("repeats",), before=5, after=3, case_id="B3-QC-01"),
     'case B3-QC-01: repeats lowered from 5 to 3'),
    ('relaxed', Lowered(setting=("fail_on",), before="error", after="red-line", relaxed=True),
     'fail_on relaxed from error to red-line'),
    ('line-set-below', LineSetBelow(dimension="B3/QC", line="min_a", value=0.6, applied=0.7),
     'thresholds.per_dimension.B3/QC.min_a set to 0.6, below the 0.7 that applied'),
    ('turned-off', TurnedOff(setting=("decision", "fail_on_inconclusive")),
     'decision.fail_on_inconclusive turned off'),
    ('case-gone', CaseGone(case_id="B3-QC-01"),
     'case B3-QC-01 no longer runs (removed, or no longer selected)'),
    ('group-removed', GroupRemoved(case_id="B3-QC-01", group="B"),
     'case B3-QC-01: group B removed'),
    ('constraint-removed', ConstraintRemoved(case_id="B3-QC-01", constraint="count"),
     'case B3-QC-01: constraint `count` removed'),
    ('no-longer-never', NoLongerNever(case_id="support-01", constraint="no_refund"),
     'case support-01: constraint `no_refund` is no longer a never-rule (zero_tolerance)'),
    ('constraint-changed', ConstraintChanged(case_id="B3-QC-02", constraint="count", before="items:count", after="items:count"),
     'case B3-QC-02: constraint `count` changed (items:count → items:count, parameters or groups): a change may relax it'),
    ('bar-lowered', BarLowered(lowering=CaseGone(case_id="B3-QC-01"), ref="0123456789ab", acknowledged=False),
     "this change lowers the bar of 0123456789ab: case B3-QC-01 no longer runs (removed, or no longer selected) — the base's bar applies; a maintainer acknowledges a deliberate lowering (--accept-lowered-bar, e.g. from a label)"),
    ('bar-lowered-acknowledged', BarLowered(lowering=TurnedOff(setting=("decision", "fail_on_inconclusive")), ref="0123456789ab", acknowledged=True),
     'acknowledged: this change lowers the bar of 0123456789ab: decision.fail_on_inconclusive turned off'),
    ('ref-unreadable-baseline', RefUnreadable(what="baseline", ref="0123456789ab", error="not a commit"),
     "could not read the baseline at 0123456789ab (not a commit) — compared with the working tree's, which this change may have edited; check out with history (fetch-depth: 0) so the base's can be read"),
    ('ref-unreadable-bar', RefUnreadable(what="bar", ref="0123456789ab", error="not a commit"),
     "could not read the bar at 0123456789ab (not a commit) — this change's own cases and settings decide; check out with history (fetch-depth: 0) so the base's can be read"),
    ('no-baseline-at', NoBaselineAt(ref="0123456789ab"),
     "no baseline at 0123456789ab yet: compared with the working tree's"),
    ('no-bar-at', NoBarAt(ref="0123456789ab", file="gate.yaml"),
     "no gate.yaml at 0123456789ab: the bar is this change's own"),
    ('baseline-unparsable', BaselineUnparsable(ref="0123456789ab", error="not JSON"),
     "the baseline at 0123456789ab is unreadable (not JSON) — compared with the working tree's"),
    ('compared-at', ComparedAt(ref="0123456789ab"),
     'compared with the baseline at 0123456789ab'),
    ('baseline-lowered-at', BaselineLoweredAt(ref="0123456789ab", cases=("B3-QC-01 (A)", "B3-QC-02 (B)")),
     'this change lowers the baseline for 2 case(s) that passed at 0123456789ab: B3-QC-01 (A), B3-QC-02 (B) — a lowered bar must be a reviewed decision'),
    ('acceptances-added', AcceptancesAdded(ref="0123456789ab", added=(("support-01", "no_refund"),), acknowledged=False),
     'this change accepts never-rule violations the baseline at 0123456789ab does not: support-01 `no_refund` — they count only once a maintainer acknowledges the lowered bar'),
    ('acceptances-added-acknowledged', AcceptancesAdded(ref="0123456789ab", added=(("support-01", "no_refund"), ("support-02", "no_send")), acknowledged=True),
     'this change accepts never-rule violations the baseline at 0123456789ab does not: support-01 `no_refund`, support-02 `no_send`'),
    ('drifted', Drifted(decision=DRIFT),
     'B3/QC drifted below its baseline: 18 of 24 fresh runs pass over 4 more round(s) of its 6 (case, group) pairs, 29 of 30 in the baseline (stratified exact test p = 0.00412 ≤ 0.0107)'),
    ('drift-cleared', DriftCleared(decision=DRIFT),
     'B3/QC: 18 of 24 fresh runs pass over 4 more round(s) of its 6 (case, group) pairs, 29 of 30 in the baseline (stratified exact test p = 0.00412) — not below its baseline'),
    ('detectable-drops', DetectableDrops(spending=None, power=0.8, decisions=FIRST_ROUND),
     'no more rounds · the drop each dimension could have detected (80 % power): B3/QC 81/70 pts (A/B), B3/AC — pts (A)'),
    ('detectable-drops-spent', DetectableDrops(spending=SPENT, power=0.9, decisions=(*FIRST_ROUND, DRIFT.as_json())),
     "budget 60 calls (2× the first round's 30): 3 on confirm reruns, 6 on a pilot run of the doubtful dimensions, 24 on more rounds (B3/QC 4 round(s)) · the drop each dimension could have detected (90 % power): B3/QC 19 pts after 4 more round(s), B3/AC — pts (A)"),
]



@pytest.mark.parametrize(("reason", "expected"), [pytest.param(r, e, id=i) for i, r, e in WORDED])
def test_each_kind_of_reason_in_its_words(reason: Reason, expected: str) -> None:
    assert words(reason) == expected


def _kinds(base: type[Reason]) -> set[type[Reason]]:
    return {kind for sub in base.__subclasses__() for kind in (sub, *_kinds(sub))}


def test_every_kind_of_reason_has_an_example_here() -> None:
    """A new kind gets its words pinned here too."""
    for module in pkgutil.iter_modules(gate.policy.reasons.__path__):
        importlib.import_module(f"gate.policy.reasons.{module.name}")
    pinned = {type(reason) for _, reason, _ in WORDED}
    assert not _kinds(Reason) - pinned, sorted(kind.__name__ for kind in _kinds(Reason) - pinned)


def test_a_kind_without_words_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="no wording for a reason of kind Reason"):
        words(Reason())
