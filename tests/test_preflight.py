"""One front door: every input `gate check` refuses before its first agent call, `gate validate`
refuses too (exit 2), with the same words. One row per kind of bad input; a row that validate let
through would fail here."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.config.agent_config import ADAPTERS
from gate.config.agent_inputs import CHECKS
from gate.runner.adapters import BUILDERS

_MESSAGES = '  messages: [{role: user, content: "推荐 3 款"}]\n'
CASE = case_yaml(["{id: count, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"], [("1. a", ["count"])],
                 groups="A: {skill_enabled: false}\nB: {skill_enabled: true, active_skills: [packing]}",
                 ).replace(_MESSAGES, _MESSAGES + "  tool_intercepts: [{tool: search_tickets, result: '[]'}]\n")
TOOLS = [{"type": "function", "function": {"name": "search_tickets", "description": "Search tickets.",
                                           "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project `gate check` and `gate validate` both accept: one case, an agent that leaves a mark
    when called, a skill file and a tools file for the openai rows."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "packing.md").write_text("Pack light.", encoding="utf-8")
    (tmp_path / "tools.json").write_text(json.dumps(TOOLS), encoding="utf-8")
    (tmp_path / "agent.py").write_text(
        f"import json, pathlib, sys\npathlib.Path({str(tmp_path / 'called')!r}).touch()\nr = json.load(sys.stdin)\n"
        "print(json.dumps({**{k: r[k] for k in ('case_id', 'group', 'run')}, 'final_answer': '1. a\\n2. b\\n3. c'}))\n",
        encoding="utf-8")
    configure(tmp_path, {"agent": {"adapter": "command", "command": ["python", "agent.py"]}})
    return tmp_path


def configure(project: Path, changes: dict[str, Any]) -> None:
    """gate.yaml as YAML (so errors name real lines), with ``changes`` over what it holds."""
    path = project / "gate.yaml"
    config = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    config.update(changes)
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")


def openai(**settings: Any) -> Callable[[Path], None]:
    return lambda project: configure(project, {"agent": {
        "adapter": "openai", "url": "http://127.0.0.1:9/v1", "model": "m", "retries": 0, **settings}})


def write(name: str, text: str) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    return edit


def in_case(old: str, new: str) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        path = project / "cases" / "B3-QC-01.yaml"
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return edit


def both(*edits: Callable[[Path], None]) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        for one in edits:
            one(project)
    return edit


BAD_INPUTS: list[tuple[str, Callable[[Path], None], str]] = [
    ("tag-selects-nothing", lambda p: configure(p, {"cases": {"tags": ["goldne"]}}), "no case selected (tags: goldne"),
    ("unknown-case-id", lambda p: configure(p, {"cases": {"ids": ["B3-QC-1"]}}),
     "gate.yaml:8: cases.ids: unknown case(s) ['B3-QC-1'] — did you mean 'B3-QC-01'?"),
    ("corrupt-baseline", write("baselines/main.json", "[]"), "baselines/main.json: "),
    ("baseline-not-json", write("baselines/main.json", "{"), "corrupt baseline: not valid JSON"),
    ("report-directory-is-a-file", write("gate-results", ""), "gate-results: the report directory is a file"),
    ("report-directory-under-a-file", both(write("out", ""), lambda p: configure(p, {"out_dir": "out/reports"})),
     "out/reports: the report directory cannot be written: Not a directory"),
    ("reviews-not-a-mapping", write("reviews/reviews.yaml", "[]\n"), "reviews.yaml: a reviews file must be a mapping"),
    ("reviews-bad-yaml", write("reviews/reviews.yaml", "reviews: [\n"), "reviews.yaml:2: invalid YAML"),
    ("command-not-on-path", lambda p: configure(p, {"agent": {"command": ["no-such-agent-x"]}}),
     "gate.yaml:3: agent.command: program 'no-such-agent-x' not found on PATH"),
    ("command-file-missing", lambda p: configure(p, {"agent": {"command": ["bin/agent"]}}),
     "gate.yaml:3: agent.command: program 'bin/agent' not found (relative to "),
    ("python-spec", lambda p: configure(p, {"agent": {"adapter": "python", "function": "agent"}}),
     "gate.yaml:3: agent.function must look like 'module:function', got 'agent'"),
    ("python-module-missing", lambda p: configure(p, {"agent": {"adapter": "python", "function": "no_such_agent_xyz:run"}}),
     "gate.yaml:3: agent.function: cannot import 'no_such_agent_xyz': No module named 'no_such_agent_xyz'"),
    ("python-function-missing", lambda p: configure(p, {"agent": {"adapter": "python", "function": "json:answer"}}),
     "gate.yaml:3: agent.function: 'json' has no attribute 'answer'"),
    ("python-not-callable", lambda p: configure(p, {"agent": {"adapter": "python", "function": "json:__name__"}}),
     "gate.yaml:3: agent.function: 'json:__name__' is not callable"),
    ("http-url-without-host", lambda p: configure(p, {"agent": {"adapter": "http", "url": "http:///run"}}),
     "gate.yaml:3: agent.url: 'http:///run' has no host"),
    ("http-url-bad-port", lambda p: configure(p, {"agent": {"adapter": "http", "url": "http://127.0.0.1:99999/run"}}),
     "gate.yaml:3: agent.url: port 99999 of 'http://127.0.0.1:99999/run' is not between 1 and 65535"),
    ("replay-file-missing", lambda p: configure(p, {"agent": {"adapter": "replay", "trajectories": "runs.jsonl"}}),
     "runs.jsonl: agent.trajectories: replay file not found"),
    ("replay-record-broken", both(write("runs.jsonl", '{"case_id": "B3-QC-01", "group": "A", "run": 0}\n{no\n'),
                                  lambda p: configure(p, {"agent": {"adapter": "replay", "trajectories": "runs.jsonl"}})),
     "runs.jsonl:2: not valid JSON"),
    ("openai-without-model", openai(model=None), "gate.yaml:2: agent.model is required by the openai adapter"),
    ("openai-skill-file-missing", both(openai(), lambda p: (p / "skills" / "packing.md").unlink()),
     "B3-QC-01.yaml:13: skill file not found for active skill 'packing' (case B3-QC-01, group B): expected "),
    ("openai-tools-file-missing", openai(tools="tool.json"), "tool.json: tools file not found (agent.tools)"),
    ("openai-system-prompt-file-empty", both(write("prompt.md", "  \n"), openai(system_prompt_file="prompt.md")),
     "agent.system_prompt_file: "),
    ("openai-tools-file-bad-yaml", both(write("tools.yaml", "- [\n"), openai(tools="tools.yaml")), "tools.yaml:2: invalid YAML"),
    ("openai-tool-schema-broken",
     both(write("tools.json", json.dumps([{**TOOLS[0], "function": {**TOOLS[0]["function"], "parameters": {"type": "objekt"}}}])),
          openai(tools="tools.json")),
     "tools.json: tools[0] (search_tickets): parameters is not a valid JSON Schema: 'objekt' is not valid"),
    ("openai-tool-declared-twice", both(write("tools.json", json.dumps(TOOLS * 2)), openai(tools="tools.json")),
     "tools.json: tools[1]: tool 'search_tickets' is declared twice"),
    ("openai-inline-tool-malformed", openai(tools=[{"type": "function", "function": {"description": "no name"}}]),
     "gate.yaml:7: agent.tools: tools[0]: expected {type: function, function: {name, description, parameters}}"),
    ("openai-intercept-undeclared", both(openai(tools="tools.json"), in_case("tool: search_tickets", "tool: search_ticket")),
     "B3-QC-01.yaml:10: input.tool_intercepts[0].tool: 'search_ticket' is not a tool of agent.tools "
     "(declared: search_tickets) — did you mean 'search_tickets'?; declare it there, or intercept a declared tool"),
]


def gate(*args: str) -> tuple[int, list[str]]:
    """The exit code and the error lines a command printed."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, [line for line in result.stderr.splitlines() if line.startswith("gate: error: ")]


