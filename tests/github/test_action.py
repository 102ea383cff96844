"""action.yml run step by step with bash, `gate` and pip stubbed, as a runner would."""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import sys
from pathlib import Path

import pytest
import yaml

from .composite import ActionRun, StepRun, base_env, run_action, steps_of

REPO = Path(__file__).resolve().parents[2]
ACTION = REPO / "action.yml"

GATE_STUB = r"""#!/usr/bin/env bash
# Stand-in for the gate CLI: logs its arguments; `check` writes small reports and exits $STUB_EXIT.
printf '%s\n' "gate $*" >> "$STUB_LOG"
if [ "$1" = check ]; then
  out=gate-results
  while [ $# -gt 0 ]; do [ "$1" = --out-dir ] && out="$2"; shift; done
  mkdir -p "$out"
  cp "$STUB_RESULTS" "$out/results.json"
  printf '<testsuites/>\n' > "$out/junit.xml"
  printf '<!-- agent-gate:pr-comment -->\n## agent-gate\n' > "$out/comment.md"
  echo "summary" >> "$GITHUB_STEP_SUMMARY"
  exit "${STUB_EXIT:-1}"
fi
if [ "$1" = comment ]; then
  author="(gate's default)"
  while [ $# -gt 0 ]; do [ "$1" = --author ] && author="$2"; shift; done
  printf 'token=%s author=%s\n' "${GITHUB_TOKEN:+set}" "$author" >> "$STUB_LOG"
  exit 0
fi
exit 64
"""

PYTHON_STUB = """#!/usr/bin/env bash
# pip is stubbed (no network in tests); everything else runs on the real interpreter.
if [ "$1" = -m ] && [ "$2" = pip ]; then printf '%s\\n' "pip ${*:3}" >> "$STUB_LOG"; exit 0; fi
exec PYTHON "$@"
"""

RESULTS = {
    "schema": "gate.results/v1", "cases_digest": "sha256:x", "passed": False, "findings": [],
    "metrics": {"overall": {"A": {"case_pass_rate": 0.75}, "B": {"case_pass_rate": 0.5}}},
    "results": [{"case_id": "B3-QC-05", "group": "B", "run": 0, "status": "fail", "error": None,
                 "constraints": [{"id": "count", "check": "items:count", "status": "fail",
                                  "detail": "found 4 items, expected 5"}]}],
}


