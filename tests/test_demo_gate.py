"""The repository's own gate: the demo agent passes against the committed baseline, a broken case fails it.

The demo answers in this process (tests/demo_inprocess.py, the same bytes as the script); one shard
goes through the real command adapter, an interpreter per call, and must give the same verdicts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import junitparser
import pytest
import yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.github.annotations import annotations
from gate.results import ResultsFile
from tests.demo_inprocess import answer_demo_in_process

ROOT = Path(__file__).resolve().parents[1]


def _run_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("GATE_DEMO_BREAK", raising=False)
    for name in ("GITHUB_SHA", "GITHUB_RUN_ID", "GITHUB_EVENT_NAME", "GITHUB_EVENT_PATH"):  # reports as run locally
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture(autouse=True)
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    _run_locally(monkeypatch)


@dataclass(frozen=True)
class Checked:
    out_dir: Path
    code: int
    output: str


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """`gate check` over the whole demo, the agent in process: the run several tests read."""
    out = tmp_path_factory.mktemp("whole")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _run_locally(monkeypatch)
        answer_demo_in_process(monkeypatch)
        code, output = check(out)
    return Checked(out, code, output)


def check(out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--out-dir", str(out), *extra], catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def verdicts(path: Path) -> list[tuple[str, str, int, str]]:
    document = json.loads(path.read_text(encoding="utf-8"))
    return [(r["case_id"], r["group"], r["run"], r["status"]) for r in document["results"]]


def test_the_demo_gate_passes_against_the_committed_baseline(whole: Checked) -> None:
    tmp_path, code, out = whole.out_dir, whole.code, whole.output
    assert code == 0, out
    assert "[warning] the baseline was recorded on a different case set" not in out
    assert {p.name for p in tmp_path.iterdir()} >= {"results.json", "junit.xml", "comment.md"}
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert document["baseline"]["present"] and not document["baseline"]["stale"]
    from gate.commands.schemas import schema  # the published results.json schema reads the demo's file
    jsonschema.Draft202012Validator(schema("results")).validate(document)
    assert document["baseline"]["newly_failing"] == []
    # green means green: the six honest failures are known since the baseline, not JUnit failures
    xml = junitparser.JUnitXml.fromfile(str(tmp_path / "junit.xml"))
    assert (xml.failures, xml.errors) == (0, 0)
    states = [s for c in document["metrics"]["cases"].values() for s in c["states"].values()]
    assert states.count("known-failure") == 5 and "new-failure" not in states
    # unjudged is not passed: a pass on the rules says how many rubrics nobody judged
    assert document["unjudged"] == {"runs_passing_on_rules_only": 86, "judge_only_runs": 26, "rubrics": 144}
    assert "[info] unjudged: 86 runs pass (rules) and 26 judge-only runs leave 144 rubrics unjudged" in out
    ac01 = next(c for s in xml for c in s if c.name == "B3-AC-01")  # gate.yaml: one testcase per case
    assert ac01.system_out == "pass (rules) · 2 rubric(s) unjudged\ngroups: A, B; runs: 2"
    known = [c for s in xml for c in s if c.result and isinstance(c.result[0], junitparser.Skipped)
             and "known failure" in (c.result[0].message or "")]
    assert len(known) == 5
    _matches_the_docs(tmp_path / "comment.md", "comment-passing.md")
    lines = annotations(ResultsFile.model_validate(document), {})
    assert not [line for line in lines if line.startswith("::error")]
    assert sum(line.startswith("::notice") for line in lines) == 6  # the known failures, and the flaky run


def test_a_regressed_golden_case_fails_the_gate_and_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATE_DEMO_BREAK", "B3-PC-01")
    code, out = check(tmp_path)
    assert code == 1
    # confirmed by its reruns: the deterministic break fails every one of them
    assert "[error] B3-PC-01 (A): passes 0 of 4 runs now, 5 of 5 in the baseline" in out
    comment = (tmp_path / "comment.md").read_text(encoding="utf-8")
    assert "**B3-PC-01** [A]" in comment.split("Newly failing cases")[1]
    xml = junitparser.JUnitXml.fromfile(str(tmp_path / "junit.xml"))
    failing = [c for s in xml for c in s if c.result and isinstance(c.result[0], junitparser.Failure)]
    # one broken case: one failing testcase (its 8 failing runs inside), plus the gate's own rules: the
    # never-rule it breaks and the regression
    assert sorted(c.name for c in failing) == ["B3-PC-01", "regression", "zero-tolerance"]
    assert failing[0].result[0].message.startswith("A run 0: no_sony (terms:forbidden): 2 forbidden mention(s)")
    assert "B run 3: [fail] no_sony" in failing[0].result[0].text
    assert "    ↳ run 0: no_sony (terms:forbidden): 2 forbidden mention(s)" in out
    _matches_the_docs(tmp_path / "comment.md", "comment-failing.md")
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    errors = [line for line in annotations(ResultsFile.model_validate(document), {}) if line.startswith("::error")]
    # the never-rule it breaks first, once per group, then the case: its 8 failing runs counted in the title
    assert [e.split("::")[1] for e in errors[:2]] == ["error title=never-rule broken%3A B3-PC-01"] * 2
    assert errors[0].split("::")[2].startswith("B3-PC-01 (A): never-rule `no_sony` broken in 4 of 4 runs")
    assert len(errors) == 3, errors
    assert errors[2].startswith("::error title=B3-PC-01 failed in 8 runs (A run 0%2C A run 1%2C A run 2%2C A run 3%2C B run 0")


def _matches_the_docs(comment: Path, example: str) -> None:
    """docs/examples show the demo's comments as they are (rewrite with GATE_UPDATE_GOLDEN=1)."""
    import os

    target = ROOT / "docs" / "examples" / example
    if os.environ.get("GATE_UPDATE_GOLDEN"):
        target.write_bytes(comment.read_bytes())
    assert comment.read_text(encoding="utf-8") == target.read_text(encoding="utf-8"), f"docs/examples/{example} is stale"


