"""The one report object the core returns; every renderer reads it and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gate.case import Case
from gate.config.decision import DecisionConfig
from gate.config.gate_yaml import JunitConfig
from gate.policy.regressions import PairDecision
from gate.policy.thresholds import Finding, Level, Verdict, verdict_of
from gate.report.judge_trust import RubricTrust
from gate.report.wording import finding_json
from gate.results import results_head, results_text
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.verdict import RunVerdict, Status

if TYPE_CHECKING:
    from gate.scoring.consistency import ConsistencyReport


@dataclass(frozen=True)
class GateReport:
    """Everything a gate run found: verdicts, metrics, baseline comparison, findings, the verdict."""

    cases: dict[str, Case]
    digest: str
    verdicts: list[RunVerdict]
    metrics: Metrics
    comparison: Comparison
    findings: list[Finding]
    passed: bool
    fail_on: str = "error"
    consistency: ConsistencyReport | None = None
    identity: dict[str, Any] = field(default_factory=dict)
    shard: tuple[int, int] | None = None
    interrupted: bool = False
    decision: DecisionConfig = field(default_factory=DecisionConfig)
    junit: JunitConfig = field(default_factory=JunitConfig)
    regressions: list[PairDecision] = field(default_factory=list)
    """Decisions on the (case, group) pairs that fail now where the baseline passed."""
    reruns: int = 0
    """Confirm reruns among the verdicts."""
    dimension_decisions: list[dict[str, object]] = field(default_factory=list)
    """Every dimension's decision: counts, test, p-value, level, detectable drop."""
    power: dict[str, object] | None = None
    """The call budget and what it bought: more rounds of drifting dimensions."""
    unavailable: bool = False
    """Most runs of a group ended in agent errors: an outage (exit 4), not a regression."""
    digests: dict[tuple[str, str, int], str] = field(default_factory=dict)
    """Each run's trajectory digest, where trajectories.jsonl is written beside results.json."""
    excerpts: dict[tuple[str, str, int], str] = field(default_factory=dict)
    """The start of the answer of each failing or uncertain run, for the reports that show it (JUnit system-out)."""
    context: dict[str, str] = field(default_factory=dict)
    cached: int = 0
    """Answers served from the answer cache rather than asked of the agent in this run."""
    wall_s: float | None = None
    """How long the run took, agent calls to judging (JUnit's total time); None when not measured."""
    """Where the gate ran: ``commit`` and ``run_url`` on GitHub Actions."""
    judge_trust: tuple[RubricTrust, ...] | None = None
    """Under ``judge.gate: true``: each rubric the judge was asked about and whether its verdicts counted."""

    @property
    def verdict(self) -> Verdict:
        """passed · inconclusive (a decision lacked evidence; never shown as a pass) · failed ·
        unavailable · interrupted."""
        return verdict_of(self.findings, self.fail_on, unavailable=self.unavailable, interrupted=self.interrupted)

    def reruns_shown(self) -> str:
        """" (6 confirm reruns)", " (2 confirm reruns, 24 in more rounds)" or nothing."""
        more = self.power.get("power_calls", 0) if self.power else 0
        confirm = self.reruns - more if isinstance(more, int) else self.reruns
        parts = ([f"{confirm} confirm reruns"] if confirm else []) + ([f"{more} in more rounds"] if more else [])
        return f" ({', '.join(parts)})" if parts else ""

    @property
    def undecided(self) -> list[Finding]:
        """The open decisions behind an inconclusive verdict, most serious first."""
        return [f for f in self.findings if f.outcome == "inconclusive" and f.level is not Level.INFO]

    def unjudged(self) -> tuple[int, int, int]:
        """Runs that pass on their rules with rubrics unjudged, judge-only runs, and rubrics left."""
        rules_only = sum(1 for v in self.verdicts if v.status is Status.PASS and v.unjudged)
        judge_only = sum(1 for v in self.verdicts if v.status is Status.SKIPPED)
        return rules_only, judge_only, sum(v.unjudged for v in self.verdicts)

    def states(self) -> dict[str, dict[str, str]]:
        """Every judged (case, group)'s standing against the baseline (known vs new failure …)."""
        return {cid: {g: self.comparison.state(cid, g, status) for g, status in sorted(o.groups.items())}
                for cid, o in sorted(self.metrics.cases.items())}

    def document_text(self) -> Iterator[str]:
        """results.json's text (contract keys plus the baseline comparison, identity and shard), a run
        at a time."""
        return results_text(self._head(), self.verdicts, self.digests)

    def _head(self) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "baseline": self.comparison.as_json(),
            "identity": self.identity,
            "fail_on": self.fail_on,
            "shard": {"k": self.shard[0], "n": self.shard[1]} if self.shard else None,
            "interrupted": self.interrupted,
            "verdict": self.verdict,
            "agent_unavailable": self.unavailable,
            "cached_answers": self.cached,
            "context": self.context,
            "unjudged": dict(zip(("runs_passing_on_rules_only", "judge_only_runs", "rubrics"), self.unjudged(),
                                 strict=True)),
            "consistency": self.consistency.as_json() if self.consistency else None,
            "decision": {**self.decision.model_dump(mode="json", include={"mode", "alpha", "confirm_runs",
                                                                           "fail_on_inconclusive"}),
                         "reruns": self.reruns, "budget": self.decision.budget, "power": self.power,
                         "dimensions": self.dimension_decisions,
                         "regressions": [d.as_json() for d in self.regressions]},
        }
        if self.judge_trust is not None:  # only under judge.gate: results.json is otherwise unchanged
            extra["judge_trust"] = [{"case_id": t.case_id, "rubric": t.rubric, "trust": t.trust, "counted": t.counted,
                                     "pass": t.passed, "fail": t.failed, "error": t.errors} for t in self.judge_trust]
        metrics = self.metrics.as_json()
        for case_id, states in self.states().items():
            metrics["cases"][case_id]["states"] = states  # type: ignore[index]
        return results_head(cases_digest=self.digest, metrics=metrics, findings=[finding_json(f) for f in self.findings],
                            passed=self.passed, extra=extra)
