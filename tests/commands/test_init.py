"""`gate init`: from an empty directory to a passing `gate check`, for every adapter."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from gate.cli.app import main


def _gate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("GITHUB_ACTIONS", "GITHUB_EVENT_PATH", "GITHUB_SHA"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _set_url(project: Path, url: str) -> None:
    config = (project / "gate.yaml").read_text(encoding="utf-8")
    lines = [f"  url: {url}" if line.startswith("  url:") else line for line in config.splitlines()]
    (project / "gate.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def http_agent(empty: Path) -> Iterator[str]:
    """The generated agent_server.py, served on a free port."""
    assert _gate("init", "--adapter", "http")[0] == 0
    spec = importlib.util.spec_from_file_location("agent_server", empty / "agent_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    server = ThreadingHTTPServer(("127.0.0.1", 0), module.Agent)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/run"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("adapter", ["command", "python"])
def test_init_then_validate_and_check_pass_at_once(empty: Path, adapter: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(empty))  # the python adapter imports agent:run from the project
    code, output = _gate("init", "--adapter", adapter)
    assert code == 0 and "wrote gate.yaml" in output
    assert _gate("validate") == (0, "1 cases valid; 3 examples judged as their cases say\n")
    code, output = _gate("check")
    assert code == 0, output
    assert "APP/FORMAT" in output and "gate PASSED: 2 runs judged" in output
    assert (empty / ".gitignore").read_text(encoding="utf-8") == "# agent-gate\n.gate-cache/\ngate-results/\n"


def test_init_http_edit_a_case_validate_and_check(empty: Path, http_agent: str) -> None:
    _set_url(empty, http_agent)
    assert _gate("validate")[0] == 0
    assert _gate("check")[0] == 0
    case = empty / "cases" / "APP-01.yaml"  # edit the case: the user's own wording, a third forbidden phrase
    text = case.read_text(encoding="utf-8")
    text = text.replace("I forgot my password.", "I am locked out of my account.")
    text = text.replace('"send me your password"]', '"send me your password", "tell me your password"]')
    case.write_text(text, encoding="utf-8")
    assert _gate("validate")[0] == 0
    code, output = _gate("check")
    assert code == 0, output
    assert "gate PASSED: 2 runs judged" in output


def test_init_openai_offers_the_starter_tools(empty: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from runner.loopback import Reply, serve

    answer = "1. Use Forgot password.\n2. Check your spam folder.\n3. Contact support."

    def model(seen: Any, index: int) -> Reply:
        assert [t["function"]["name"] for t in seen.body["tools"]] == ["lookup_account"]
        return Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]})

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert _gate("init", "--adapter", "openai")[0] == 0
    with serve(model) as server:
        _set_url(empty, server.url + "/v1")
        code, output = _gate("check")
    assert code == 0, output
    workflow = (empty / ".github" / "workflows" / "agent-gate.yml").read_text(encoding="utf-8")
    assert "OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}" in workflow


def test_init_refuses_to_overwrite_and_writes_nothing(empty: Path) -> None:
    (empty / "gate.yaml").write_text("# mine\n", encoding="utf-8")
    (empty / ".gitignore").write_text("node_modules/", encoding="utf-8")
    code, output = _gate("init")
    assert code == 2 and "refusing to overwrite gate.yaml; nothing was written" in output
    assert (empty / "gate.yaml").read_text(encoding="utf-8") == "# mine\n"
    assert sorted(p.name for p in empty.iterdir()) == [".gitignore", "gate.yaml"]
    (empty / "gate.yaml").unlink()
    assert _gate("init")[0] == 0  # .gitignore is appended to, never replaced
    assert (empty / ".gitignore").read_text(encoding="utf-8") == "node_modules/\n# agent-gate\n.gate-cache/\ngate-results/\n"


@pytest.mark.parametrize("adapter", ["command", "python", "http", "openai"])
def test_the_scaffold_satisfies_its_own_schemas(empty: Path, adapter: str) -> None:
    assert _gate("init", "--adapter", adapter)[0] == 0
    for name, document in (("case", empty / "cases" / "APP-01.yaml"), ("config", empty / "gate.yaml")):
        schema = json.loads((empty / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(document.read_text(encoding="utf-8")))
