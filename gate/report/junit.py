"""JUnit XML: one flat testsuite per suite × dimension × group, one testcase per case run.

Written with junit-xml; every string is cleaned first (agents write ANSI escapes and control
characters), and every failure carries a message — junit-xml drops one that has neither.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from gate.metrics import dimension_key
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
    for verdict in sort_verdicts(report.verdicts):
        case = report.cases[verdict.case_id]
        suite_name = f"{dimension_key(case)}/{verdict.group}"
        latency = verdict.metadata.get("latency_ms")
        test = junit_xml.TestCase(
            name=xml_safe(f"{case.id} [{verdict.group}] run {verdict.run}"),
            classname=xml_safe(f"{case.suite}.{case.dimension}.{verdict.group}"),
            elapsed_sec=float(latency) / 1000 if isinstance(latency, (int, float)) else None,
            file=xml_safe(_display_path(case.path)),
            line=case.line,
        )
        if verdict.status is Status.FAIL:
            message, output = _failure(verdict)
            test.add_failure_info(message=message, output=output, failure_type="constraint")
        elif verdict.status is Status.ERROR and verdict.error:
            test.add_error_info(message=one_line(f"agent error: {verdict.error}", 1000),
                                output=xml_safe(verdict.error), error_type="agent-error")
        elif verdict.status is Status.ERROR:
            message, output = _failure(verdict)
            test.add_error_info(message=message, output=output, error_type="checker-error")
        elif verdict.status is Status.SKIPPED:
            test.add_skipped_info(message="no rule-checkable constraint: judged by rubric, not gated")
        grouped[suite_name].append(test)
    suites = []
    for name in sorted(grouped):
        dimension, group = name.rsplit("/", 1)
        m = report.metrics.dimensions.get(dimension, {}).get(group)
        properties = {
            "case_pass_rate": _rate(m.case_pass_rate if m else None),
            "constraint_follow_rate": _rate(m.constraint_follow_rate if m else None),
            "delta_b_minus_a": _rate(report.metrics.delta(dimension)),
            "baseline_pass_rate": _rate(report.comparison.dimensions.get(dimension, {}).get(group)),
        }
        suites.append(junit_xml.TestSuite(name=name, test_cases=grouped[name], properties=properties))
    text: str = junit_xml.to_xml_report_string(suites, prettyprint=True)
    return text
