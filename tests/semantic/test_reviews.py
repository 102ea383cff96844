"""Human review as data: the reviews file (appended to, validated, superseding), `gate review` and
`gate review set`, and a human verdict overriding the next `gate eval` and `gate check`."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gate.cases.loader import load_cases
from gate.cli.app import main
from gate.errors import GateError
from gate.semantic.reviews import Review, append_review, load_reviews
from gate.trajectory import Trajectory
from tests.semantic.cases import ANSWERS, write_cases
from tests.semantic.standin import config_text, judge_mocked, verdict

DIGEST = "sha256:" + "ab" * 32


def review(**fields: Any) -> Review:
    base = {"trajectory": DIGEST, "case_id": "B3-QC-09", "constraint": "friendly", "human": "pass",
            "reviewer": "李雷", "date": datetime.date(2026, 12, 2)}
    return Review.model_validate({**base, **fields})


def test_an_absent_file_holds_no_reviews_and_the_first_verdict_creates_it(tmp_path: Path) -> None:
    path = tmp_path / "reviews" / "reviews.yaml"
    assert not load_reviews(path)
    append_review(path, review(rule="skipped", judge="fail", note="Judge 过于严格"))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Human verdicts") and "schema: gate.reviews/v1" in text and "note: Judge 过于严格" in text
    found = load_reviews(path)
    assert found.lookup(DIGEST, "B3-QC-09", "friendly") == review(rule="skipped", judge="fail", note="Judge 过于严格")
    assert found.lookup(DIGEST, "B3-QC-09", "exactly_3") is None


def test_verdicts_are_appended_comments_kept_and_the_last_one_wins(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    append_review(path, review())
    path.write_text(path.read_text(encoding="utf-8").replace("reviews:\n", "# 2026 Q4 batch\nreviews:\n"),
                    encoding="utf-8")
    append_review(path, review(human="fail", note="on a second look"))
    text = path.read_text(encoding="utf-8")
    assert "# 2026 Q4 batch" in text and text.count("- trajectory:") == 2
    found = load_reviews(path)
    assert len(found.entries) == 2 and found.lines == (7, 14)
    assert found.lookup(DIGEST, "B3-QC-09", "friendly").human == "fail"  # type: ignore[union-attr]


def test_a_file_an_entry_cannot_extend_is_rewritten_with_every_verdict(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    path.write_text("schema: gate.reviews/v1\nreviews: []\n", encoding="utf-8")
    append_review(path, review())
    append_review(path, review(constraint="exactly_3", human="fail"))
    assert [r.constraint for r in load_reviews(path).entries] == ["friendly", "exactly_3"]


@pytest.mark.parametrize("text, message", [
    ("schema: gate.reviews/v1\nreviews:\n  - trajectory: sha256:abc\n", "reviews.yaml:3: reviews[0].trajectory: must be a trajectory digest"),
    ("schema: gate.reviews/v1\nreviews:\n  - {trajectory: " + DIGEST + ", case_id: C, constraint: k, human: maybe, "
     "reviewer: r, date: 2026-12-02}\n", "reviews.yaml:3: reviews[0].human: Input should be 'pass' or 'fail'"),
    ("schema: gate.reviews/v2\n", "schema: Input should be 'gate.reviews/v1'"),
    ("schema: gate.reviews/v1\nreviews:\n  - {trajectory: " + DIGEST + ", case_id: C, constraint: k, human: pass, "
     "reviewer: r, date: 2025-02-29}\n", "reviews.yaml:3: reviews[0].date: Input should be a valid date or datetime, "
     "day value is outside expected range"),
    ("- a\n- b\n", "a reviews file must be a mapping"),
    ("schema: gate.reviews/v1\nreviews:\n  - {trajectory: " + DIGEST + ", case_id: C, constraint: k, human: pass, "
     "reviewer: r, date: 2026-12-02, verdict: pass}\n", "reviews[0].verdict: Extra inputs are not permitted"),
])
def test_a_malformed_reviews_file_names_the_place(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "reviews.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GateError) as raised:
        load_reviews(path)
    assert message in str(raised.value)


def test_a_date_looking_note_is_the_text_written_and_a_date_still_a_date(tmp_path: Path) -> None:
    path = tmp_path / "reviews.yaml"
    path.write_text("schema: gate.reviews/v1\nreviews:\n  - {trajectory: " + DIGEST + ", case_id: C, constraint: k, "
                    "human: pass, reviewer: r, date: 2025-02-28, note: 2025-02-29}\n", encoding="utf-8")
    (entry,) = load_reviews(path).entries
    assert (entry.note, entry.date) == ("2025-02-29", datetime.date(2025, 2, 28))


def test_reviews_of_cases_or_constraints_that_no_longer_exist_are_warnings(tmp_path: Path) -> None:
    cases = load_cases(write_cases(tmp_path)).cases
    path = tmp_path / "reviews.yaml"
    for fields in ({}, {"case_id": "B3-QC-77"}, {"constraint": "gone"}):
        append_review(path, review(**fields))
    assert load_reviews(path).stale(cases) == [
        f"{path}:13: review of case B3-QC-77, which no longer exists",
        f"{path}:20: review of B3-QC-09 constraint gone, which no longer exists",
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GATE_REVIEWER", "韩梅梅")
    write_cases(tmp_path)
    records = [Trajectory(case_id="B3-QC-09", group=group, run=0, final_answer=answer)
               for group, answer in (("A", ANSWERS["good"]), ("B", ANSWERS["good"] + "\n有问题随时问我"))]
    (tmp_path / "runs.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    (tmp_path / "gate.yaml").write_text(config_text("http://127.0.0.1:9", cases="cases",
                                                    agent=f"  adapter: replay\n  trajectories: {tmp_path / 'runs.jsonl'}\n"),
                                        encoding="utf-8")
    return tmp_path


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def _digest(group: str = "A") -> str:
    """The digest of the fixture's group-A or group-B run (the same answer in both would share one)."""
    runs = {json.loads(line)["group"]: Trajectory.model_validate_json(line)
            for line in Path("runs.jsonl").read_text(encoding="utf-8").splitlines()}
    return runs[group].digest


