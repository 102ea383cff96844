"""JUnit XML read back by a maintained consumer (junitparser) and checked against the schema."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import junitparser

from gate.report import junit
from gate.report.model import GateReport

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "junit.xsd"


@functools.cache
def _junit_schema() -> Any:
    """The JUnit schema, built once; xmlschema is imported by the worker that needs it (~1 s)."""
    import xmlschema

    return xmlschema.XMLSchema(str(SCHEMA))


def write(report: GateReport, tmp_path: Path) -> Path:
    path = tmp_path / "junit.xml"
    path.write_text("".join(junit.render(report)), encoding="utf-8")
    return path


def test_flat_suites_per_dimension_and_group(mixed_report: GateReport, tmp_path: Path) -> None:
    xml = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    suites = list(xml)
    assert [s.name for s in suites] == ["B3/PC/A", "B3/PC/B", "B3/QC/A", "B3/QC/B", "gate"]
    assert all(not list(s.iterchildren(junitparser.TestSuite)) for s in suites)  # no nesting


def test_testcases_point_at_case_files_and_name_failing_constraints(mixed_report: GateReport, tmp_path: Path) -> None:
    xml = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    cases = {c.name: c for s in xml for c in s}
    qc_b = cases["B3-QC-01 [B] run 0"]
    assert qc_b._elem.get("file") == "cases/b3/B3-QC-01.yaml"
    assert qc_b._elem.get("line") == "1"
    [failure] = qc_b.result
    assert isinstance(failure, junitparser.Failure)
    assert failure.message.startswith("exactly_3_items (items:count): 4 items found")
    assert cases["B3-QC-01 [A] run 0"].is_passed
    [pc] = cases["B3-PC-01 [A] run 0"].result
    assert "no_sony (terms:forbidden)" in pc.message and "exactly_3_items" not in pc.message


def test_hostile_agent_output_stays_valid_xml(mixed_report: GateReport, tmp_path: Path) -> None:
    path = write(mixed_report, tmp_path)
    text = path.read_text(encoding="utf-8")
    assert "\x1b" not in text and "\x07" not in text
    _junit_schema().validate(str(path))


def test_metrics_are_suite_properties(mixed_report: GateReport, tmp_path: Path) -> None:
    xml = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    suite = next(s for s in xml if s.name == "B3/QC/B")
    props = {p.name: p.value for p in suite.properties()}
    # QC-01 [B] ran 4 times (3 confirm reruns), each failing 1 of its 2 constraints; QC-02 [B] passed both
    assert props == {"case_pass_rate": "0.5000", "constraint_follow_rate": "0.6000",
                     "delta_b_minus_a": "-0.5000", "baseline_pass_rate": "1.0000", "rubrics_unjudged": "0"}


def test_every_failure_has_a_message_even_without_detail(mixed_report: GateReport, tmp_path: Path) -> None:
    xml = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    results = [r for s in xml for c in s for r in c.result]
    assert results and all(r.message for r in results)


def test_known_failures_are_skipped_and_the_gate_rules_are_testcases(mixed_report: GateReport, tmp_path: Path) -> None:
    xml = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    cases = {c.name: c for s in xml for c in s}
    # PC-01 failed in every baseline run too: known, so skipped with the reason, not a failure
    [known] = cases["B3-PC-01 [A] run 0"].result
    assert isinstance(known, junitparser.Skipped)
    assert known.message.startswith("known failure: 0 of 5 runs passed in the baseline too: no_sony (terms:forbidden)")
    # the new failure stays a failure, and the gate's own rule that fired is a failing testcase
    assert isinstance(cases["B3-QC-01 [B] run 0"].result[0], junitparser.Failure)
    gate = next(s for s in xml if s.name == "gate")
    failed = {c.name: c.result[0].message for c in gate if c.result}
    assert list(failed) == ["regression"]
    assert failed["regression"].startswith("B3-QC-01 (B): passes 0 of 4 runs now, 5 of 5 in the baseline")
    assert {c.name for c in gate} >= {"min-a", "min-delta", "red-line-delta", "regression", "dimension-regression"}
    assert xml.failures == 4 + 1  # the 4 runs of the new failure and the regression rule; none of PC-01



def test_a_failing_run_shows_the_start_of_its_answer_cleaned(mixed_report: GateReport, tmp_path: Path) -> None:
    xml = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    cases = {c.name: c for s in xml for c in s}
    out = cases["B3-QC-01 [B] run 0"].system_out
    assert out.startswith("answer (first ") and "森海塞尔 Momentum 4" in out
    hostile = cases["B3-PC-01 [A] run 0"].system_out
    assert "\x1b" not in hostile and "\x07" not in hostile and "ＳＯＮＹ WH-1000XM5" in hostile
    assert cases["B3-QC-02 [A] run 0"].system_out is None  # a passing run needs no excerpt


def _with(report: GateReport, **junit_settings: str) -> GateReport:
    from dataclasses import replace

    from gate.config.gate_yaml import JunitConfig

    return replace(report, junit=JunitConfig.model_validate(junit_settings))


def test_one_testcase_per_case_makes_one_broken_case_one_failure(mixed_report: GateReport, tmp_path: Path) -> None:
    path = write(_with(mixed_report, testcase="case"), tmp_path)
    _junit_schema().validate(str(path))
    xml = junitparser.JUnitXml.fromfile(str(path))
    assert sorted(s.name for s in xml) == ["B3/PC", "B3/QC", "gate"]  # suites per dimension, groups inside
    cases = {c.name: c for s in xml for c in s}
    assert sorted(cases) == ["B3-PC-01", "B3-QC-01", "B3-QC-02", *(c.name for s in xml if s.name == "gate" for c in s)]
    [failure] = cases["B3-QC-01"].result  # B failed in its 4 runs: one failing testcase, its runs named inside
    assert isinstance(failure, junitparser.Failure)
    assert failure.message.startswith("B run 0: ")
    assert "B run 3: [fail] exactly_3_items" in failure.text and "A run" not in failure.text  # A passed
    [known] = cases["B3-PC-01"].result
    assert isinstance(known, junitparser.Skipped) and known.message.startswith("known failure: 0 of 5 runs passed")
    assert cases["B3-QC-02"].result == []
    assert xml.failures == 1 + 1  # the case and the regression rule
    qc = next(s for s in xml if s.name == "B3/QC")
    properties = {p.name: p.value for p in qc.properties()}
    assert properties["A.case_pass_rate"] == "1.0000" and properties["B.case_pass_rate"] == "0.5000"


def test_known_failures_can_be_reported_as_failures_or_as_passes(mixed_report: GateReport, tmp_path: Path) -> None:
    strict = junitparser.JUnitXml.fromfile(str(write(_with(mixed_report, known_failures="failure"), tmp_path)))
    cases = {c.name: c for s in strict for c in s}
    assert isinstance(cases["B3-PC-01 [A] run 0"].result[0], junitparser.Failure)
    assert strict.failures == 4 + 2 + 1  # the new failure's runs, PC-01's two runs, the regression rule
    lenient = junitparser.JUnitXml.fromfile(str(write(_with(mixed_report, known_failures="passed"), tmp_path)))
    cases = {c.name: c for s in lenient for c in s}
    known = cases["B3-PC-01 [A] run 0"]
    assert known.result == []
    assert "known failure: 0 of 5 runs passed in the baseline too: no_sony" in known.system_out
    assert lenient.skipped == 0 and lenient.failures == 4 + 1


def test_the_total_time_is_the_run_s_wall_time_not_the_sum_of_concurrent_calls(
        mixed_report: GateReport, tmp_path: Path) -> None:
    from dataclasses import replace

    summed = junitparser.JUnitXml.fromfile(str(write(mixed_report, tmp_path)))
    assert summed.time == 9 * 1.234  # 9 runs of 1234 ms each, when the run's duration is unknown
    timed = junitparser.JUnitXml.fromfile(str(write(replace(mixed_report, wall_s=2.3456789), tmp_path)))
    assert timed.time == 2.346
    assert 'time="2.346"' in (tmp_path / "junit.xml").read_text(encoding="utf-8")
