"""`gate eval` on trajectory files in the contract's format gives the seeds' verdicts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from tests.casefiles import repo_cases

ROOT = Path(__file__).resolve().parents[2]


def run_eval(trajectories: Path, out: Path) -> dict:
    result = CliRunner().invoke(main, ["eval", "--cases", str(ROOT / "cases"), "--trajectories", str(trajectories),
                                       "--json", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.stdout + result.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_hand_written_file_in_both_record_forms(tmp_path: Path) -> None:
    document = run_eval(ROOT / "tests" / "data" / "handwritten.jsonl", tmp_path / "results.json")
    statuses = {(r["case_id"], r["group"]): r["status"] for r in document["results"]}
    assert statuses == {
        ("B3-QC-01", "A"): "pass",       # nested sub-points are part of their item
        ("B3-QC-01", "B"): "fail",       # a fourth item
        ("B3-PC-01", "A"): "fail",       # "不是索尼" still mentions 索尼: the seed forbids the word anywhere
        ("B3-FC-01", "A"): "pass",       # one ```json fence is allowed
        ("B3-FC-01", "B"): "fail",       # prose around JSON, Chinese keys
        ("feedback-001", "A"): "pass",   # OpenAI messages: tool calls derived from the transcript
        ("feedback-001", "B"): "fail",   # send_message, even though the first call errored
        ("B3-LC-01", "A"): "error",      # the agent call failed
        ("B3-MM-03", "A"): "skipped",    # judge-only: not gated by rules
    }
    failing = {(r["case_id"], r["group"]): [c["id"] for c in r["constraints"] if c["status"] == "fail"]
               for r in document["results"]}
    assert failing[("feedback-001", "B")] == ["no_write_tools"]
    assert failing[("B3-FC-01", "B")] == ["valid_json", "three_entries", "city_and_reason_fields"]
    assert document["schema"] == "gate.results/v1" and document["cases_digest"].startswith("sha256:")


def _example_records() -> tuple[list[dict], dict[tuple[str, str, int], str]]:
    records, expected = [], {}
    for case in repo_cases().cases.values():
        if case.examples is None:
            continue
        rule_ids = {c.id for c in case.constraints if c.is_rule}
        examples = [(e, "pass") for e in case.examples.pass_] + [(e, "fail") for e in case.examples.fail]
        for run, (example, kind) in enumerate(examples):
            applicable = {c.id for c in case.constraints if c.is_rule and c.applies_to(example.group)}
            if not applicable:
                want = "skipped"
            elif kind == "fail" and not set(example.fails) & rule_ids:
                want = "pass"  # fails only a judge rubric: rules cannot see it
            else:
                want = kind
            records.append({"case_id": case.id, "group": example.group, "run": run,
                            "final_answer": example.final_answer,
                            "tool_calls": [c.model_dump() for c in example.tool_calls]})
            expected[(case.id, example.group, run)] = want
    return records, expected


def test_every_seed_case_example_through_the_cli(tmp_path: Path) -> None:
    records, expected = _example_records()
    path = tmp_path / "examples.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    document = run_eval(path, tmp_path / "results.json")
    got = {(r["case_id"], r["group"], r["run"]): r["status"] for r in document["results"]}
    assert got == expected
    golden = {c.id for c in repo_cases().cases.values() if c.golden}
    judged = {cid for (cid, _, _), status in got.items() if status in ("pass", "fail")}
    assert golden <= judged


@pytest.mark.parametrize("line", ['{"case_id": "B3-QC-01", "group": "C", "run": 0}', "not json"])
def test_bad_records_are_named_by_file_and_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"case_id": "B3-QC-01", "group": "A", "run": 0, "final_answer": "1. a"}\n' + line + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["eval", "--cases", str(ROOT / "cases"), "--trajectories", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"gate: error: {path}:2: ")


def test_eval_reports_consistency_of_repeated_runs(tmp_path: Path) -> None:
    document = run_eval(ROOT / "examples" / "trajectories.jsonl", tmp_path / "results.json")
    x_sd_01 = document["consistency"]["cases"]["X-SD-01"]
    assert x_sd_01["groups"]["A"]["runs"] == 5 and x_sd_01["groups"]["B"]["runs"] == 5
    assert x_sd_01["gain"] == round(x_sd_01["groups"]["B"]["overall"] - x_sd_01["groups"]["A"]["overall"], 4)


def test_every_case_with_a_rule_is_golden_but_those_that_need_an_image() -> None:
    """The PR gate runs every case a rule can judge; a multimodal case's rules need the photo."""
    for case in repo_cases().cases.values():
        ruled = any(constraint.is_rule for constraint in case.constraints)
        assert ("golden" in case.tags) == (ruled and "multimodal" not in case.tags), case.id