def _eval() -> dict[str, Any]:
    result = invoke("eval", "--cases", "cases", "--trajectories", "runs.jsonl", "--json", "results.json")
    assert result.exit_code == 0, result.output
    return dict(json.loads(Path("results.json").read_text(encoding="utf-8")))


def test_a_recorded_verdict_overrides_the_next_eval_for_that_trajectory_only(project: Path) -> None:
    before = _eval()
    assert [r["status"] for r in before["results"]] == ["pass", "pass"]
    result = invoke("review", "set", "--trajectory", _digest("A"), "--case", "B3-QC-09", "--constraint", "exactly_3",
                    "--verdict", "fail", "--note", "第三款其实是配件")
    assert result.exit_code == 0 and "recorded: B3-QC-09 exactly_3" in result.output, result.output
    entry, = load_reviews(project / "reviews" / "reviews.yaml").entries
    assert (entry.reviewer, entry.date, entry.rule, entry.judge) == ("韩梅梅", datetime.date.today(), None, None)
    after = _eval()
    run_a, run_b = after["results"]
    assert (run_a["status"], run_b["status"]) == ("fail", "pass")
    constraint = next(c for c in run_a["constraints"] if c["id"] == "exactly_3")
    assert constraint["source"] == "human" and constraint["status"] == "fail"
    assert constraint["detail"].startswith(f"human review (韩梅梅, {datetime.date.today().isoformat()}): fail — 第三款其实是配件; "
                                           "was pass: ")
    assert all("source" not in c for c in run_b["constraints"])


@pytest.mark.parametrize("args, message", [
    (["--constraint", "exactly3"], "B3-QC-09 has no constraint exactly3 — did you mean 'exactly_3'?"),
    (["--case", "B3-QC-9"], "unknown case B3-QC-9 — did you mean 'B3-QC-09'?"),
    (["--trajectory", "abc"], "trajectory: must be a trajectory digest"),
])
def test_review_set_refuses_what_does_not_exist(project: Path, args: list[str], message: str) -> None:
    base = {"--trajectory": _digest(), "--case": "B3-QC-09", "--constraint": "exactly_3", "--verdict": "pass"}
    base.update(dict(zip(args[::2], args[1::2], strict=True)))
    result = invoke("review", "set", *[part for pair in base.items() for part in pair])
    assert result.exit_code == 2 and message in result.output, result.output
    assert not (project / "reviews" / "reviews.yaml").exists()


def _queue(project: Path) -> None:
    with judge_mocked(lambda asked, index: verdict(asked.seed != 2, "命令口吻" if asked.seed == 2 else "友好")) as server:
        (project / "gate.yaml").write_text(config_text(server.url, cases="cases"), encoding="utf-8")
        result = invoke("judge", "--trajectories", "runs.jsonl")
    assert result.exit_code == 0, result.output


