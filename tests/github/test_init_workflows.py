"""`gate init`'s workflow runs as written: for each adapter its steps run in order, on the scaffold's
first pull request (a git repository, a pull_request event, the fake GitHub for the comment), and
the starter agent passes. What the test does in place of a step is said where it does it."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from packaging.requirements import Requirement

from gate.cli.app import main
from gate.commands.init_workflow import HTTP_PORT, REQUIREMENTS

from .composite import Context, base_env, steps_of
from .fake_github import REPO, TOKEN, FakeGitHub
from .test_workflows import run, tool

ADAPTERS = ("command", "python", "http", "openai")
WORKFLOW = Path(".github/workflows/agent-gate.yml")
INSTALL = "Install agent-gate"
API_KEY = "sk-test-0123456789"


def _git(project: Path, *args: str) -> str:
    identity = ["-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false"]
    done = subprocess.run(["git", *identity, *args], cwd=project, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


def _scaffold(project: Path, adapter: str) -> None:
    result = CliRunner().invoke(main, ["init", "--adapter", adapter, "--dir", str(project)], catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.fixture
def pull_request(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A repository whose base commit has a README only; the test commits the scaffold on top of it.
    Yields the project and the runner's temp directory."""
    project, runner_temp = tmp_path / "project", tmp_path / "runner"
    project.mkdir()
    runner_temp.mkdir()
    _git(project, "init", "-q", "-b", "main")
    (project / "README.md").write_text("# my agent\n", encoding="utf-8")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "base")
    yield project, runner_temp


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _move_the_service(project: Path, port: int) -> None:
    # the runner is a fresh machine where 8765 is free; here tests run side by side, so the service
    # moves to a free port everywhere the scaffold names it
    for name in ("gate.yaml", "agent_server.py", str(WORKFLOW)):
        path = project / name
        text = path.read_text(encoding="utf-8")
        assert str(HTTP_PORT) in text, name
        path.write_text(text.replace(str(HTTP_PORT), str(port)), encoding="utf-8")


def _point_at(project: Path, url: str) -> None:
    config = project / "gate.yaml"
    config.write_text(re.sub(r"(?m)^  url: \S+", f"  url: {url}", config.read_text(encoding="utf-8")), encoding="utf-8")


def _installs_this_gate(step: dict[str, Any], project: Path) -> None:
    # Instead of pip: agent-gate is already installed in this interpreter. What pip would read is
    # checked — one well-formed requirement, agent-gate itself — and the step installs nothing else.
    assert step["run"] == f"python -m pip install --disable-pip-version-check -r {REQUIREMENTS}"
    lines = [line for line in (project / REQUIREMENTS).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert [Requirement(line).name for line in lines] == ["agent-gate"]


def _acts(project: Path, uploaded: list[str]) -> Any:
    def act(step: dict[str, Any]) -> None:
        action = str(step["uses"]).split("@")[0]
        if action == "actions/checkout":  # the pull request's commit is checked out already
            assert _git(project, "status", "--porcelain") == ""
        elif action == "actions/setup-python":  # this interpreter is first on PATH; the cache needs its key file
            assert step["with"]["cache"] == "pip"
            assert (project / step["with"]["cache-dependency-path"]).is_file()
        elif action == "actions/upload-artifact":  # the paths it would find (a missing one is skipped)
            assert step["if"] == "always()"
            uploaded.extend(path for path in str(step["with"]["path"]).split() if (project / path).exists())
        else:
            raise AssertionError(f"unexpected action {action}")
    return act


@contextlib.contextmanager
def _first_pull_request(project: Path, runner_temp: Path, github: FakeGitHub) -> Iterator[Any]:
    from .workflow_job import job_runner

    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "gate the agent")
    base, head = _git(project, "rev-parse", "HEAD~1"), _git(project, "rev-parse", "HEAD")
    event = runner_temp / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7, "base": {"sha": base}, "head": {"sha": head}}}),
                     encoding="utf-8")
    summary = runner_temp / "summary.md"
    env = {**base_env(Path(sys.executable).parent), "CI": "true", "GITHUB_EVENT_NAME": "pull_request",
           "GITHUB_EVENT_PATH": str(event), "GITHUB_REPOSITORY": REPO, "GITHUB_API_URL": github.api_url,
           "GITHUB_SHA": head, "GITHUB_WORKSPACE": str(project), "GITHUB_STEP_SUMMARY": str(summary),
           "RUNNER_TEMP": str(runner_temp)}
    workflow = yaml.safe_load((project / WORKFLOW).read_text(encoding="utf-8"))
    context = Context({}, {"workflow": workflow["name"], "token": TOKEN}, {"OPENAI_API_KEY": API_KEY})
    uploaded: list[str] = []
    with job_runner(workflow, "gate", context=context, env=env, workspace=project, runner_temp=runner_temp,
                    act=_acts(project, uploaded), instead={INSTALL: lambda step: _installs_this_gate(step, project)},
                    ) as job:
        yield job, uploaded


def _assert_it_passed(job: Any, uploaded: list[str], project: Path, runner_temp: Path, github: FakeGitHub) -> None:
    assert not job.failed, "\n".join(f"{s.name}: {s.stdout}{s.stderr}" for s in job.failed)
    assert not [s.name for s in job.steps if s.skipped]
    assert uploaded[0] == "gate-results/"
    assert job.step("Run the gate").outputs == {"exit-code": "0"}
    assert job.step("Annotate the failing cases").outputs["passed"] == "true"
    assert {p.name for p in (project / "gate-results").iterdir()} >= {"results.json", "junit.xml", "comment.md"}
    assert json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8"))["passed"] is True
    assert (runner_temp / "summary.md").read_text(encoding="utf-8").strip()
    (posted,) = github.comments
    assert posted["issue"] == 7
    assert posted["body"].split() == (project / "gate-results" / "comment.md").read_text(encoding="utf-8").split()


