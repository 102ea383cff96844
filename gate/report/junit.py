"""JUnit XML: one flat testsuite per suite × dimension × group, one testcase per case run, and a
``gate`` testsuite with one testcase per gate rule.

Green means green: a run that fails where the baseline failed too (a known failure), or a flaky
run of a case that passes by majority, is reported as skipped with the reason, so JUnit consumers
count only new failures; an uncertain run (its readings disagree) is skipped too, its message
naming both readings — never a pass, never a failure; the gate's own rules are testcases, failed
when they fail the gate.
Built with junit-xml and written as its pretty print writes it (``gate.report.junit_text``, without
the DOM round trip); every string is cleaned first (agents write ANSI escapes and control
characters), and every failure carries a message — junit-xml drops one that has neither. Times are
exact decimals (milliseconds), so sums carry no float noise.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from gate.policy.thresholds import FAIL_ON, Finding, Level, rank
from gate.redaction.sanitize import one_line, xml_safe
from gate.report.junit_text import report_parts
from gate.report.model import GateReport
from gate.report.wording import message_of
from gate.results import sort_verdicts
from gate.scoring.metrics import dimension_key
from gate.verdict import RunVerdict, Status, describe_readings


def _display_path(path: str, cwd: Path) -> str:
    """The case file relative to the working directory ``cwd`` (resolved; the repository root in
    CI), when inside it."""
    try:
        return Path(path).resolve().relative_to(cwd).as_posix()
    except ValueError:
        return path


_NOT_NEW = ("known-failure", "passing")  # failing runs of these (case, group)s are no new failure


@dataclass(frozen=True)
class _Outcome:
    """What one testcase reports: pass (``kind`` None), failure, error or skipped."""

    kind: str | None
    message: str = ""
    output: str = ""
    type: str = ""
    stdout: str | None = None


def _decided_elsewhere(verdicts: list[RunVerdict]) -> str | None:
    """The verdicts a human review or the LLM judge gave, not the rule checkers (passing ones too)."""
    lines = [f"decided by {'human review' if c.source == 'human' else 'the LLM judge'}: {v.group} run {v.run}: "
             f"{c.id} [{c.status.value}] {c.detail}" for v in verdicts for c in v.constraints if c.source]
    return xml_safe("\n".join(lines)) if lines else None


def _joined(*parts: str | None) -> str | None:
    found = [part for part in parts if part]
    return "\n\n".join(found) if found else None


def _reasons(verdicts: list[RunVerdict], labelled: bool) -> tuple[str, str]:
    """The failing constraints as one message, every constraint of every run as the output."""
    def label(v: RunVerdict) -> str:
        return f"{v.group} run {v.run}: " if labelled else ""

    message = "; ".join(dict.fromkeys(
        f"{label(v)}{c.id} ({c.check}): {c.detail}" for v in verdicts for c in v.failing())) \
        or "; ".join(f"{label(v)}{v.status.value}" for v in verdicts)
    output = "\n".join(f"{label(v)}[{c.status.value}] {c.id} ({c.check}): {c.detail}"
                       for v in verdicts for c in v.constraints)
    return one_line(message, 1000), xml_safe(output)


def _uncertain(verdicts: list[RunVerdict], labelled: bool) -> tuple[str, str]:
    """"uncertain: count (…): read as «…» → pass (…); or as «…» → fail (…)", and every constraint."""
    def label(v: RunVerdict) -> str:
        return f"{v.group} run {v.run}: " if labelled else ""

    readings = "; ".join(dict.fromkeys(
        f"{label(v)}{c.id} ({c.check}): {describe_readings(c.readings) or c.detail}"
        for v in verdicts for c in v.uncertain()))
    message = f"uncertain — settle it with `gate review`: {readings}"
    output = "\n".join(f"{label(v)}[{c.status.value}] {c.id} ({c.check}): {c.detail}"
                       + "".join(f"\n  {r.describe()}" for r in c.readings)
                       for v in verdicts for c in v.constraints)
    return one_line(message, 1000), xml_safe(output)


def _outcome(report: GateReport, verdicts: list[RunVerdict], states: dict[str, dict[str, str]]) -> _Outcome:
    """A testcase's outcome from its runs (one run, or every run of a case): a failure only where
    one is new; known and flaky failures as the configured mapping says."""
    labelled = len(verdicts) > 1
    bad = [v for v in verdicts if v.status in (Status.FAIL, Status.ERROR)]
    new = [v for v in bad if states.get(v.case_id, {}).get(v.group) not in _NOT_NEW]
    known = [v for v in bad if v not in new]
    unjudged = sum(v.unjudged for v in verdicts if v.status is Status.PASS)
    note = f"pass (rules) · {unjudged} rubric(s) unjudged" if unjudged else None
    if known and report.junit.known_failures == "failure":
        new, known = bad, []
    failed = [v for v in new if v.status is Status.FAIL]
    agent = [v for v in new if v.status is Status.ERROR and v.error]
    if failed:
        return _Outcome("failure", *_reasons(failed, labelled), "constraint")
    if agent:
        message = "; ".join(dict.fromkeys(f"{v.group} run {v.run}: {v.error}" if labelled else str(v.error)
                                          for v in agent))
        return _Outcome("error", one_line(f"agent error: {message}", 1000),
                        xml_safe("\n".join(str(v.error) for v in agent)), "agent-error")
    if new:
        return _Outcome("error", *_reasons(new, labelled), "checker-error")
    unsure = [v for v in verdicts if v.status is Status.UNCERTAIN]
    if unsure:  # never a pass, never a failure: a human review settles it
        return _Outcome("skipped", *_uncertain(unsure, labelled))
    if known:
        message, output = _reasons(known, labelled)
        why = "; ".join(dict.fromkeys(_why_not_new(report, v, states[v.case_id][v.group]) for v in known))
        if report.junit.known_failures == "passed":
            return _Outcome(None, stdout=xml_safe(f"{why}: {message}\n{output}"))
        return _Outcome("skipped", one_line(f"{why}: {message}", 1000), output)
    if all(v.status is Status.SKIPPED for v in verdicts):
        rubrics = sum(v.unjudged for v in verdicts)
        return _Outcome("skipped", f"unjudged: {rubrics} rubric(s) and no rule-checkable constraint")
    return _Outcome(None, stdout=note)


def _apply(test: Any, outcome: _Outcome) -> None:
    if outcome.kind == "failure":
        test.add_failure_info(message=outcome.message, output=outcome.output, failure_type=outcome.type)
    elif outcome.kind == "error":
        test.add_error_info(message=outcome.message, output=outcome.output, error_type=outcome.type)
    elif outcome.kind == "skipped":
        test.add_skipped_info(message=outcome.message, output=outcome.output or None)
    if outcome.stdout:
        test.stdout = f"{test.stdout}\n\n{outcome.stdout}" if test.stdout else outcome.stdout


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _seconds(verdicts: list[RunVerdict]) -> Decimal | None:
    latencies = [v.metadata.get("latency_ms") for v in verdicts]
    known = [Decimal(int(ms)) for ms in latencies if isinstance(ms, (int, float))]
    return sum(known, Decimal(0)) / 1000 if known else None


def _excerpt(report: GateReport, verdicts: list[RunVerdict]) -> str | None:
    excerpts = [(v, report.excerpts[(v.case_id, v.group, v.run)]) for v in verdicts
                if (v.case_id, v.group, v.run) in report.excerpts]
    if not excerpts:
        return None
    heads = [f"{v.group} run {v.run} answer" if len(verdicts) > 1 else "answer" for v, _ in excerpts]
    return xml_safe("\n\n".join(f"{head} (first {len(text)} characters):\n{text}"
                                 for head, (_, text) in zip(heads, excerpts, strict=True)))


def _properties(report: GateReport, dimension: str, groups: list[str], verdicts: list[RunVerdict]) -> dict[str, str]:
    """The suite's rates; with testcases per case (groups together), each keyed by its group."""
    properties: dict[str, str] = {}
    for group in groups:
        prefix = f"{group}." if len(groups) > 1 else ""
        m = report.metrics.dimensions.get(dimension, {}).get(group)
        properties[f"{prefix}case_pass_rate"] = _rate(m.case_pass_rate if m else None)
        properties[f"{prefix}constraint_follow_rate"] = _rate(m.constraint_follow_rate if m else None)
        properties[f"{prefix}baseline_pass_rate"] = _rate(report.comparison.dimensions.get(dimension, {}).get(group))
    properties["delta_b_minus_a"] = _rate(report.metrics.delta(dimension))
    properties["rubrics_unjudged"] = str(sum(v.unjudged for v in verdicts))
    if len(groups) == 1:  # the contract's order for the one-group suites
        properties = {key: properties[key] for key in ("case_pass_rate", "constraint_follow_rate", "delta_b_minus_a",
                                                       "baseline_pass_rate", "rubrics_unjudged")}
    return properties


