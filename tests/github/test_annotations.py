"""Workflow-command annotations from results.json: escaping, priority order, ten of each kind."""

from __future__ import annotations

import random
from typing import Any

import gate.github.annotations as gh
from gate.github.annotations import command, escape_data, escape_property
from gate.results import ResultsFile


def run(case_id: str, group: str = "A", status: str = "fail", n: int = 0, *,
        detail: str = "found 4 items, expected exactly 5", error: str | None = None) -> dict[str, Any]:
    constraints = [] if status == "error" else [
        {"id": "count", "check": "items:count", "status": "fail", "detail": detail, "evidence": []},
        {"id": "json", "check": "json:valid", "status": "pass", "detail": "ok", "evidence": []},
    ]
    return {"case_id": case_id, "group": group, "run": n, "status": status, "error": error,
            "constraints": constraints, "metadata": {}}


def document(runs: list[dict[str, Any]], findings: list[dict[str, Any]] | None = None, *,
             blame: dict[str, str] | None = None, newly: list[list[str]] | None = None,
             states: dict[str, dict[str, str]] | None = None) -> ResultsFile:
    cases = {cid: {"groups": {}, "attribution": (blame or {}).get(cid), "states": (states or {}).get(cid, {})}
             for cid in {*(blame or {}), *(states or {})}}
    return ResultsFile.model_validate({
        "schema": "gate.results/v1", "cases_digest": "sha256:x", "results": runs, "findings": findings or [],
        "passed": False, "metrics": {"cases": cases}, "baseline": {"present": True, "newly_failing": newly or []},
    })