def test_the_project_is_accepted_by_both(project: Path) -> None:
    assert gate("validate") == (0, [])
    assert gate("check")[0] == 0 and (project / "called").exists()


@pytest.mark.parametrize(("edit", "message"), [row[1:] for row in BAD_INPUTS], ids=[row[0] for row in BAD_INPUTS])
def test_validate_refuses_what_check_refuses_before_its_first_call(
        project: Path, edit: Callable[[Path], None], message: str) -> None:
    edit(project)
    checked, check_errors = gate("check")
    assert checked == 2 and not (project / "called").exists()
    assert len(check_errors) == 1 and message in check_errors[0], check_errors
    assert gate("validate") == (2, check_errors)


def test_every_adapter_has_its_inputs_checked_and_rows_here() -> None:
    assert set(CHECKS) == set(BUILDERS) == set(ADAPTERS.values())
    rows = " ".join(row[0] for row in BAD_INPUTS)
    assert all(name in rows for name in ADAPTERS), rows


def test_every_problem_of_the_preflight_is_reported_in_one_run(project: Path) -> None:
    for edit in (write("baselines/main.json", "[]"), write("gate-results", ""),
                 lambda p: configure(p, {"agent": {"command": ["no-such-agent-x"]}})):
        edit(project)
    code, errors = gate("validate")
    assert code == 2 and len(errors) == 3
    assert gate("check") == (2, errors)