def test_eval_reports_the_findings_of_what_it_judged(tmp_path: Path) -> None:
    """The thresholds of the gate.yaml given apply to the records judged: a bar the recording misses
    is an error finding and ``passed: false`` (the exit code stays 0: eval reports, check gates)."""
    recording = ROOT / "examples" / "trajectories.jsonl"
    default = CliRunner().invoke(main, ["eval", "--cases", str(ROOT / "cases"), "--trajectories", str(recording),
                                        "--json", str(tmp_path / "default.json")], catch_exceptions=False)
    assert default.exit_code == 0, default.output
    document = json.loads((tmp_path / "default.json").read_text(encoding="utf-8"))
    # the recording names Redmi (a Xiaomi line) in B3-MC-05 A: a never-rule, and eval has no baseline to accept it
    assert document["passed"] is False and document["verdict"] == "failed"
    assert {f["rule"] for f in document["findings"]} == {"no-judged-case", "zero-tolerance"}  # no baseline note
    (tmp_path / "gate.yaml").write_text("thresholds:\n  min_a: 0.99\n", encoding="utf-8")
    strict = CliRunner().invoke(main, ["eval", "--cases", str(ROOT / "cases"), "--trajectories", str(recording),
                                       "--json", str(tmp_path / "strict.json"), "--config", str(tmp_path / "gate.yaml")],
                                catch_exceptions=False)
    assert strict.exit_code == 0, strict.output
    document = json.loads((tmp_path / "strict.json").read_text(encoding="utf-8"))
    missed = [f for f in document["findings"] if f["rule"] == "min-a"]
    assert document["passed"] is False and missed and all(f["level"] == "error" for f in missed)
    assert f"[error] {missed[0]['message']}" in strict.output


def test_a_bad_record_after_judged_ones_writes_nothing(tmp_path: Path) -> None:
    # the stream is judged as it is read: a bad line at the end still refuses the whole file
    good = [{"case_id": "B3-QC-01", "group": "A", "run": run, "final_answer": "1. a\n2. b\n3. c"} for run in range(50)]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [*good, good[7]]), encoding="utf-8")
    out = tmp_path / "out" / "results.json"
    result = CliRunner().invoke(main, ["eval", "--cases", str(ROOT / "cases"), "--trajectories", str(path),
                                       "--json", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"gate: error: {path}:51: duplicate record for case B3-QC-01 group A run 7 "
                             "(first at line 8)\n")
    assert not out.parent.exists() and result.stdout == ""


def test_an_answer_with_line_separators_is_one_record(tmp_path: Path) -> None:
    # U+2028, U+0085 and a form feed may stand raw in a JSON string (json.dumps(ensure_ascii=False)
    # writes them so); only CR and LF end a JSON Lines record
    answer = "1. Bose QC45\u2028降噪\n2. Apple AirPods Max\x85\n3. 华为 FreeBuds\x0c"
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps({"case_id": "B3-QC-01", "group": "A", "run": 0, "final_answer": answer},
                               ensure_ascii=False) + "\r\n", encoding="utf-8")
    document = run_eval(path, tmp_path / "results.json")
    assert [(r["case_id"], r["run"]) for r in document["results"]] == [("B3-QC-01", 0)]