@pytest.mark.e2e  # the one demo check through the real command adapter: an interpreter per call
def test_the_real_command_adapter_gives_the_verdicts_of_the_demo_in_process(tmp_path: Path, whole: Checked) -> None:
    code, out = check(tmp_path, "--shard", "1/4")
    assert code == 0, out
    shard = verdicts(tmp_path / "results.json")
    cases = {case for case, *_ in shard}
    assert len(cases) >= 10
    assert shard == [v for v in verdicts(whole.out_dir / "results.json") if v[0] in cases]
    answers = [json.loads(line) for line in (tmp_path / "trajectories.jsonl").read_text(encoding="utf-8").splitlines()]
    in_process = [json.loads(line) for line in (whole.out_dir / "trajectories.jsonl").read_text(encoding="utf-8")
                  .splitlines()]
    assert [_without_latency(a) for a in answers] == [_without_latency(a) for a in in_process if a["case_id"] in cases]


def _without_latency(record: dict[str, object]) -> dict[str, object]:
    metadata = record["metadata"]
    assert isinstance(metadata, dict)
    return {**record, "metadata": {k: v for k, v in metadata.items() if k != "latency_ms"}}


def _without_more_rounds(tmp_path: Path) -> Path:
    """gate.yaml as it is but for ``decision.budget: 1`` (its paths made absolute): a shard makes no
    more rounds, so the single run it is compared with makes none either."""
    config = yaml.safe_load((ROOT / "gate.yaml").read_text(encoding="utf-8"))
    config["cases"]["path"] = str(ROOT / "cases")
    for key in ("baseline", "reviews"):
        config[key] = str(ROOT / config[key])
    config["agent"]["command"] = [config["agent"]["command"][0], str(ROOT / config["agent"]["command"][1])]
    config["decision"]["budget"] = 1
    path = tmp_path / "gate.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def test_four_shards_merge_to_the_single_run(tmp_path: Path, whole: Checked) -> None:
    assert whole.code == 0
    config = _without_more_rounds(tmp_path)
    single = check(tmp_path / "single", "--config", str(config))
    assert single[0] == 0, single[1]
    for k in range(1, 5):
        assert check(tmp_path / f"shard-{k}", "--shard", f"{k}/4", "--config", str(config))[0] == 0
    files = [str(tmp_path / f"shard-{k}" / "results.json") for k in range(1, 5)]
    result = CliRunner().invoke(main, ["merge", *files, "--out-dir", str(tmp_path / "merged"), "--config", str(config)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.stdout
    assert verdicts(tmp_path / "merged" / "results.json") == verdicts(tmp_path / "single" / "results.json")
    assert (tmp_path / "merged" / "comment.md").read_bytes() == (tmp_path / "single" / "comment.md").read_bytes()
    # the single run with the default budget made more rounds over the same first round: a shard never does
    more = {tuple(key) for key in json.loads((whole.out_dir / "results.json").read_text(encoding="utf-8"))["decision"]["power"]["runs"]}
    assert more and [v for v in verdicts(whole.out_dir / "results.json") if v[:3] not in more] == \
        verdicts(tmp_path / "single" / "results.json")