def test_a_header_variable_unset_here_is_a_warning_of_validate_and_an_error_of_check(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the pre-commit hook runs where the agent's secrets are not: it says what the gate will need
    monkeypatch.delenv("GATE_TEST_TOKEN", raising=False)
    configure(project, {"agent": {"adapter": "http", "url": "http://127.0.0.1:9/run",
                                  "headers": {"Authorization": "Bearer ${GATE_TEST_TOKEN}"}}})
    message = "gate.yaml:5: agent.headers.Authorization: environment variable GATE_TEST_TOKEN is not set"
    assert gate("check") == (2, [f"gate: error: {message}"])
    result = CliRunner().invoke(main, ["validate"], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr == f"gate: warning: {message} (`gate check` refuses to start without it)\n"
    monkeypatch.setenv("GATE_TEST_TOKEN", "t0ken-value")
    assert CliRunner().invoke(main, ["validate"], catch_exceptions=False).stderr == ""


def test_validate_leaves_no_report_directory_behind(project: Path) -> None:
    assert gate("validate")[0] == 0
    assert not (project / "gate-results").exists()


def test_cases_of_another_directory_are_checked_as_case_files_only(project: Path) -> None:
    configure(project, {"cases": {"tags": ["goldne"]}})  # gate.yaml's selection is not theirs
    other = project / "drafts"
    other.mkdir()
    (other / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    assert gate("validate", "--cases", "drafts")[0] == 0
    assert gate("validate", "--cases", "cases")[0] == 2


def test_a_confirm_rerun_reaching_another_variant_meets_no_undeclared_intercept(project: Path) -> None:
    # every variant's intercepts are checked up front, not only those of the planned runs
    variants = ("input:\n  variants:\n    - messages: [{role: user, content: a}]\n"
                "      tool_intercepts: [{tool: search_tickets, result: '[]'}]\n"
                "    - messages: [{role: user, content: b}]\n"
                "      tool_intercepts: [{tool: send_email, result: ok}]\n")
    path = project / "cases" / "B3-QC-01.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("input:\n"), text.index("groups:")
    path.write_text(text[:start] + variants + text[end:], encoding="utf-8")
    openai(tools="tools.json")(project)
    configure(project, {"repeats": 1})
    code, errors = gate("validate")
    assert code == 2 and "input.variants[1].tool_intercepts[0].tool: 'send_email' is not a tool" in errors[0]
    assert f"{project / 'cases' / 'B3-QC-01.yaml'}:13: " in errors[0]
