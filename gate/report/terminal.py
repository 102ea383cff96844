"""The short terminal summary of a gate run."""

from __future__ import annotations

from pathlib import Path

from gate.policy.thresholds import Finding, Level
from gate.redaction.sanitize import one_line
from gate.report.model import GateReport
from gate.report.wording import message_of
from gate.verdict import Status

MAX_REASONS = 3
"""Failing constraints shown under a finding; the rest are in results.json."""
_NOTES_SHOWN = ("no-baseline", "needs-a-look", "detectable-drop", "dimension-drift-cleared")
"""Info notes worth a line: no baseline to compare with, and known uncertain runs (never passes)."""


def summary(report: GateReport, paths: dict[str, Path]) -> str:
    """Dimension table, findings worth reading, the verdict and where the reports are."""
    from tabulate import tabulate

    from gate.formats.rates import cell

    confidence = 1 - report.decision.alpha
    rows = []
    for dimension, groups in sorted(report.metrics.dimensions.items()):
        delta = report.metrics.delta(dimension)
        rows.append([dimension, cell(groups.get("A"), confidence), cell(groups.get("B"), confidence),
                     "—" if delta is None else f"{delta * 100:+.1f}"])
    lines = [tabulate(rows, headers=["dimension", "A", "B", "Δ B−A"], tablefmt="simple", disable_numparse=True), ""]
    for finding in report.findings:
        if finding.level is not Level.INFO or finding.rule in _NOTES_SHOWN:
            lines.append(f"[{finding.level.value}] {one_line(message_of(finding), 400)}")
            lines += _reasons(report, finding)
    flakes = [f"{d.case_id} ({d.group}) {d.now.shown()}" for d in report.regressions if d.outcome.value == "cleared"]
    if flakes:
        lines.append(f"[info] flaky, not regressed: {', '.join(flakes)}")
    reruns = report.reruns_shown()
    rules_only, judge_only, rubrics = report.unjudged()
    if rubrics:
        lines.append(f"[info] unjudged: {rules_only} runs pass (rules) and {judge_only} judge-only runs leave "
                     f"{rubrics} rubrics unjudged (semantic criteria: not decided by rules)")
    decided = f"decisions: {report.decision.mode}" + (f", alpha {report.decision.alpha:g}"
                                                       if report.decision.mode == "confidence" else "")
    cached = f" · {report.cached} answers from the cache" if report.cached else ""
    lines += ["", f"gate {verdict_word(report)}: {len(report.verdicts)} runs judged{reruns}{cached} · {decided}"
              f"{verdict_tail(report)} · reports in " + ", ".join(str(p) for p in paths.values())]
    return "\n".join(lines)


WORDS = {"passed": "PASSED", "inconclusive": "INCONCLUSIVE", "failed": "FAILED", "unavailable": "AGENT UNAVAILABLE",
         "interrupted": "INTERRUPTED"}


def verdict_word(report: GateReport) -> str:
    return WORDS[report.verdict]


def verdict_tail(report: GateReport) -> str:
    """What an inconclusive verdict lacks, and what a pass without a baseline did not check."""
    if report.verdict == "inconclusive":
        open_ = report.undecided
        exit_ = "fails the gate" if not report.passed else "exit 0 (decision.fail_on_inconclusive: false)"
        return f" · {len(open_)} decision(s) lack evidence, see the [{open_[0].level.value}] lines for what would decide each · {exit_}"
    if report.verdict == "passed" and not report.comparison.present and report.shard is None:
        return " · thresholds only: no baseline to compare with (`gate baseline update` records one)"
    return ""


def _reasons(report: GateReport, finding: Finding) -> list[str]:
    """Why a case finding fired: the failing constraints of its first failing run."""
    if finding.case_id is None or (finding.level in (Level.INFO, Level.WARNING) and finding.outcome is None):
        return []
    failing = [v for v in report.verdicts if v.case_id == finding.case_id and v.group == finding.group
               and v.status in (Status.FAIL, Status.ERROR)]
    if not failing:
        return []
    first = min(failing, key=lambda v: v.run)
    if first.error:
        return [f"    ↳ run {first.run}: agent error: {one_line(first.error, 200)}"]
    shown = [f"    ↳ run {first.run}: {c.id} ({c.check}): {one_line(c.detail, 200)}"
             for c in first.failing()[:MAX_REASONS]]
    more = len(first.failing()) - MAX_REASONS
    return shown + ([f"    ↳ … {more} more in results.json"] if more > 0 else [])
