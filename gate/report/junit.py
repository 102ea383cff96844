"""JUnit XML: one flat testsuite per suite × dimension × group, one testcase per case run, and a
``gate`` testsuite with one testcase per gate rule.

Green means green: a run that fails where the baseline failed too (a known failure), or a flaky
run of a case that passes by majority, is reported as skipped with the reason, so JUnit consumers
count only new failures; the gate's own rules are testcases, failed when they fail the gate.
Written with junit-xml; every string is cleaned first (agents write ANSI escapes and control
characters), and every failure carries a message — junit-xml drops one that has neither. Times are
exact decimals (milliseconds), so sums carry no float noise.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

from gate.metrics import dimension_key
from gate.policy import FAIL_ON, Finding, Level, rank
from gate.report.model import GateReport
from gate.report.sanitize import one_line, xml_safe
from gate.results import sort_verdicts
from gate.verdict import RunVerdict, Status


def _display_path(path: str) -> str:
    """The case file relative to the working directory (the repository root in CI), when inside it."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


def _failure(verdict: RunVerdict) -> tuple[str, str]:
    failing = verdict.failing()
    message = "; ".join(f"{c.id} ({c.check}): {c.detail}" for c in failing) or verdict.status.value
    output = "\n".join(f"[{c.status.value}] {c.id} ({c.check}): {c.detail}" for c in verdict.constraints)
    return one_line(message, 1000), xml_safe(output)


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def render(report: GateReport) -> str:
    """The JUnit XML document as text (testsuites root, flat testsuite children, sorted)."""
    import junit_xml

    grouped: dict[str, list[Any]] = defaultdict(list)
    grouped_verdicts: dict[str, list[RunVerdict]] = defaultdict(list)
    states = report.states()
    for verdict in sort_verdicts(report.verdicts):
        case = report.cases[verdict.case_id]
        suite_name = f"{dimension_key(case)}/{verdict.group}"
        latency = verdict.metadata.get("latency_ms")
        test = junit_xml.TestCase(
            name=xml_safe(f"{case.id} [{verdict.group}] run {verdict.run}"),
            classname=xml_safe(f"{case.suite}.{case.dimension}.{verdict.group}"),
            elapsed_sec=Decimal(int(latency)) / 1000 if isinstance(latency, (int, float)) else None,
            file=xml_safe(_display_path(case.path)),
            line=case.line,
        )
        excerpt = report.excerpts.get((verdict.case_id, verdict.group, verdict.run))
        if excerpt:
            test.stdout = xml_safe(f"answer (first {len(excerpt)} characters):\n{excerpt}")
        state = states.get(verdict.case_id, {}).get(verdict.group)
        if verdict.status in (Status.FAIL, Status.ERROR) and state in ("known-failure", "passing"):
            message, output = _failure(verdict)
            test.add_skipped_info(message=one_line(f"{_why_not_new(report, verdict, state)}: {message}", 1000),
                                  output=output)
        elif verdict.status is Status.FAIL:
            message, output = _failure(verdict)
            test.add_failure_info(message=message, output=output, failure_type="constraint")
        elif verdict.status is Status.ERROR and verdict.error:
            test.add_error_info(message=one_line(f"agent error: {verdict.error}", 1000),
                                output=xml_safe(verdict.error), error_type="agent-error")
        elif verdict.status is Status.ERROR:
            message, output = _failure(verdict)
            test.add_error_info(message=message, output=output, error_type="checker-error")
        elif verdict.status is Status.SKIPPED:
            test.add_skipped_info(message=f"unjudged: {verdict.unjudged} rubric(s) and no rule-checkable constraint")
        if verdict.status is Status.PASS and verdict.unjudged:
            test.stdout = f"pass (rules) · {verdict.unjudged} rubric(s) unjudged"
        grouped[suite_name].append(test)
        grouped_verdicts[suite_name].append(verdict)
    suites = []
    for name in sorted(grouped):
        dimension, group = name.rsplit("/", 1)
        m = report.metrics.dimensions.get(dimension, {}).get(group)
        properties = {
            "case_pass_rate": _rate(m.case_pass_rate if m else None),
            "constraint_follow_rate": _rate(m.constraint_follow_rate if m else None),
            "delta_b_minus_a": _rate(report.metrics.delta(dimension)),
            "baseline_pass_rate": _rate(report.comparison.dimensions.get(dimension, {}).get(group)),
            "rubrics_unjudged": str(sum(t.unjudged for t in grouped_verdicts[name])),
        }
        suites.append(junit_xml.TestSuite(name=name, test_cases=grouped[name], properties=properties))
    suites.append(junit_xml.TestSuite(name="gate", test_cases=_rule_cases(junit_xml, report)))
    text: str = junit_xml.to_xml_report_string(suites, prettyprint=True)
    total = sum((c.elapsed_sec for suite in suites for c in suite.test_cases if c.elapsed_sec), Decimal(0))
    return _root_time(text, total)


def _root_time(text: str, total: Decimal) -> str:
    """junit-xml sums the root's time in floats (36.79600000000001): write the exact sum instead."""
    start = text.find("<testsuites ")
    end = text.find(">", start)
    key = ' time="'
    at = text.find(key, start, end)
    if start < 0 or at < 0:
        return text
    value_end = text.find('"', at + len(key))
    return f"{text[:at + len(key)]}{total}{text[value_end:]}"


def _why_not_new(report: GateReport, verdict: RunVerdict, state: str) -> str:
    before = report.comparison.count(verdict.case_id, verdict.group)
    if state == "known-failure" and before is not None:
        return f"known failure: {before.passed} of {before.judged} runs passed in the baseline too"
    now = report.metrics.cases[verdict.case_id].counts[verdict.group]
    return f"flaky run: the case passes {now.shown()}, not regressed"


GATE_RULES = ("min-a", "min-delta", "red-line-delta", "skill-explicit-min-b", "red-line-skill-explicit",
              "regression", "dimension-regression", "consistency", "stability-gain", "degradation-curve")
"""The rules every gate run decides; any other rule that fails the gate joins them."""


def _rule_cases(junit_xml: Any, report: GateReport) -> list[Any]:
    """One testcase per gate rule: failed when a finding of it fails the gate, its warnings as output."""
    limit = rank(FAIL_ON[report.fail_on])
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.level is not Level.INFO:
            by_rule[finding.rule].append(finding)
    failing = {rule for rule, found in by_rule.items() if any(rank(f.level) <= limit for f in found)}
    cases = []
    for rule in sorted(set(GATE_RULES) | failing):
        found = by_rule.get(rule, [])
        test = junit_xml.TestCase(name=rule, classname="gate", elapsed_sec=Decimal(0))
        lines = "\n".join(f"[{f.level.value}] {f.message}" for f in found)
        if rule in failing:
            worst = [f for f in found if rank(f.level) <= limit]
            test.add_failure_info(message=one_line("; ".join(f.message for f in worst), 1000),
                                  output=xml_safe(lines), failure_type=worst[0].level.value)
        elif lines:
            test.stdout = xml_safe(lines)
        cases.append(test)
    return cases