def test_the_walk_records_verdicts_as_given_and_resumes_where_it_stopped(project: Path) -> None:
    _queue(project)
    queue = [json.loads(line) for line in Path("gate-results/review-queue.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(queue) == 4 and all("split-vote" in e["reasons"] for e in queue)
    walked = invoke("review", stdin="p\nJudge 过于严格\nf\n\nq\n")
    assert walked.exit_code == 0, walked.output
    assert "4 of 4 queue entries to review" in walked.output and "rubric: 语气友好" in walked.output
    assert "judge: 命令口吻" in walked.output and "│ 1. Bose QC45" in walked.output
    assert "recorded 2 verdict(s), skipped 0, 2 left" in walked.output
    entries = load_reviews(project / "reviews" / "reviews.yaml").entries
    assert [(e.constraint, e.human, e.note, e.rule, e.judge) for e in entries] == [
        (queue[0]["constraint"], "pass", "Judge 过于严格", queue[0]["rule"], "pass"),
        (queue[1]["constraint"], "fail", "", queue[1]["rule"], "pass")]
    resumed = invoke("review", stdin="s\nq\n")
    assert "2 of 4 queue entries to review" in resumed.output and "recorded 0 verdict(s), skipped 1, 1 left" in resumed.output
    # the judge's next run shows the human verdicts and queues only what is left
    _queue(project)
    document = json.loads(Path("gate-results/judge.json").read_text(encoding="utf-8"))
    humans = [(r["constraint"], r["final"], r["source"]) for r in document["constraints"] if r["human"]]
    assert humans == [(queue[0]["constraint"], "pass", "human"), (queue[1]["constraint"], "fail", "human")]
    assert document["queued"] == 2
    assert "2 decided by human review" in Path("gate-results/judge.md").read_text(encoding="utf-8")


def test_a_queue_that_is_not_one_is_a_clear_error(project: Path) -> None:
    Path("gate-results").mkdir()
    Path("gate-results/review-queue.jsonl").write_text('{"case_id": "B3-QC-09"}\n', encoding="utf-8")
    result = invoke("review")
    assert result.exit_code == 2 and "review-queue.jsonl:1: not a review-queue entry" in result.output
    missing = invoke("review", "--queue", "nowhere.jsonl")
    assert missing.exit_code == 2 and "review queue not found" in missing.output


def test_check_shows_a_human_verdict_in_results_and_the_comment(project: Path) -> None:
    invoke("review", "set", "--trajectory", _digest("B"), "--case", "B3-QC-09", "--constraint", "exactly_3",
           "--verdict", "fail", "--note", "配件不算")
    result = invoke("check")
    assert result.exit_code == 0, result.output  # one failing run of one case is no evidence of a regression
    assert "B3/QC        100.0% (1/1) [21–100%]  0.0% (0/1)" in result.output
    results = json.loads(Path("gate-results/results.json").read_text(encoding="utf-8"))
    run_b = next(r for r in results["results"] if r["group"] == "B")
    assert next(c for c in run_b["constraints"] if c["id"] == "exactly_3")["source"] == "human"
    comment = Path("gate-results/comment.md").read_text(encoding="utf-8")
    assert "1 constraint verdict(s) come from human review" in comment
    assert "human review (韩梅梅" in comment
    junit = Path("gate-results/junit.xml").read_text(encoding="utf-8")
    assert "decided by human review: B run 0: exactly_3 [fail] human review (韩梅梅" in junit


def test_validate_checks_the_reviews_file(project: Path) -> None:
    append_review(project / "reviews" / "reviews.yaml", review(case_id="B3-QC-77", trajectory=_digest()))
    warned = invoke("validate")
    assert warned.exit_code == 0 and "review of case B3-QC-77, which no longer exists" in warned.output
    (project / "reviews" / "reviews.yaml").write_text("schema: gate.reviews/v1\nreviews: {}\n", encoding="utf-8")
    broken = invoke("validate")
    assert broken.exit_code == 2 and "reviews.yaml" in broken.output


def test_the_reviewer_is_named_by_option_environment_git_or_login(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    from gate.commands.review import reviewer_name

    monkeypatch.setenv("GATE_REVIEWER", "韩梅梅")
    assert reviewer_name("李雷") == "李雷" and reviewer_name(None) == "韩梅梅"
    monkeypatch.delenv("GATE_REVIEWER")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gitconfig").write_text("[user]\n\tname = Lin Tao\n", encoding="utf-8")
    assert reviewer_name(None) == "Lin Tao"
    (tmp_path / "gitconfig").write_text("", encoding="utf-8")
    monkeypatch.setenv("USER", "ci-runner")
    monkeypatch.setenv("LOGNAME", "ci-runner")
    assert reviewer_name(None) == "ci-runner"
