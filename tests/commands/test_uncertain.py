"""Uncertain verdicts end to end through `gate check`: an answer the checker reads two ways is never a
pass — the run is left out of the rates and counted apart, the gate says INCONCLUSIVE naming both
readings, every report carries them, a baseline that knew it makes it a note, and a human review
settles it on that trajectory."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.casefiles import case_yaml
from tests.commands import unsure_agent
from tests.commands.cli import invoke

GROUPS = "A: {skill_enabled: false}\nB: {skill_enabled: true, active_skills: [s]}"
ROOT = Path(__file__).resolve().parents[2]
READ_AS = ("read as «3 items from the numbered list» → pass (the last list is the picks); or as «5 entries of a "
           "plan list and the picks» → fail (the plan's entries read as picks)")


def _case(case_id: str, *, never: bool = False) -> str:
    rule = "zero_tolerance: true, " if never else ""
    return case_yaml([f"{{id: count, {rule}check: {unsure_agent.CHECK}, params: {{exact: 3}}}}"],
                     ["1. a\n2. b\n3. c"], [("1. x", ["count"])], case_id=case_id, title=case_id, groups=GROUPS)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    unsure_agent.register(monkeypatch)
    monkeypatch.chdir(tmp_path)
    cases = tmp_path / "cases" / "b3"
    cases.mkdir(parents=True)
    for case_id in ("B3-QC-01", "B3-QC-02"):
        (cases / f"{case_id}.yaml").write_text(_case(case_id), encoding="utf-8")
    config = {"cases": {"path": "cases", "tags": ["golden"]},
              "agent": {"adapter": "python", "function": "tests.commands.unsure_agent:answer", "cache": False},
              "baseline": "baselines/main.json", "out_dir": "gate-results"}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


def results(project: Path) -> dict[str, Any]:
    return dict(json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8")))


def run_of(document: dict[str, Any], case_id: str, group: str) -> dict[str, Any]:
    return next(r for r in document["results"] if (r["case_id"], r["group"]) == (case_id, group))


def test_an_uncertain_run_is_never_a_pass_and_makes_the_gate_inconclusive(project: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update")[0] == 0  # read without doubt: 5 of 5 runs pass everywhere
    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    code, out, _ = invoke("check")
    assert code == 0, out  # an open decision: exit 0 unless decision.fail_on_inconclusive
    assert ("[warning] B3-QC-01 (A): 1 of 1 runs uncertain, left out of the pass rate and never counted as "
            "passes (the baseline read all 5 of its runs of this pair); `gate review` settles it — `count` (run 0): "
            f"{READ_AS}") in out
    assert "gate INCONCLUSIVE: " in out and "PASSED" not in out
    document = results(project)
    assert document["verdict"] == "inconclusive"
    run = run_of(document, "B3-QC-01", "A")
    assert run["status"] == "uncertain"
    assert run["constraints"][0]["status"] == "uncertain"
    assert run["constraints"][0]["readings"] == [
        {"label": "3 items from the numbered list", "verdict": "pass", "why": "the last list is the picks",
         "chosen": False},
        {"label": "5 entries of a plan list and the picks", "verdict": "fail", "why": "the plan's entries read as picks",
         "chosen": False}]
    assert "readings" not in run_of(document, "B3-QC-01", "B")["constraints"][0]  # none offered
    case = document["metrics"]["cases"]["B3-QC-01"]
    assert case["groups"] == {"A": "uncertain", "B": "pass"} and case["states"]["A"] == "uncertain"
    assert case["counts"]["A"] == {"passed": 0, "judged": 0, "uncertain": 1}
    overall = document["metrics"]["overall"]["A"]
    assert (overall["runs"], overall["passed"], overall["judged"], overall["uncertain"]) == (2, 1, 1, 1)
    assert document["metrics"]["dimensions"]["B3/QC"]["groups"]["A"]["case_pass_rate"] == 1.0  # the one read
    schema = json.loads((ROOT / "schemas" / "results.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)


def test_the_reports_name_both_readings(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNSURE", "B3-QC-01:A,B3-QC-02:B")
    code, out, _ = invoke("check")
    assert code == 0 and "gate INCONCLUSIVE" in out  # no baseline: nothing says these were read so before
    assert "no baseline record of this pair says whether it was read so before" in out
    comment = (project / "gate-results" / "comment.md").read_text(encoding="utf-8")
    assert comment.index("### Findings") < comment.index("### Needs a look (2)")
    assert "2 run(s) uncertain (A: 1, B: 1), left out of the pass rates and never counted as passes" in comment
    assert "- **B3-QC-01** [A] run 0 · `count` (test:two_readings)" in comment
    assert "  - «3 items from the numbered list» → pass (the last list is the picks)" in comment
    assert "  - «5 entries of a plan list and the picks» → fail (the plan's entries read as picks)" in comment
    assert "Settle each with `gate review`" in comment
    suites = ET.parse(project / "gate-results" / "junit.xml").getroot()
    case = next(t for t in suites.iter("testcase") if t.get("name") == "B3-QC-01 [A] run 0")
    skipped = case.find("skipped")
    assert skipped is not None and case.find("failure") is None and case.find("error") is None
    assert skipped.get("message") == f"uncertain — settle it with `gate review`: count (test:two_readings): {READ_AS}"
    assert "PLAN" in (case.findtext("system-out") or "")  # the answer the readings disagree on


def test_a_baseline_that_was_uncertain_too_makes_it_a_known_note(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    assert invoke("baseline", "update")[0] == 0
    stored = json.loads((project / "baselines" / "main.json").read_text(encoding="utf-8"))
    assert stored["cases"]["B3-QC-01"] == {"A": {"passed": 0, "runs": 0, "uncertain": 5},
                                           "B": {"passed": 5, "runs": 5}}
    code, out, _ = invoke("check")
    assert code == 0 and "gate PASSED" in out
    assert ("[info] known: B3-QC-01 (A): 1 of 1 runs uncertain, left out of the pass rate and never counted as "
            "passes (the baseline had 5 of its 5 runs of this pair uncertain too); `gate review` settles it") in out
    document = results(project)
    assert document["verdict"] == "passed"
    assert document["metrics"]["overall"]["A"]["uncertain"] == 1  # still no pass
    assert "### Needs a look (1)" in (project / "gate-results" / "comment.md").read_text(encoding="utf-8")


def test_a_baseline_that_would_turn_uncertain_is_a_lowered_bar(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update")[0] == 0
    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    code, out, _ = invoke("baseline", "update")  # it would make the uncertain runs a known note from then on
    assert code == 1 and "lowered (1): B3-QC-01 (A) 5/5 → 0/0 runs, 5 uncertain" in out


def test_a_human_review_settles_it_on_that_trajectory(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update")[0] == 0
    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    assert invoke("check")[0] == 0
    code, out, _ = invoke("review", "--reviewer", "韩梅梅", stdin="p\n计划不是推荐\n")
    assert code == 0, out
    assert "1 of 1 uncertain constraint(s) and no review queue (`gate judge` writes one)" in out
    assert "[1/1] B3-QC-01 · group A · run 0 · constraint count (test:two_readings) — uncertain" in out
    assert "    1. «3 items from the numbered list» → pass (the last list is the picks)" in out
    assert "    2. «5 entries of a plan list and the picks» → fail (the plan's entries read as picks)" in out
    assert "  │ PLAN" in out and "recorded 1 verdict(s), skipped 0, 0 left" in out
    review = yaml.safe_load((project / "reviews" / "reviews.yaml").read_text(encoding="utf-8"))["reviews"][0]
    assert (review["rule"], review["human"], review["note"]) == ("uncertain", "pass", "计划不是推荐")
    _, again, _ = invoke("review", "--reviewer", "韩梅梅", stdin="q\n")
    assert "0 of 1 uncertain constraint(s) and no review queue (`gate judge` writes one)" in again
    code, out, _ = invoke("check")
    assert code == 0 and "gate PASSED" in out, out
    constraint = run_of(results(project), "B3-QC-01", "A")["constraints"][0]
    assert (constraint["status"], constraint["source"]) == ("pass", "human")
    assert "; was uncertain: 3 or 5 items: a plan may precede the picks" in constraint["detail"]
    assert len(constraint["readings"]) == 2  # what was read stays on the record
    assert "needs-a-look" not in out and "uncertain" not in out


def test_review_set_records_that_the_rule_was_uncertain(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.trajectory import Trajectory

    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    invoke("check")
    line = next(line for line in (project / "gate-results" / "trajectories.jsonl").read_text(encoding="utf-8")
                .splitlines() if '"group": "A"' in line and "B3-QC-01" in line)
    digest = Trajectory.model_validate_json(line).digest
    code, out, _ = invoke("review", "--reviewer", "李雷", "set", "--trajectory", digest, "--case", "B3-QC-01",
                          "--constraint", "count", "--verdict", "fail")
    assert code == 0, out
    review = yaml.safe_load((project / "reviews" / "reviews.yaml").read_text(encoding="utf-8"))["reviews"][0]
    assert (review["rule"], review["human"]) == ("uncertain", "fail")
    code, out, _ = invoke("check")
    assert run_of(results(project), "B3-QC-01", "A")["status"] == "fail"


def test_a_never_rule_left_uncertain_is_not_waved_through(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "cases" / "b3" / "B3-QC-01.yaml").write_text(_case("B3-QC-01", never=True), encoding="utf-8")
    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    code, out, _ = invoke("check")
    assert code == 1, out
    assert ("[error] B3-QC-01 (A): never-rule `count` uncertain in 1 of 1 runs — a possible violation of a "
            f"never-rule is not waved through; `gate review` settles it — `count` (run 0): {READ_AS}") in out
    assert "[warning] B3-QC-01 (A)" not in out  # the error says it: no second finding for the same constraint
    assert results(project)["verdict"] == "failed"
    assert "**never-rule**" in (project / "gate-results" / "comment.md").read_text(encoding="utf-8")


def test_gate_eval_shows_the_readings_in_its_table(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNSURE", "B3-QC-01:A")
    invoke("check")
    code, out, _ = invoke("eval", "--cases", "cases", "--trajectories", "gate-results/trajectories.jsonl")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("B3-QC-01") and " A " in line)
    assert "UNCERTAIN" in row and "count: uncertain, read as «3 items from the numbered list» → pass" in row


def test_the_judge_records_a_rule_left_uncertain_beside_its_rubric(project: Path) -> None:
    from tests.semantic.standin import config_text, judge_mocked, verdict

    constraint = (f"{{id: count_and_friendly, all_of: [{{check: {unsure_agent.CHECK}, params: {{exact: 3}}}}, "
                  "{judge: 语气友好}]}")
    text = case_yaml([f"{{id: count, check: {unsure_agent.CHECK}, params: {{exact: 3}}}}", constraint],
                     ["1. a\n2. b\n3. c"], [("1. x", ["count", "count_and_friendly"])], case_id="B3-QC-01")
    (project / "cases" / "b3" / "B3-QC-01.yaml").write_text(text, encoding="utf-8")
    record = {"case_id": "B3-QC-01", "group": "A", "run": 0, "final_answer": unsure_agent.PLAN + unsure_agent.PICKS}
    (project / "runs.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    with judge_mocked(lambda asked, index: verdict(True)) as server:
        (project / "gate.yaml").write_text(config_text(server.url, cases="cases"), encoding="utf-8")
        code, out, err = invoke("judge", "--trajectories", "runs.jsonl")
    assert code == 0, out + err
    document = json.loads((project / "gate-results" / "judge.json").read_text(encoding="utf-8"))
    (found,) = document["constraints"]
    assert (found["rule"], found["judge"], found["final"]) == ("uncertain", "uncertain", "uncertain")
    schema = json.loads((ROOT / "schemas" / "judge.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)


def test_shards_with_uncertain_runs_merge_to_the_unsharded_report(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNSURE", "B3-QC-01:A,B3-QC-02:B")
    whole = invoke("check", "--out-dir", "whole")[0]
    for k in (1, 2):
        invoke("check", "--shard", f"{k}/2", "--out-dir", f"shard-{k}")
    merged = invoke("merge", "shard-1/results.json", "shard-2/results.json", "--out-dir", "merged")[0]
    assert merged == whole == 0
    assert (project / "merged" / "comment.md").read_bytes() == (project / "whole" / "comment.md").read_bytes()
    assert "### Needs a look (2)" in (project / "merged" / "comment.md").read_text(encoding="utf-8")


def test_review_reads_the_results_it_is_given_and_needs_their_trajectories(project: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNSURE", "B3-QC-02:B")
    invoke("check", "--out-dir", "elsewhere")
    code, out, _ = invoke("review", "--results", "elsewhere/results.json", "--reviewer", "李雷", stdin="s\n")
    assert code == 0 and "[1/1] B3-QC-02 · group B · run 0 · constraint count" in out, out
    (project / "elsewhere" / "trajectories.jsonl").unlink()
    code, _, err = invoke("review", "--results", "elsewhere/results.json")
    assert code == 2
    assert err.strip() == ("gate: error: elsewhere/trajectories.jsonl: results.json has uncertain runs, and reviewing "
                           "them needs the trajectories.jsonl written beside it")
