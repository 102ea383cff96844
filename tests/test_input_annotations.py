"""Under GitHub Actions an input error (exit 2) of any command is also an ``::error`` annotation on
its file and line, escaped by the workflow-command rules, with nothing secret or unprintable in it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
import pytest
from casefiles import case_yaml
from click.testing import CliRunner, Result

from gate.cli.app import main
from gate.cli.group import GateGroup
from gate.errors import GateError, GateErrors
from gate.formats.workflow_commands import escape_data

CASE = case_yaml(["{id: count, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"], [("1. a", ["count"])])


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    return tmp_path


def raising(error: GateError) -> click.Group:
    """A gate command group whose one command fails with ``error``."""
    @click.group(cls=GateGroup)
    def group() -> None:
        pass

    @group.command()
    def probe() -> None:
        raise error

    return group


def probe(error: GateError) -> Result:
    return CliRunner().invoke(raising(error), ["probe"])


@pytest.mark.parametrize(("error", "stderr", "stdout"), [
    (GateError("constraints[0].params.exact: must be ≥ 1", where="cases/QC-01.yaml:17"),
     "gate: error: cases/QC-01.yaml:17: constraints[0].params.exact: must be ≥ 1\n",
     "::error file=cases/QC-01.yaml,line=17,title=agent-gate::constraints[0].params.exact: must be ≥ 1\n"),
    (GateError("baseline file not found (named by --baseline)", where="baselines/mian.json"),
     "gate: error: baselines/mian.json: baseline file not found (named by --baseline)\n",
     "::error file=baselines/mian.json,title=agent-gate::baseline file not found (named by --baseline)\n"),
    (GateError("--runs records fresh runs; it cannot be combined with --results"),
     "gate: error: --runs records fresh runs; it cannot be combined with --results\n",
     "::error title=agent-gate::--runs records fresh runs; it cannot be combined with --results\n"),
], ids=["file-and-line", "file-only", "no-place"])
def test_an_input_error_is_an_annotation_on_its_file_and_line(
        workspace: Path, error: GateError, stderr: str, stdout: str) -> None:
    result = probe(error)
    assert (result.exit_code, result.stderr, result.stdout) == (2, stderr, stdout)


def test_outside_actions_there_is_no_annotation(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for value in (None, "false", "1"):
        if value is None:
            monkeypatch.delenv("GITHUB_ACTIONS")
        else:
            monkeypatch.setenv("GITHUB_ACTIONS", value)
        result = probe(GateError("bad", where="gate.yaml:3"))
        assert (result.exit_code, result.stdout, result.stderr) == (2, "", "gate: error: gate.yaml:3: bad\n")


def test_message_and_properties_are_escaped_by_the_workflow_command_rules(workspace: Path) -> None:
    result = probe(GateError("100% sure\r\nnext: a,b", where="cases/a,b:c.yaml:4"))
    assert result.stdout == "::error file=cases/a%2Cb%3Ac.yaml,line=4,title=agent-gate::100%25 sure%0D%0Anext: a,b\n"


def test_a_path_is_shown_relative_to_the_workspace_and_as_given_outside_it(workspace: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    inside = probe(GateError("bad", where=f"{workspace / 'cases' / 'x.yaml'}:2"))
    assert inside.stdout == "::error file=cases/x.yaml,line=2,title=agent-gate::bad\n"
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "gate.yaml"
    outside = probe(GateError("bad", where=str(elsewhere)))
    assert outside.stdout == f"::error file={elsewhere},title=agent-gate::bad\n"


def test_no_secret_escape_sequence_or_workflow_command_gets_through(
        workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_API_KEY", "sk-live-0123456789")
    monkeypatch.setenv("PAGER", "less-is-more")  # not a secret's name: left as it is
    message = ("agent.url: invalid URL 'https://bot:hunter22@agent.internal/run' (key sk-live-0123456789, "
               "less-is-more) \x1b[31mred\x1b[0m \x1b]8;;https://evil\x07link\x1b]8;;\x07\n::add-mask::x")
    result = probe(GateError(message))
    assert result.stderr == ("gate: error: agent.url: invalid URL 'https://***@agent.internal/run' (key ***, "
                             "less-is-more) red link\n  ::add-mask::x\n")
    assert result.stdout == ("::error title=agent-gate::agent.url: invalid URL 'https://***@agent.internal/run' "
                             "(key ***, less-is-more) red link%0A::add-mask::x\n")


def test_each_problem_of_several_is_an_annotation_and_ten_at_most(workspace: Path) -> None:
    several = GateErrors([GateError("first", where="a.yaml:1"), GateError("second", where="b.yaml")])
    result = probe(several)
    assert result.stderr == "gate: error: a.yaml:1: first\ngate: error: b.yaml: second\n"
    assert result.stdout == ("::error file=a.yaml,line=1,title=agent-gate::first\n"
                             "::error file=b.yaml,title=agent-gate::second\n")
    summarised = GateErrors([GateError(f"problem {n}", where=f"c.yaml:{n}") for n in range(1, 13)],
                            summary="c.yaml:1: problem 1 (+11 more error(s))")
    result = probe(summarised)
    assert result.stderr == "gate: error: c.yaml:1: problem 1 (+11 more error(s))\n"
    lines = result.stdout.splitlines()
    assert lines[:2] == ["::error file=c.yaml,line=1,title=agent-gate::problem 1",
                         "::error file=c.yaml,line=2,title=agent-gate::problem 2"]
    assert len(lines) == 11 and lines[-1] == "::notice title=agent-gate::… and 2 more input errors; see the log"


@pytest.mark.parametrize("args", [["check", "--no-such-option"], ["--no-such-option"], ["chekc"]])
def test_a_bad_option_or_command_is_an_annotation_too(workspace: Path, args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    said = result.stderr.splitlines()[-1].removeprefix("Error: ")  # click's wording, which varies by version
    assert result.exit_code == 2 and args[-1] in said
    assert result.stdout == f"::error title=agent-gate::{escape_data(said)}\n"


def _project(root: Path) -> None:
    (root / "cases").mkdir()
    (root / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")


COMMANDS: list[tuple[str, Callable[[Path], None], list[str], str]] = [
    ("check-case-file-line", lambda p: (p / "cases" / "B3-QC-01.yaml").write_text(CASE.replace("difficulty: easy", "difficulty: trivial"),
                                                                                 encoding="utf-8"),
     ["check"], "::error file=cases/B3-QC-01.yaml,line=5,title=agent-gate::difficulty: Input should be 'easy', 'medium' or 'hard'\n"),
    ("check-named-baseline-missing", lambda p: None, ["check", "--baseline", "baselines/mian.json"],
     "::error file=baselines/mian.json,title=agent-gate::baseline file not found (named by --baseline)\n"),
    ("check-agent-setting", lambda p: (p / "gate.yaml").write_text("agent:\n  command: [no-such-agent-x]\n", encoding="utf-8"),
     ["check"], "::error file=gate.yaml,line=2,title=agent-gate::agent.command: program 'no-such-agent-x' not found on PATH\n"),
    ("validate-two-files", lambda p: [(p / "cases" / f"B3-QC-0{n}.yaml").write_text(
        CASE.replace("B3-QC-01", f"B3-QC-0{n}").replace("difficulty: easy", "difficulty: trivial"), encoding="utf-8")
        for n in (1, 2)], ["validate"],
     "::error file=cases/B3-QC-01.yaml,line=5,title=agent-gate::difficulty: Input should be 'easy', 'medium' or 'hard'\n"
     "::error file=cases/B3-QC-02.yaml,line=5,title=agent-gate::difficulty: Input should be 'easy', 'medium' or 'hard'\n"),
    ("merge-results-missing", lambda p: None, ["merge", "shard-1/results.json"],
     "::error file=shard-1/results.json,title=agent-gate::results file not found\n"),
    ("baseline-update-options", lambda p: None, ["baseline", "update", "--runs", "2", "--results", "r.json"],
     "::error title=agent-gate::--runs records fresh runs; it cannot be combined with --results\n"),
    ("check-bad-shard", lambda p: None, ["check", "--shard", "5/4"],
     "::error title=agent-gate::--shard 5/4: K must be between 1 and N (N ≥ 1)\n"),
]


@pytest.mark.parametrize(("edit", "args", "stdout"), [row[1:] for row in COMMANDS], ids=[row[0] for row in COMMANDS])
def test_every_command_annotates_its_input_errors(
        workspace: Path, edit: Callable[[Path], None], args: list[str], stdout: str) -> None:
    _project(workspace)
    edit(workspace)
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert result.stdout == stdout
    assert result.stderr.startswith("gate: error: ")