def test_escaping_follows_the_workflow_command_rules() -> None:
    assert escape_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert escape_property("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb"
    assert command("warning", "m") == "::warning::m"
    assert command("error", "a\nb", file="cases/x,y:z.yaml", line=3, title="T: 1, 2") == (
        "::error file=cases/x%2Cy%3Az.yaml,line=3,title=T%3A 1%2C 2::a%0Ab")


def test_a_failing_run_points_at_its_case_file_with_its_failing_constraints() -> None:
    doc = document([run("B3-QC-05", "B", detail="100% sure:\nonly 4")], blame={"B3-QC-05": "skill"},
                   newly=[["B3-QC-05", "B"]])
    assert gh.annotations(doc, {"B3-QC-05": ("cases/b3/B3-QC-05.yaml", 2)}) == [
        "::error file=cases/b3/B3-QC-05.yaml,line=2,title=B3-QC-05 group B run 0 failed "
        "(newly failing%2C attributed to the skill)::count [items:count]: 100%25 sure:%0Aonly 4"
    ]


def test_an_agent_error_and_a_warning_finding() -> None:
    doc = document([run("X-SD-01", "A", "error", error="timeout after 60 s")],
                   [{"level": "warning", "rule": "consistency", "case_id": "X-SD-01",
                     "message": "item count agrees in 3 of 5 runs"},
                    {"level": "info", "rule": "no-baseline", "message": "no baseline yet"}])
    assert gh.annotations(doc, {}) == [
        "::error title=X-SD-01 group A run 0 agent error::agent error: timeout after 60 s",
        "::warning title=consistency%3A X-SD-01::item count agrees in 3 of 5 runs",
    ]


def test_most_important_first_then_by_case_id() -> None:
    runs = [run("Z-plain"), run("A-plain"), run("M-skill", "B"), run("N-new", "A"), run("K-new-skill", "B"),
            run("B-new-skill", "B")]
    findings = [
        {"level": "error", "rule": "min-a", "dimension": "B3/QC", "message": "B3/QC: A pass rate 60.0% < 70.0%"},
        {"level": "red-line", "rule": "red-line-delta", "dimension": "B3/FC", "message": "B3/FC: B − A = −20 pts"},
        {"level": "error", "rule": "regression", "case_id": "N-new", "group": "A", "message": "N-new (A) regressed"},
    ]
    doc = document(runs, findings, blame={"M-skill": "skill", "K-new-skill": "skill", "B-new-skill": "skill"},
                   newly=[["N-new", "A"], ["K-new-skill", "B"], ["B-new-skill", "B"]])
    titles = [line.split("title=")[1].split("::")[0] for line in gh.annotations(doc, {})]
    assert titles == [
        "red line%3A B3/FC",
        "B-new-skill group B run 0 failed (newly failing%2C attributed to the skill)",
        "K-new-skill group B run 0 failed (newly failing%2C attributed to the skill)",
        "N-new group A run 0 failed (newly failing)",
        "M-skill group B run 0 failed (attributed to the skill)",
        "min-a%3A B3/QC",
        "A-plain group A run 0 failed",
        "Z-plain group A run 0 failed",
    ]  # the regression finding of N-new is said by its failing run already


def test_ten_of_each_kind_then_one_notice() -> None:
    runs = [run(f"B3-FC-{i:02d}", n=0) for i in range(15)]
    warnings = [{"level": "warning", "rule": "consistency", "case_id": f"X-SD-{i:02d}", "message": "unstable"}
                for i in range(12)]
    lines = gh.annotations(document(runs, warnings), {})
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert sum(line.startswith("::warning ") for line in lines) == 10
    assert lines[0].startswith("::error title=B3-FC-00 ") and lines[9].startswith("::error title=B3-FC-09 ")
    assert lines[-1] == "::notice title=agent-gate::… and 5 more failing runs and 2 more warnings; see the job summary"
    assert len(lines) == 21


def test_overflow_counts_errors_when_findings_are_among_them() -> None:
    findings = [{"level": "red-line", "rule": "red-line-delta", "dimension": f"B3/D{i:02d}", "message": "x"}
                for i in range(11)]
    lines = gh.annotations(document([run("B3-QC-01")], findings), {})
    assert lines[-1] == "::notice title=agent-gate::… and 2 more errors; see the job summary"


def test_no_failures_no_annotations() -> None:
    assert gh.annotations(document([{**run("B3-QC-01"), "status": "pass"}]), {}) == []
    assert gh.annotations(document([]), {}) == []


def test_deterministic_whatever_the_input_order() -> None:
    runs = [run(f"C{i}", "AB"[i % 2], n=i % 3) for i in range(30)]
    findings = [{"level": "warning", "rule": f"r{i}", "message": f"m{i}"} for i in range(5)]
    expected = gh.annotations(document(runs, findings), {"C1": ("cases/C1.yaml", 1)})
    shuffled = random.Random(7)
    for _ in range(5):
        shuffled.shuffle(runs)
        shuffled.shuffle(findings)
        assert gh.annotations(document(runs, findings), {"C1": ("cases/C1.yaml", 1)}) == expected


def test_known_and_flaky_failures_are_notices_so_a_passing_gate_shows_no_error() -> None:
    doc = document([run("B3-MC-04", "B"), run("X-OC-02", "A", n=3), run("B3-PC-01", "A")],
                   states={"B3-MC-04": {"B": "known-failure"}, "X-OC-02": {"A": "passing"},
                           "B3-PC-01": {"A": "new-failure"}})
    lines = gh.annotations(doc, {})
    assert [line.split("::")[1] for line in lines] == [
        "error title=B3-PC-01 group A run 0 failed",
        "notice title=B3-MC-04 group B run 0 failed (known failure)",
        "notice title=X-OC-02 group A run 3 failed (flaky run%2C the case passes by majority)",
    ]


def test_escape_sequences_from_agent_text_never_reach_the_log() -> None:
    doc = document([run("B3-QC-01", detail="\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \x1b[2J\x1b[31mred\x1b[0m \x07")])
    (line,) = gh.annotations(doc, {})
    assert "\x1b" not in line and "\x07" not in line
    assert line.endswith("::count [items:count]: click red ")  # the hyperlink and colours gone, the text kept


def test_known_failures_can_be_left_out_of_the_annotations() -> None:
    results = document(
        [{"case_id": "B3-PC-01", "group": "A", "run": 0, "status": "fail",
          "constraints": [{"id": "no_sony", "check": "terms:forbidden", "status": "fail", "detail": "Sony"}]},
         {"case_id": "B3-QC-01", "group": "B", "run": 0, "status": "fail",
          "constraints": [{"id": "three", "check": "items:count", "status": "fail", "detail": "4 items"}]}],
        states={"B3-PC-01": {"A": "known-failure"}, "B3-QC-01": {"B": "new-failure"}}, newly=[["B3-QC-01", "B"]])
    shown = gh.annotations(results, {})
    assert [line.split(" ", 1)[0] for line in shown] == ["::error", "::notice"]
    quiet = gh.annotations(results, {}, known="none")
    assert len(quiet) == 1 and quiet[0].startswith("::error title=B3-QC-01 group B run 0 failed (newly failing)")


def test_the_action_reads_the_annotation_setting_from_gate_yaml(tmp_path: Any) -> None:
    from gate.github.action import known_failures_setting

    config = tmp_path / "gate.yaml"
    config.write_text("reports:\n  annotations:\n    known_failures: none\n", encoding="utf-8")
    assert known_failures_setting(str(config)) == "none"
    config.write_text("reports: [", encoding="utf-8")  # unreadable: the default, not a crash
    assert known_failures_setting(str(config)) == "notice"


def _uncertain_run(case_id: str, n: int) -> dict[str, Any]:
    readings = [{"label": "3 items from the numbered list", "verdict": "pass", "why": "it follows the request"},
                {"label": "5 entries of a plan list", "verdict": "fail"}]
    return {**run(case_id, n=n), "status": "uncertain", "constraints": [
        {"id": "count", "check": "items:count", "status": "uncertain", "detail": "3 or 5 items", "readings": readings}]}


def test_an_uncertain_run_is_a_warning_with_both_readings_never_an_error() -> None:
    finding = {"level": "warning", "rule": "needs-a-look", "case_id": "B3-QC-01", "group": "A",
               "message": "B3-QC-01 (A): 2 of 2 runs uncertain"}
    doc = document([_uncertain_run("B3-QC-01", 0), _uncertain_run("B3-QC-01", 1)], [finding])
    assert gh.annotations(doc, {"B3-QC-01": ("cases/b3/B3-QC-01.yaml", 1)}) == [
        "::warning file=cases/b3/B3-QC-01.yaml,line=1,title=B3-QC-01 uncertain in 2 runs (A run 0%2C A run 1) "
        "(needs a look%3A `gate review`)::count [items:count]: read as «3 items from the numbered list» → pass "
        "(it follows the request); or as «5 entries of a plan list» → fail"]  # the finding says it again: left out
    never = {**finding, "level": "error", "message": "B3-QC-01 (A): never-rule `count` uncertain in 2 of 2 runs"}
    lines = gh.annotations(document([_uncertain_run("B3-QC-01", 0)], [never]), {})
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning"]
