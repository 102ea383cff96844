"""The PR comment (GitHub-flavoured Markdown): the verdict, then why, then the numbers that moved.

The first screen answers "what broke and why": the verdict with the commit and a link to the run,
the new failures with their failing constraints, the findings, and only the dimensions that moved
against the baseline. The full table, the consistency detail, every failing run and a legend are
folded in ``<details>``. Kept under GitHub's 65,536-character limit by dropping detail sections,
never the verdict; no measured durations, so identical inputs give an identical comment.
"""

from __future__ import annotations

from collections.abc import Callable

from gate.formats.commentmark import COMMENT_MARKER
from gate.formats.drops import detectable_drops
from gate.formats.percent import percent
from gate.policy.thresholds import Finding, Level
from gate.report.judge_trust import trust_section
from gate.report.markdown_safe import inline, own
from gate.report.model import GateReport
from gate.report.needs_look import needs_a_look_section
from gate.report.wording import message_of
from gate.results import sort_verdicts
from gate.scoring.metrics import GroupMetrics
from gate.verdict import RunVerdict, Status

MAX_BYTES = 65_000
_ICON = {Level.RED_LINE: "🛑", Level.ERROR: "❌", Level.WARNING: "⚠️", Level.INFO: "ℹ️"}
_HEADS = {"passed": "✅ **agent-gate passed**", "inconclusive": "⚠️ **agent-gate inconclusive**",
          "failed": "❌ **agent-gate failed**", "unavailable": "🔌 **agent-gate could not reach the agent**",
          "interrupted": "❌ **agent-gate failed**"}


def _marker() -> str:
    return COMMENT_MARKER


def _pct(value: float | None) -> str:
    return percent(value, missing="—")


def _pts(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:+.1f} pts"


def _cell(report: GateReport, m: GroupMetrics | None) -> str:
    from gate.formats.rates import cell

    return cell(m, 1 - report.decision.alpha)


def verdict_line(report: GateReport) -> str:
    counts = {level: sum(f.level is level for f in report.findings) for level in Level}
    parts = [f"{counts[Level.RED_LINE]} red line(s)", f"{counts[Level.ERROR]} error(s)", f"{counts[Level.WARNING]} warning(s)"]
    head = _HEADS[report.verdict]
    scope = f" · shard {report.shard[0]}/{report.shard[1]}" if report.shard else ""
    stopped = " · ⚠️ interrupted: partial results" if report.interrupted else ""
    return f"## {head} — {', '.join(parts)}{scope}{stopped}"


def context_line(report: GateReport) -> list[str]:
    """The commit and the run, when the gate ran on GitHub Actions."""
    parts = []
    if report.context.get("commit"):
        parts.append(f"commit `{report.context['commit'][:12]}`")
    if report.context.get("run_url"):
        parts.append(f"[workflow run]({report.context['run_url']})")
    return [" · ".join(parts), ""] if parts else []


def verdict_note(report: GateReport) -> list[str]:
    """An inconclusive verdict names each open decision and what would decide it; a pass with no
    baseline says what it could not check."""
    if report.verdict == "inconclusive":
        open_ = report.undecided
        exit_ = ("fails the gate (`decision.fail_on_inconclusive: true`)" if not report.passed else
                 "leaves the exit code 0 (`decision.fail_on_inconclusive: false`)")
        lines = [f"> [!WARNING]\n> Not a pass: {len(open_)} decision(s) lack the evidence to say this agent is fine; "
                 f"this {exit_}."]
        lines += [f"> - {own(message_of(f))}" for f in open_[:MAX_OPEN]]
        more = len(open_) - MAX_OPEN
        return [*lines, *([f"> - … {more} more under Findings"] if more > 0 else []), ""]
    if report.verdict == "passed" and not report.comparison.present and report.shard is None:
        return ["> [!NOTE]\n> Thresholds only: there is no baseline, so no regression could be checked; "
                "`gate baseline update` records one from fresh runs.", ""]
    return []


MAX_OPEN = 5
"""Open decisions listed under an inconclusive headline; the rest are under Findings."""


def cache_line(report: GateReport) -> list[str]:
    """A verdict that rests on cached answers says so: they were not asked of this agent build."""
    if not report.cached:
        return []
    return [f"> [!NOTE]\n> {report.cached} of {len(report.verdicts)} answers came from the answer cache, not from "
            "the agent in this run; `gate check --no-cache` asks it afresh.", ""]


def sources_line(report: GateReport) -> list[str]:
    """Verdicts not given by the rule checkers say who gave them."""
    counts = {source: sum(1 for v in report.verdicts for c in v.constraints if c.source == source)
              for source in ("human", "judge")}
    parts = []
    if counts["human"]:
        parts.append(f"{counts['human']} constraint verdict(s) come from human review (the reviews file), "
                     "overriding the checkers on those exact trajectories")
    if counts["judge"]:
        parts.append(f"{counts['judge']} rubric verdict(s) come from the LLM judge (`judge.gate: true`)")
    return [f"> [!NOTE]\n> {'; '.join(parts)}.", ""] if parts else []