@pytest.mark.e2e  # every step a real subprocess, as on the runner
@pytest.mark.parametrize("adapter", ["command", "python"])
def test_the_workflow_runs_as_written(pull_request: tuple[Path, Path], github: FakeGitHub, adapter: str) -> None:
    project, runner_temp = pull_request
    _scaffold(project, adapter)
    with _first_pull_request(project, runner_temp, github) as (job, uploaded):
        _assert_it_passed(job, uploaded, project, runner_temp, github)


@pytest.mark.e2e
def test_the_http_workflow_starts_the_service_and_waits_for_it(pull_request: tuple[Path, Path],
                                                                github: FakeGitHub) -> None:
    project, runner_temp = pull_request
    _scaffold(project, "http")
    _move_the_service(project, _free_port())
    with _first_pull_request(project, runner_temp, github) as (job, uploaded):
        _assert_it_passed(job, uploaded, project, runner_temp, github)
        assert job.step("Start the agent service").returncode == 0
        assert uploaded == ["gate-results/", "agent_server.log"]


@pytest.mark.e2e
def test_an_http_service_that_does_not_start_fails_its_step_at_once(pull_request: tuple[Path, Path],
                                                                     github: FakeGitHub) -> None:
    project, runner_temp = pull_request
    _scaffold(project, "http")
    _move_the_service(project, _free_port())
    (project / "agent_server.py").write_text("raise SystemExit('no model key')\n", encoding="utf-8")
    started = time.monotonic()
    with _first_pull_request(project, runner_temp, github) as (job, uploaded):
        start = job.step("Start the agent service")
        assert start.returncode == 1
        assert time.monotonic() - started < 20  # it exited: the wait stops without its 30 s
        assert start.stdout.splitlines()[-1] == "no model key"  # the log, shown
        assert "::error title=agent-gate::the agent service is not listening on 127.0.0.1:" in start.stdout
        assert [s.name for s in job.steps if not s.skipped][-1].startswith("actions/upload-artifact")
        assert uploaded == ["agent_server.log"]  # why it did not start, kept
    assert github.comments == []


@pytest.mark.e2e
def test_the_openai_workflow_gives_the_key_and_the_team_s_prompt(pull_request: tuple[Path, Path],
                                                                  github: FakeGitHub) -> None:
    from runner.loopback import Reply, Seen, serve

    # No real endpoint offline: a stub OpenAI-compatible server stands in for api.openai.com.
    project, runner_temp = pull_request
    _scaffold(project, "openai")
    prompt = (project / "prompts" / "system.md").read_text(encoding="utf-8").strip()

    def model(seen: Seen, index: int) -> Reply:
        assert seen.headers["authorization"] == f"Bearer {API_KEY}"
        assert seen.body["messages"][0] == {"role": "system", "content": prompt}  # A and B alike: no skills here
        answer = "1. Use Forgot password.\n2. Check your spam folder.\n3. Contact support."
        return Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]})

    with serve(model) as server:
        _point_at(project, server.url + "/v1")
        with _first_pull_request(project, runner_temp, github) as (job, uploaded):
            _assert_it_passed(job, uploaded, project, runner_temp, github)
    assert len(server.seen) == 2  # groups A and B


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every adapter's scaffold, by adapter."""
    projects = tmp_path_factory.mktemp("projects")
    for adapter in ADAPTERS:
        _scaffold(projects / adapter, adapter)
    return {adapter: projects / adapter for adapter in ADAPTERS}


def test_the_workflows_are_valid_and_audited_clean(generated: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / ".github" / "workflows"  # side by side in one repository
    folder.mkdir(parents=True)
    for adapter, project in generated.items():
        (folder / f"agent-gate-{adapter}.yml").write_bytes((project / WORKFLOW).read_bytes())
    files = sorted(map(str, folder.glob("*.yml")))
    done = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *files])
    assert done.returncode == 0, done.stdout + done.stderr
    # pedantic, not auditor: the auditor would have the openai key in a deployment environment,
    # which puts a deployment on every pull request (docs/github-actions.md says how to opt in)
    done = run([tool("zizmor"), "--offline", "--persona", "pedantic", "."], cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_pinned_least_privilege_one_run_per_pull_request_and_a_pip_cache(generated: dict[str, Path],
                                                                         adapter: str) -> None:
    text = (generated[adapter] / WORKFLOW).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for ref, rest in re.findall(r"uses:\s*(\S+)(.*)", text):
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), ref
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", rest), ref
    assert data["permissions"] == {}
    assert data["jobs"]["gate"]["permissions"] == {"contents": "read", "pull-requests": "write"}
    assert data["concurrency"] == {"group": "${{ github.workflow }}-${{ github.event.pull_request.number }}",
                                   "cancel-in-progress": True}
    (setup,) = [s for s in steps_of(data) if str(s.get("uses", "")).startswith("actions/setup-python@")]
    assert setup["with"]["cache"] == "pip"
    assert (generated[adapter] / setup["with"]["cache-dependency-path"]).is_file()
    for step in steps_of(data):
        assert "${{" not in str(step.get("run", ""))  # values reach scripts through env:, never inline
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False
    keyed = [s["name"] for s in steps_of(data) if "secrets." in str(s.get("env", {}))]
    assert keyed == (["Run the gate"] if adapter == "openai" else [])  # the key reaches the gate's step only
