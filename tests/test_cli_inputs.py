"""The CLI on unusable input: exit 2 and one short message naming file:line and the field path.

Plus the happy paths of `gate eval` and a `gate validate` whose fail example does not fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from casefiles import qc_case
from click.testing import CliRunner, Result

from gate.cli.app import main

CASE = qc_case(flow_params=True)

GOOD_RECORD = {"case_id": "QC-01", "group": "A", "run": 0, "final_answer": "1. Bose\n2. Apple\n3. 华为"}


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # messages then name short relative paths; no stray files in the repo


def _cases(files: dict[str, str]) -> None:
    for name, text in files.items():
        path = Path("cases") / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _records(*lines: str | dict[str, object]) -> None:
    text = "\n".join(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines)
    Path("runs.jsonl").write_text(text + "\n", encoding="utf-8")


def _gate(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _validate_error(case_text: str, name: str = "QC-01.yaml") -> Result:
    _cases({name: case_text})
    result = _gate("validate", "--cases", "cases")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    return result


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("title: 精确数量", "title: [精确数量",
         "cases/QC-01.yaml:5: invalid YAML: did not find expected ',' or ']'"
         " (while parsing a flow sequence that starts at line 4)"),
        ("check: items:count", "check: items:cont",
         "cases/QC-01.yaml:16: constraints[0].check: unknown checker 'items:cont' — did you mean 'items:count'?"),
        ("params: {exact: 3}", "params: {exact: three}",
         "cases/QC-01.yaml:17: constraints[0].params.exact: Input should be a valid integer,"
         " unable to parse string as an integer"),
        ("params: {exact: 3}", "params: {exactly: 3}",
         "cases/QC-01.yaml:17: constraints[0].params.exactly: Extra inputs are not permitted — did you mean 'exact'?"),
        ("params: {exact: 3}", "params: {exact: 3, min: 1}",
         "cases/QC-01.yaml:17: constraints[0].params: exact cannot be combined with min or max"),
        ("difficulty: easy\n", "",
         "cases/QC-01.yaml:1: difficulty: Field required"),
        ("difficulty: easy", "difficulty: trivial",
         "cases/QC-01.yaml:5: difficulty: Input should be 'easy', 'medium' or 'hard'"),
        ("    check: items:count\n    params: {exact: 3}",
         "    check: terms:forbidden\n    params: {terms: ['re:(']}",
         "cases/QC-01.yaml:17: constraints[0].params.terms: bad regular expression 're:(':"
         " missing ), unterminated subpattern at position 0"),
        ("    check: items:count\n    params: {exact: 3}",
         "    any_of:\n      - {check: items:count, params: {exact: 3}}\n      - {check: text:length, params: {max: -1}}",
         "cases/QC-01.yaml:18: constraints[0].any_of[1].params: max must be ≥ 0"),
    ],
    ids=["malformed-yaml", "unknown-checker", "wrong-parameter-type", "unknown-parameter",
         "incoherent-parameters", "missing-case-field", "bad-enum-value", "bad-regex-term", "nested-combinator"],
)
def test_bad_case_file(old: str, new: str, message: str) -> None:
    assert old in CASE
    result = _validate_error(CASE.replace(old, new, 1))
    assert result.stderr == f"gate: error: {message}\n"


def test_file_name_must_be_the_id() -> None:
    result = _validate_error(CASE, name="QC-02.yaml")
    assert result.stderr == "gate: error: cases/QC-02.yaml:1: id: 'QC-01' must match the file name 'QC-02'\n"


def test_duplicate_case_id() -> None:
    _cases({"a/QC-01.yaml": CASE, "b/QC-01.yaml": CASE})
    result = _gate("validate", "--cases", "cases")
    assert result.exit_code == 2
    assert result.stderr == (
        "gate: error: cases/b/QC-01.yaml:1: id: duplicate case id 'QC-01' (also in cases/a/QC-01.yaml)\n"
    )


def test_missing_case_directory() -> None:
    result = _gate("validate", "--cases", "nowhere")
    assert (result.exit_code, result.stderr) == (2, "gate: error: nowhere: case directory not found\n")


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ((GOOD_RECORD, "{not json}"),
         "runs.jsonl:2: not valid JSON (Expecting property name enclosed in double quotes at column 2)"),
        ((GOOD_RECORD, {"group": "A", "run": 1}), "runs.jsonl:2: case_id: Field required"),
        (({**GOOD_RECORD, "case_id": "QC-02"},), "runs.jsonl:1: case_id: unknown case 'QC-02' — did you mean 'QC-01'?"),
        ((GOOD_RECORD, GOOD_RECORD),
         "runs.jsonl:2: duplicate record for case QC-01 group A run 0 (first at line 1)"),
        (({**GOOD_RECORD, "group": "C"},), "runs.jsonl:1: group: Input should be 'A' or 'B'"),
        (({**GOOD_RECORD, "tool_calls": [{"args": {}}]},), "runs.jsonl:1: tool_calls[0].name: Field required"),
        (("[1, 2]",), "runs.jsonl:1: a trajectory record must be a JSON object"),
    ],
    ids=["not-json", "missing-case-id", "unknown-case", "duplicate-record", "bad-group", "tool-call-without-name",
         "not-an-object"],
)
def test_bad_trajectory_file(lines: tuple[str | dict[str, object], ...], message: str) -> None:
    _cases({"QC-01.yaml": CASE})
    _records(*lines)
    result = _gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl")
    assert result.exit_code == 2, result.output
    assert result.stderr == f"gate: error: {message}\n"
    assert result.stdout == ""


def test_missing_trajectory_file() -> None:
    _cases({"QC-01.yaml": CASE})
    result = _gate("eval", "--cases", "cases", "--trajectories", "gone.jsonl")
    assert (result.exit_code, result.stderr) == (2, "gate: error: gone.jsonl: trajectory file not found\n")


def test_eval_happy_path_prints_the_table_and_writes_sorted_results() -> None:
    _cases({"QC-01.yaml": CASE, "QC-02.yaml": CASE.replace("QC-01", "QC-02")})
    _records(
        {**GOOD_RECORD, "case_id": "QC-02", "group": "B"},
        {**GOOD_RECORD, "group": "B", "final_answer": "1. Bose"},
        {**GOOD_RECORD, "run": 1},
        GOOD_RECORD,
    )
    result = _gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl", "--json", "out/results.json")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines()]
    assert rows[0][:5] == ["case", "group", "run", "status", "rules"]
    assert ["QC-01", "B", "0", "FAIL", "0/1", "exactly_3:", "1", "items", "found", "(list):", "Bose;", "exactly",
            "3", "required"] in rows
    assert result.stdout.endswith("results written to out/results.json\n")
    document = json.loads(Path("out/results.json").read_text(encoding="utf-8"))
    assert document["schema"] == "gate.results/v1"
    assert document["cases_digest"].startswith("sha256:")
    keys = [(r["case_id"], r["group"], r["run"]) for r in document["results"]]
    assert keys == [("QC-01", "A", 0), ("QC-01", "A", 1), ("QC-01", "B", 0), ("QC-02", "B", 0)]
    assert [r["status"] for r in document["results"]] == ["pass", "pass", "fail", "pass"]
    assert document["results"][2]["constraints"][0]["id"] == "exactly_3"


def test_validate_passes_a_sound_case() -> None:
    _cases({"QC-01.yaml": CASE})
    result = _gate("validate", "--cases", "cases")
    assert (result.exit_code, result.stdout) == (0, "1 cases valid; 2 examples judged as their cases say\n")


def test_validate_names_the_constraint_a_fail_example_does_not_fail() -> None:
    _cases({"QC-01.yaml": CASE.replace('final_answer: "1. Bose\\n2. Apple\\n"', 'final_answer: "1. A\\n2. B\\n3. C\\n"')})
    result = _gate("validate", "--cases", "cases")
    assert result.exit_code == 1
    assert result.stdout == (
        "cases/QC-01.yaml: QC-01: fail[0]: constraint 'exactly_3' is pass, expected fail — "
        "3 items found (list): A, B, C; exactly 3 required\n"
        "cases/QC-01.yaml: QC-01: rule constraint 'exactly_3' has no fail example that fails it\n"
    )
    assert result.stderr == "2 problem(s) in 1 of 1 cases\n"


def test_eval_says_a_pass_on_rules_left_rubrics_unjudged() -> None:
    rubric = CASE.replace("examples:", "  - id: helpful\n    judge: 推荐理由是否具体\nexamples:")
    judge_only = (CASE.replace("QC-01", "QC-02").replace("tags: [golden]", "tags: []")
                  .replace("    check: items:count\n    params: {exact: 3}\n", "    judge: 是否恰好三款\n")
                  .replace("    - fails: [exactly_3]\n      final_answer: \"1. Bose\\\\n2. Apple\\\\n\"\n", ""))
    _cases({"QC-01.yaml": rubric, "QC-02.yaml": judge_only})
    _records(GOOD_RECORD, {**GOOD_RECORD, "case_id": "QC-02"})
    result = _gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl", "--json", "out/results.json")
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines()]
    assert ["QC-01", "A", "0", "PASS", "(rules)", "·", "1", "unjudged", "1/1"] in rows
    assert ["QC-02", "A", "0", "UNJUDGED", "·", "1", "rubrics", "0/0"] in rows
    document = json.loads(Path("out/results.json").read_text(encoding="utf-8"))
    assert [(r["status"], r["unjudged"]) for r in document["results"]] == [("pass", 1), ("skipped", 1)]


def test_eval_never_prints_an_escape_sequence_from_agent_text() -> None:
    _cases({"QC-01.yaml": CASE})
    hostile = "1. \x1b]0;pwned\x07Bose \x1b[2J\x1b[31mred\x1b[0m\n2. Apple"
    _records({**GOOD_RECORD, "final_answer": hostile})
    result = _gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout and "pwned" not in result.stdout
    assert "items found (list): Bose" in result.stdout


def test_a_key_the_chosen_adapter_never_reads_is_an_error_naming_its_owner(tmp_path: Path) -> None:
    (tmp_path / "gate.yaml").write_text("agent:\n  adapter: http\n  url: http://localhost:8000/run\n  model: gpt-4o\n",
                                        encoding="utf-8")
    from gate.config.gate_yaml import load_config
    from gate.errors import GateError

    with pytest.raises(GateError) as info:
        load_config(tmp_path / "gate.yaml")
    message = str(info.value)
    assert message.startswith(f"{tmp_path / 'gate.yaml'}:2: agent:")
    assert "adapter 'http' does not read 'model' ('model' is a setting of adapter openai)" in message
    assert "its own settings: headers, url" in message