def _changes(report: GateReport, dimension: str) -> list[float | None]:
    groups = report.metrics.dimensions.get(dimension, {})
    base = report.comparison.dimensions.get(dimension, {})
    found: list[float | None] = []
    for group in ("A", "B"):
        now = groups[group].case_pass_rate if group in groups else None
        before = base.get(group)
        found.append(round(now - before, 4) if now is not None and before is not None else None)
    return found


def moved(report: GateReport) -> list[str]:
    """Dimensions whose rate changed against the baseline or that a finding names."""
    named = {f.dimension for f in report.findings if f.dimension and f.level is not Level.INFO}
    return [d for d in sorted(report.metrics.dimensions) if d in named or any(_changes(report, d))]


def dimension_table(report: GateReport, only: list[str] | None = None) -> list[str]:
    drops = detectable_drops(report.dimension_decisions)
    lines = ["| dimension | A | B | Δ B−A | baseline A / B | change A / B | could detect |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for dimension, groups in sorted(report.metrics.dimensions.items()):
        if only is not None and dimension not in only:
            continue
        base = report.comparison.dimensions.get(dimension, {})
        changes = [_pts(c) for c in _changes(report, dimension)]
        lines.append(
            f"| {dimension} | {_cell(report, groups.get('A'))} | {_cell(report, groups.get('B'))} | "
            f"{_pts(report.metrics.delta(dimension))} | {_pct(base.get('A'))} / {_pct(base.get('B'))} | "
            f"{changes[0]} / {changes[1]} | {drops.get(dimension, '—')} |"
        )
    explicit = report.metrics.skill_explicit.get("B")
    if explicit is not None and explicit.judged and only is None:
        lines.append(f"| skill-explicit cases | — | {_cell(report, explicit)} | — | — | — | — |")
    return lines


def moved_section(report: GateReport) -> list[str]:
    """The first screen's numbers: only what moved (everything, when there is no baseline)."""
    if not report.comparison.present:
        return ["### Dimensions", "", *dimension_table(report)]
    changed = moved(report)
    if not changed:
        return ["No dimension moved against the baseline."]
    return [f"### Dimensions that moved ({len(changed)} of {len(report.metrics.dimensions)})", "",
            *dimension_table(report, changed)]


LEGEND = ("**A** skills off · **B** skills on · **Δ B−A** in points · `[lo–hi%]` the rate's "
          "{confidence}% interval · **skill-explicit cases**: the skill itself states the constraint · "
          "**red line**: must be fixed · **inconclusive**: below a line or the baseline, but the runs "
          "cannot tell yet · **could detect**: the drop below the baseline this check's runs would have "
          "caught with {power}% power — a pass says no more than that · **—** not measured")


def full_table_section(report: GateReport) -> list[str]:
    if not report.comparison.present:
        return ["<details><summary>Legend</summary>", "", _legend(report), "", "</details>"]
    return ["<details><summary><b>All dimensions</b> and the legend</summary>", "", *dimension_table(report), "",
            _legend(report), "", "</details>"]


def _legend(report: GateReport) -> str:
    return LEGEND.format(confidence=f"{(1 - report.decision.alpha) * 100:g}", power=f"{report.decision.power * 100:g}")


def findings_section(findings: list[Finding]) -> list[str]:
    shown = [f for f in findings if f.level is not Level.INFO or f.rule == "no-baseline"]
    if not shown:
        return []
    return ["### Findings", "", *[f"- {_ICON[f.level]} **{f.level.value}** `{f.rule}` — {own(message_of(f))}" for f in shown]]


def _failing_lines(verdict: RunVerdict) -> list[str]:
    if verdict.error:
        return [f"  - agent error: {inline(verdict.error)}"]
    return [f"  - `{c.id}` ({c.check}): {inline(c.detail)}" for c in verdict.failing()]


def newly_failing_section(report: GateReport) -> list[str]:
    """Regressions with their evidence: confirmed, inconclusive, then the flakes reruns cleared."""
    from gate.policy.regressions import PairOutcome

    decided = {(d.case_id, d.group): d for d in report.regressions}
    pairs = sorted(set(report.comparison.newly_failing)
                   | {k for k, d in decided.items() if d.outcome is not PairOutcome.CLEARED})
    cleared = [d for d in report.regressions if d.outcome is PairOutcome.CLEARED]
    flaky = [f"Flaky, within the baseline's noise — not regressed ({len(cleared)}): "
             + ", ".join(f"**{d.case_id}** [{d.group}] {d.now.shown()}" for d in cleared)] if cleared else []
    if not pairs:
        return flaky
    by_key = {(v.case_id, v.group): v for v in sort_verdicts(report.verdicts)
              if v.status in (Status.FAIL, Status.ERROR)}
    lines = ["<details open><summary><b>Newly failing cases</b> (" + str(len(pairs)) + ")</summary>", ""]
    for case_id, group in pairs:
        outcome = report.metrics.cases.get(case_id)
        blame = outcome.attribution.value if outcome and outcome.attribution else "—"
        title = report.cases[case_id].title if case_id in report.cases else ""
        d = decided.get((case_id, group))
        label = {PairOutcome.REGRESSED: "regressed", PairOutcome.INCONCLUSIVE: "inconclusive"}.get(
            d.outcome, "cleared") if d else "fails"
        evidence = (f" · {d.now.shown()} pass (baseline {d.baseline.passed} of {d.baseline.judged})"
                    + (f", p = {d.p_value:.3g}" if d.p_value is not None else "")) if d else ""
        lines.append(f"- **{case_id}** [{group}] {inline(title, 60)} — **{label}**{evidence} — attributed to: **{blame}**")
        verdict = by_key.get((case_id, group))
        if verdict is not None:
            lines += _failing_lines(verdict)
    if flaky:
        lines += ["", *flaky]
    return [*lines, "", "</details>"]


def newly_passing_section(report: GateReport) -> list[str]:
    pairs = report.comparison.newly_passing
    if not pairs:
        return []
    shown = ", ".join(f"**{case_id}** [{group}]" for case_id, group in pairs)
    return [f"🎉 Newly passing since the baseline ({len(pairs)}): {shown}"]


def failing_section(report: GateReport) -> list[str]:
    failing = [v for v in sort_verdicts(report.verdicts)
               if v.status in (Status.FAIL, Status.ERROR)]
    if not failing:
        return []
    lines = [f"<details><summary><b>All failing runs</b> ({len(failing)})</summary>", ""]
    for verdict in failing:
        outcome = report.metrics.cases.get(verdict.case_id)
        blame = outcome.attribution.value if outcome and outcome.attribution else "—"
        lines.append(f"- **{verdict.case_id}** [{verdict.group}] run {verdict.run} · {verdict.status.value} · attributed to {blame}")
        lines += _failing_lines(verdict)
    return [*lines, "", "</details>"]


def consistency_section(report: GateReport) -> list[str]:
    from gate.report.consistency_md import render_consistency

    body = render_consistency(report.consistency) if report.consistency else []
    if not body:
        return []
    return ["<details><summary><b>Consistency</b> (repeated runs)</summary>", "", *body[2:], "", "</details>"]


def footer(report: GateReport) -> list[str]:
    total = len(report.verdicts)
    stale = " · ⚠️ baseline is stale" if report.comparison.stale else ""
    base = "compared with the committed baseline" if report.comparison.present else "no baseline yet"
    reruns = report.reruns_shown()
    mode = report.decision.mode
    decided = f"decisions: {mode}" + (f", α = {report.decision.alpha:g}, rates with {(1 - report.decision.alpha) * 100:g}% intervals"
                                      if mode == "confidence" else "")
    rules_only, judge_only, rubrics = report.unjudged()
    unjudged = (f" · {rules_only} pass (rules) and {judge_only} judge-only runs leave {rubrics} rubrics unjudged"
                if rubrics else "")
    return [f"<sub>{total} case runs judged by rule checkers{reruns}{unjudged} · {decided} · {base}{stale} · "
            f"cases {report.digest[:19]}</sub>"]


def render(report: GateReport, *, with_marker: bool = True) -> str:
    """The comment body; detail sections are dropped from the end until it fits."""
    head = [_marker(), ""] if with_marker else []
    head += [verdict_line(report), "", *verdict_note(report), *context_line(report), *cache_line(report),
             *sources_line(report), *trust_section(report.judge_trust)]
    sections: list[Callable[[GateReport], list[str]]] = [
        newly_failing_section, lambda r: findings_section(r.findings), needs_a_look_section, moved_section,
        newly_passing_section,
        full_table_section, consistency_section, failing_section,
    ]
    bodies = [section(report) for section in sections]
    tail = footer(report)
    note = ["_Detail left out to fit GitHub's comment size limit; see results.json and junit.xml._"]

    def assemble() -> str:
        parts = [*head, *[line for body in bodies if body for line in (*body, "")], *tail]
        return "\n".join(parts) + "\n"

    # Drop detail sections from the end until the comment fits; the verdict and table stay.
    for index in reversed(range(len(bodies))):
        text = assemble()
        if len(text.encode("utf-8")) <= MAX_BYTES:
            return text
        if bodies[index]:
            bodies[index] = note if index == len(bodies) - 1 else []
    return assemble()