def _script(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def run_it(tmp_path: Path, *, inputs: dict[str, str] | None = None, event: str = "pull_request",
           exit_code: int = 1) -> tuple[ActionRun, list[str], Path]:
    bin_dir, workspace, temp = tmp_path / "bin", tmp_path / "work", tmp_path / "temp"
    for d in (bin_dir, workspace, temp):
        d.mkdir()
    _script(bin_dir / "gate", GATE_STUB)
    _script(bin_dir / "python", PYTHON_STUB.replace("PYTHON", shlex.quote(sys.executable)))
    (temp / "results.json").write_text(json.dumps({**RESULTS, "passed": exit_code == 0}), encoding="utf-8")
    event_path = temp / "event.json"
    event_path.write_text(json.dumps({"pull_request": {"number": 3}}), encoding="utf-8")
    log, summary = temp / "stub.log", temp / "summary.md"
    env = {**base_env(bin_dir), "STUB_LOG": str(log), "STUB_RESULTS": str(temp / "results.json"),
           "STUB_EXIT": str(exit_code), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_EVENT_PATH": str(event_path),
           "GITHUB_EVENT_NAME": event, "GITHUB_WORKSPACE": str(workspace), "GITHUB_REPOSITORY": "octo/agent"}
    github = {"action_path": str(REPO), "event_name": event, "token": "ghs_fromContextToken"}
    result = run_action(ACTION, inputs=inputs or {}, github=github, env=env, workspace=workspace, runner_temp=temp)
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return result, lines, workspace


def step(result: ActionRun, name: str) -> StepRun:
    return next(s for s in result.steps if s.name == name)


def test_a_failing_gate_writes_outputs_comments_and_then_fails(tmp_path: Path) -> None:
    result, log, workspace = run_it(tmp_path)
    names = [(s.name, s.skipped) for s in result.steps]
    assert names == [("Set up Python", False), ("Install agent-gate", False), ("Run the gate", False),
                     ("Read the results", False), ("Post the PR comment", False), ("Fail when the gate failed", False)]
    assert re.fullmatch(r"actions/setup-python@[0-9a-f]{40}", result.steps[0].uses or "")
    assert log == [
        f"pip install --disable-pip-version-check --quiet {REPO}",
        "gate check --config gate.yaml --out-dir gate-results",
        "gate comment --body-file gate-results/comment.md",
        "token=set author=(gate's default)",
    ]
    out = workspace / "gate-results"
    assert result.outputs == {
        "passed": "false", "exit-code": "1", "verdict": "", "summary-path": str(out / "comment.md"),
        "junit-path": str(out / "junit.xml"), "results-path": str(out / "results.json"),
        "a-pass-rate": "0.75", "b-pass-rate": "0.5", "failing-cases": "1",
        "new-failures": "0", "known-failures": "0", "fixed": "0",
    }
    read = step(result, "Read the results")
    assert read.stdout.splitlines() == [
        "::error title=B3-QC-05 group B run 0 failed::count [items:count]: found 4 items, expected 5"]
    last = result.steps[-1]
    assert result.failed is last and last.returncode == 1
    assert last.stdout.startswith("::error title=agent-gate::gate check exited 1 ")


def test_a_passing_gate_passes_and_skips_the_comment_when_asked(tmp_path: Path) -> None:
    result, log, _ = run_it(tmp_path, inputs={"comment": "false", "fail-on": "warning", "pip-spec": "acme-agent>=2 rich",
                                              "python-version": ""}, exit_code=0)
    assert result.failed is None and result.outputs["passed"] == "true" and result.outputs["exit-code"] == "0"
    assert [s.name for s in result.steps if s.skipped] == ["Set up Python", "Post the PR comment"]
    assert log == [f"pip install --disable-pip-version-check --quiet {REPO} acme-agent>=2 rich",
                   "gate check --config gate.yaml --out-dir gate-results --fail-on warning"]


def test_no_comment_outside_pull_requests_and_exit_2_is_passed_on(tmp_path: Path) -> None:
    result, log, _ = run_it(tmp_path, event="push", exit_code=2)
    assert step(result, "Post the PR comment").skipped
    assert not any(line.startswith("gate comment") for line in log)
    assert result.failed is result.steps[-1] and result.failed.returncode == 2


def test_comment_author_reaches_gate_comment(tmp_path: Path) -> None:
    result, log, _ = run_it(tmp_path, inputs={"comment-author": "gate-app[bot]", "github-token": "ghs_appToken"})
    assert not step(result, "Post the PR comment").skipped
    assert log[2:] == ["gate comment --body-file gate-results/comment.md --author gate-app[bot]",
                       "token=set author=gate-app[bot]"]


def test_inputs_are_data_not_shell_code(tmp_path: Path) -> None:
    hostile = '$(touch pwned-a)"; touch pwned-b; echo "`touch pwned-c`'
    result, log, workspace = run_it(tmp_path, inputs={"config": hostile, "out-dir": "reports dir",
                                                     "comment-author": hostile})
    assert not list(workspace.glob("pwned*")) and not list(tmp_path.glob("**/pwned*"))
    assert log[1] == f"gate check --config {hostile} --out-dir reports dir"
    assert log[-1] == f"token=set author={hostile}"
    assert (workspace / "reports dir" / "comment.md").exists()
    assert result.outputs["results-path"] == str(workspace / "reports dir" / "results.json")


@pytest.mark.parametrize("path", [ACTION, *sorted((REPO / ".github" / "workflows").glob("*.yml"))],
                         ids=lambda p: os.path.relpath(p, REPO))
def test_no_expression_inside_a_run_script(path: Path) -> None:
    scripts = [s["run"] for s in steps_of(yaml.safe_load(path.read_text(encoding="utf-8"))) if "run" in s]
    assert scripts
    for script in scripts:
        assert "${{" not in script, script


def test_every_input_is_documented_with_a_default() -> None:
    spec = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert set(spec["inputs"]) == {"config", "python-version", "working-directory", "comment", "fail-on",
                                   "accept-lowered-bar", "pip-spec", "github-token", "comment-author", "out-dir"}
    for name, item in spec["inputs"].items():
        assert item["description"].strip() and "default" in item, name
    for name, item in spec["outputs"].items():
        assert item["description"].strip() and item["value"].startswith("${{ steps."), name


def test_the_docs_input_table_lists_every_input_with_its_default() -> None:
    spec = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    text = (REPO / "docs" / "github-actions.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| (.+?) \|", text, flags=re.M))
    for name, item in spec["inputs"].items():
        default = str(item["default"])
        assert rows.get(name) == (f"`{default}`" if default else "*(empty)*"), name