def render(report: GateReport) -> Iterator[str]:
    """The JUnit XML document (testsuites root, flat testsuite children, sorted) in parts, built when
    the first is asked for: a report written with others holds none of it before its turn, and
    never the whole document as one string."""
    import junit_xml

    by_case = report.junit.testcase == "case"
    # suite name → testcase name → its runs
    units: dict[str, dict[str, list[RunVerdict]]] = defaultdict(lambda: defaultdict(list))
    for verdict in sort_verdicts(report.verdicts):
        case = report.cases[verdict.case_id]
        suite_name = dimension_key(case) if by_case else f"{dimension_key(case)}/{verdict.group}"
        units[suite_name][case.id if by_case else f"{case.id} [{verdict.group}] run {verdict.run}"].append(verdict)
    states = report.states()
    cwd = Path.cwd().resolve()
    shown: dict[str, str] = {}  # a case's file, resolved once for all its runs

    def display(path: str) -> str:
        if path not in shown:
            shown[path] = xml_safe(_display_path(path, cwd))
        return shown[path]

    def testcase(name: str, verdicts: list[RunVerdict]) -> Any:
        case = report.cases[verdicts[0].case_id]
        groups = sorted({v.group for v in verdicts})
        test = junit_xml.TestCase(
            name=xml_safe(name),
            classname=xml_safe(f"{case.suite}.{case.dimension}" + ("" if by_case else f".{verdicts[0].group}")),
            elapsed_sec=_seconds(verdicts), file=display(case.path), line=case.line,
        )
        test.stdout = _joined(_excerpt(report, verdicts), _decided_elsewhere(verdicts))
        outcome = _outcome(report, verdicts, states)
        _apply(test, outcome)
        if by_case and len(groups) > 1:
            test.stdout = "\n".join(part for part in (test.stdout, f"groups: {', '.join(groups)}; "
                                                       f"runs: {len(verdicts)}") if part)
        return test

    def suites() -> Iterator[Any]:
        """Each suite built as it is written: one suite's testcases are held at a time."""
        for name in sorted(units):
            runs = [v for verdicts in units[name].values() for v in verdicts]
            if by_case:
                dimension, groups = name, sorted({v.group for v in runs})
            else:
                dimension, group = name.rsplit("/", 1)
                groups = [group]
            tests = [testcase(unit, verdicts) for unit, verdicts in units[name].items()]
            properties = _properties(report, dimension, groups, runs)
            yield junit_xml.TestSuite(name=name, test_cases=tests, properties=properties)
        yield junit_xml.TestSuite(name="gate", test_cases=_rule_cases(junit_xml, report))

    if report.wall_s is not None:  # concurrent calls overlap: the run's own duration, not their sum
        time = Decimal(round(report.wall_s * 1000)) / 1000
    else:
        time = sum((seconds for runs in units.values() for verdicts in runs.values()
                    if (seconds := _seconds(verdicts))), Decimal(0))
    yield from report_parts(suites(), time)


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
        lines = "\n".join(f"[{f.level.value}] {message_of(f)}" for f in found)
        if rule in failing:
            worst = [f for f in found if rank(f.level) <= limit]
            test.add_failure_info(message=one_line("; ".join(message_of(f) for f in worst), 1000),
                                  output=xml_safe(lines), failure_type=worst[0].level.value)
        elif lines:
            test.stdout = xml_safe(lines)
        cases.append(test)
    return cases
