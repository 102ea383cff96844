"""The openai adapter tests the team's agent: its system prompt in both groups, the skills after it
in B, part of every cached answer's key, and a prompt file that cannot be used refused up front."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.errors import GateError
from gate.runner import RunnerSettings, run_jobs

from .conftest import agent, jobs_of
from .loopback import Reply, Seen, mocked, serve

PROMPT = "You are Acme's support agent. Never ask for a password."


def _answer(seen: Seen, index: int) -> Reply:
    return Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": "1. Reset it."}}]})


def _openai(url: str, **settings: Any) -> Any:
    return agent(adapter="openai", url=url, model="m", api_key_env="GATE_TEST_KEY", **settings)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # the repository the prompt file must be inside
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "dining.md").write_text("# Dining skill\nExactly what is asked.\n", encoding="utf-8")
    (tmp_path / "prompts").mkdir()
    (tmp_path / "prompts" / "system.md").write_text(f"\n{PROMPT}\n\n", encoding="utf-8")
    return tmp_path


def _first_messages(settings: dict[str, Any], root: Path) -> dict[str, list[dict[str, Any]]]:
    with mocked(_answer) as server:
        run_jobs(jobs_of("c1", groups=("A", "B"), skills=("dining",)), _openai(server.url, **settings), root=root,
                 settings=RunnerSettings(progress=False, transport=server.transport))
    return {"B" if len(s.body["messages"][0]["content"]) > len(PROMPT) else "A": s.body["messages"] for s in server.seen}


@pytest.mark.parametrize("settings", [{"system_prompt_file": "prompts/system.md"}, {"system_prompt": f" {PROMPT}\n"}],
                         ids=["file", "inline"])
def test_both_groups_get_the_team_s_prompt_and_b_the_skills_after_it(project: Path, settings: dict[str, Any]) -> None:
    sent = _first_messages(settings, project)
    assert sent["A"] == [{"role": "system", "content": PROMPT}, {"role": "user", "content": "question of c1"}]
    assert sent["B"][0] == {"role": "system", "content": f"{PROMPT}\n\n# Dining skill\nExactly what is asked."}


@pytest.mark.parametrize(("name", "make", "message"), [
    ("prompts/missing.md", None, "{path}: file not found"),
    ("prompts", None, "{path} is a directory, not a prompt file"),
    ("prompts/empty.md", " \n\n", "{path} is empty; remove the key to test the bare model"),
    ("prompts/latin1.md", b"caf\xe9", "{path}: not UTF-8 text (byte 3)"),
    ("../outside.md", "leaked", "'../outside.md' is outside the repository ({root})"),
])
def test_a_prompt_file_that_cannot_be_used_is_refused_before_any_call(
        project: Path, name: str, make: str | bytes | None, message: str) -> None:
    path = (project / name).resolve()
    if isinstance(make, bytes):
        path.write_bytes(make)
    elif make is not None:
        path.write_text(make, encoding="utf-8")
    with mocked(_answer) as server, pytest.raises(GateError) as info:
        run_jobs(jobs_of("c1"), _openai(server.url, system_prompt_file=name), root=project,
                 settings=RunnerSettings(progress=False, transport=server.transport))
    expected = message.format(path=path, root=project.resolve())
    assert str(info.value) == f"gate.yaml: agent.system_prompt_file: {expected}"
    assert server.seen == []


def test_a_link_out_of_the_repository_is_outside_it(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    secret = tmp_path_factory.mktemp("elsewhere") / "credentials"
    secret.write_text("token", encoding="utf-8")
    (project / "prompts" / "linked.md").symlink_to(secret)
    with pytest.raises(GateError) as info:
        run_jobs(jobs_of("c1"), _openai("http://127.0.0.1:9", system_prompt_file="prompts/linked.md"), root=project,
                 settings=RunnerSettings(progress=False))
    assert str(info.value) == ("gate.yaml: agent.system_prompt_file: 'prompts/linked.md' is outside the repository "
                               f"({project.resolve()})")


def _check(project: Path, agent_settings: dict[str, Any]) -> tuple[int, str]:
    config = {"agent": {"adapter": "openai", "model": "m", "api_key_env": "GATE_TEST_KEY", "retries": 0,
                        **agent_settings},
              "groups": ["A"], "baseline": "none.json", "out_dir": "out", "decision": {"mode": "point"}}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def checked(project: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(project)
    monkeypatch.setenv("GATE_TEST_KEY", "sk-test")
    for name in ("GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT", "GITHUB_ACTIONS", "GITHUB_EVENT_PATH"):
        monkeypatch.delenv(name, raising=False)
    (project / "cases").mkdir()
    (project / "cases" / "B3-QC-01.yaml").write_text(
        case_yaml(["{id: one, check: items:count, params: {exact: 1}}"], ["1. a"], [("", ["one"])]), encoding="utf-8")
    return project


def test_a_changed_prompt_is_never_answered_from_the_cache(checked: Path) -> None:
    with serve(_answer) as server:
        settings = {"url": server.url, "cache": ".gate-cache", "system_prompt_file": "prompts/system.md"}
        assert _check(checked, settings)[0] == 0
        assert _check(checked, settings)[0] == 0
        assert len(server.seen) == 1  # the same prompt: answered from the cache
        (checked / "prompts" / "system.md").write_text("You are Acme's sales agent.\n", encoding="utf-8")
        assert _check(checked, settings)[0] == 0
        assert len(server.seen) == 2  # another prompt is another agent: asked afresh
        assert server.seen[1].body["messages"][0] == {"role": "system", "content": "You are Acme's sales agent."}
        inline = {**settings, "system_prompt_file": None, "system_prompt": "You are Acme's sales agent."}
        assert _check(checked, inline)[0] == 0
        assert len(server.seen) == 2  # the same text inline is the same agent


def test_gate_check_names_gate_yaml_and_the_key(checked: Path) -> None:
    code, output = _check(checked, {"url": "http://127.0.0.1:9", "system_prompt_file": "prompts/sytem.md"})
    assert code == 2
    assert output.strip().endswith(f"gate.yaml: agent.system_prompt_file: {checked.resolve()}/prompts/sytem.md: "
                                   "file not found")


def test_one_prompt_or_the_other(checked: Path) -> None:
    code, output = _check(checked, {"url": "http://127.0.0.1:9", "system_prompt": PROMPT,
                                    "system_prompt_file": "prompts/system.md"})
    assert code == 2
    assert "agent: set system_prompt or system_prompt_file, not both" in output
