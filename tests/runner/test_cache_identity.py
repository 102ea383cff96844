"""A cache that cannot lie: opt-in, keyed by the agent build, and never silent about what it served."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.config.agent_config import CommandAgent, HttpAgent
from gate.runner.identity import agent_identity

from .loopback import Reply, serve

CASE = case_yaml(["{id: one, check: items:count, params: {exact: 1}}"], ["1. a"], [("", ["one"])], prompt="推荐 1 款")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    return tmp_path


def _config(project: Path, agent: dict[str, Any]) -> None:
    config = {"agent": {"retries": 0, **agent}, "groups": ["A"], "baseline": "none.json", "out_dir": "out",
              "decision": {"mode": "point"}}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")


def _check(*args: str) -> tuple[int, str, dict[str, Any]]:
    result = CliRunner().invoke(main, ["check", *args], catch_exceptions=False)
    document = json.loads(Path("out/results.json").read_text(encoding="utf-8"))
    return result.exit_code, result.output, document


def test_the_cache_is_off_unless_asked_for() -> None:
    assert CommandAgent(command=("python", "agent.py")).cache is False


def test_a_changed_agent_behind_the_same_url_is_never_served_silently(project: Path) -> None:
    answers = {"text": "1. a"}

    def agent(seen: Any, index: int) -> Reply:
        return Reply(200, {**{k: seen.body[k] for k in ("case_id", "group", "run")}, "final_answer": answers["text"]})

    with serve(agent) as server:
        _config(project, {"adapter": "http", "url": server.url, "cache": ".gate-cache"})
        code, output, _ = _check()
        assert code == 0
        assert "keyed without an agent identity" in output  # nothing names this build: said up front
        answers["text"] = "1. a\n2. b"  # the agent changed behind the same URL
        code, output, document = _check()
        assert len(server.seen) == 1  # served from the cache…
        assert document["cached_answers"] == 1  # …and every report says so
        assert "· 1 answers from the cache ·" in output
        comment = Path("out/comment.md").read_text(encoding="utf-8")
        assert "1 of 1 answers came from the answer cache" in comment
        code, output, document = _check("--no-cache")
        assert len(server.seen) == 2 and document["cached_answers"] == 0
        assert code == 1  # the fresh answer lists two items: the change is caught
        assert "answer cache" not in Path("out/comment.md").read_text(encoding="utf-8")


def test_a_command_agent_s_identity_follows_its_script_and_the_commit(project: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    script = project / "agent.py"
    script.write_text("print('v1')\n", encoding="utf-8")
    agent = CommandAgent(command=(sys.executable, "agent.py"), cache=".gate-cache")
    first = agent_identity(agent, project, {})
    assert first is not None and first.startswith("auto:")
    assert agent_identity(agent, project, {}) == first  # stable
    script.write_text("print('v2')\n", encoding="utf-8")
    second = agent_identity(agent, project, {})
    assert second != first
    assert agent_identity(agent, project, {"GITHUB_SHA": "abc"}) != second
    assert agent_identity(agent.model_copy(update={"identity": "v7"}), project, {}) == "v7"
    http = HttpAgent(url="http://127.0.0.1:1/run")
    assert agent_identity(http, project, {}) is None
    assert agent_identity(http, project, {"GITHUB_SHA": "abc"}) is not None


def test_a_changed_command_agent_is_asked_again(project: Path) -> None:
    script = project / "agent.py"
    body = ("import json, sys\nr = json.load(sys.stdin)\nprint(json.dumps({{'case_id': r['case_id'], "
            "'group': r['group'], 'run': r['run'], 'final_answer': {answer!r}}}))\n")
    script.write_text(body.format(answer="1. a"), encoding="utf-8")
    _config(project, {"adapter": "command", "command": [sys.executable, "agent.py"], "cache": ".gate-cache"})
    assert _check()[0] == 0
    script.write_text(body.format(answer="1. a\n2. b"), encoding="utf-8")
    code, _, document = _check()
    assert document["cached_answers"] == 0 and code == 1
