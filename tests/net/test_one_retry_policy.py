"""Every HTTP client of the gate retries by one policy: the agent's adapters, the judge and the GitHub
client all decide through gate.net.retry.RetryPolicy, and no package outside gate/net keeps a loop
that sleeps between tries."""

from __future__ import annotations

import ast
from pathlib import Path

import httpx
import pytest

from gate.commands import comment as commentcmd
from gate.github import api
from gate.net.errors import NetError
from gate.net.retry import RetryPolicy
from gate.runner import RunnerSettings, run_jobs
from tests.runner.conftest import Sleeps, agent, jobs_of
from tests.runner.loopback import Reply, Seen, mocked

PACKAGE = Path(__file__).resolve().parents[2] / "gate"
NET = PACKAGE / "net"


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _sleeps_in_loops(path: Path) -> list[str]:
    """``file:line`` of every call of a ``*sleep*`` inside a for or while loop of ``path``."""
    found = []
    for loop in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
            found += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}" for node in ast.walk(loop)
                      if isinstance(node, ast.Call) and "sleep" in _callee(node).lower()]
    return found


def test_no_package_outside_gate_net_sleeps_in_a_loop_of_its_own() -> None:
    outside = [path for path in sorted(PACKAGE.rglob("*.py")) if NET not in path.parents]
    assert [where for path in outside for where in _sleeps_in_loops(path)] == []


def test_the_github_client_neither_sleeps_nor_defines_a_policy_of_its_own() -> None:
    for path in sorted((PACKAGE / "github").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        sleeps = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call) and "sleep" in _callee(node)]
        policies = [node.name for node in ast.walk(tree)
                    if isinstance(node, ast.ClassDef) and ("Retry" in node.name or "Policy" in node.name)]
        assert (sleeps, policies) == ([], []), path.name


def test_the_same_policy_type_decides_for_the_agent_and_for_github(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    decided: list[tuple[type[RetryPolicy], int | None]] = []
    plan = RetryPolicy.plan

    def recorded(self: RetryPolicy, attempt: int, error: NetError, *, reached: bool = True) -> float | object:
        decided.append((type(self), error.status))
        return plan(self, attempt, error, reached=reached)

    monkeypatch.setattr(RetryPolicy, "plan", recorded)

    def agent_reply(seen: Seen, index: int) -> Reply:
        return Reply(503, {"error": "busy"}) if index == 0 else Reply(body={"final_answer": "ok"})

    with mocked(agent_reply) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, retries=2), root=tmp_path,
                           settings=RunnerSettings(progress=False, sleep=Sleeps(), transport=server.transport))
    assert outcome.trajectories[0].error is None

    answers = iter([httpx.Response(502), httpx.Response(200, json=[])])
    waited: list[float] = []
    with httpx.Client(transport=httpx.MockTransport(lambda request: next(answers))) as client:
        api.request(client, "GET", "https://api.github.com/repos/o/r", policy=api.github_retries(sleep=waited.append))

    assert decided == [(RetryPolicy, 503), (RetryPolicy, 502)] and waited == [1.0]
    assert type(commentcmd.DEFAULT_POLICY) is RetryPolicy
