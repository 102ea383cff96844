"""The demo agent called in the test process instead of one interpreter per call.

Most tests that run `gate check` on the demo test the gate, not the command adapter, and a demo
check starts ~160 interpreters. This stand-in answers exactly as `python examples/demo_agent.py`
does — the same request and answer bytes through JSON, the same error for a request it refuses —
so every report is byte-identical. Tests marked ``e2e`` keep the real subprocess."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gate.config.agent_config import AgentConfig, CommandAgent
from gate.config.agent_inputs import AgentInputs
from gate.net.body import parse_json_object
from gate.net.retry import RetryPolicy
from gate.runner import engine
from gate.runner.base import Adapter, AgentError
from gate.runs.jobs import Job

DEMO = Path(__file__).resolve().parents[1] / "examples" / "demo_agent.py"


def load_script(path: Path, name: str) -> ModuleType:
    """A script of examples/ imported as a module of its own ``name`` (a fresh copy each time)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_AGENT = load_script(DEMO, "demo_agent_in_process")
_DATA: dict[str, Any] = _AGENT.load_data()


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """What ``python examples/demo_agent.py`` prints for ``request``, read back as JSON (its
    environment knobs, GATE_DEMO_BREAK and the rest, are this process's)."""
    try:
        record = _AGENT.answer(_AGENT.read_request(json.dumps(request, ensure_ascii=False)), _DATA)
    except _AGENT.BadInput as exc:
        raise AgentError(f"the agent exited with status 2; stderr: demo_agent: error: {exc}") from None
    return parse_json_object(json.dumps(record, ensure_ascii=False).encode("utf-8"), "the agent's stdout")


def runs_the_demo(agent: CommandAgent, root: Path) -> bool:
    """The command adapter pointed at this repository's demo agent."""
    if not agent.command[-1].endswith("demo_agent.py"):
        return False
    script = Path(agent.command[-1])
    return (script if script.is_absolute() else root / script).resolve() == DEMO


class InProcessDemo:
    """The command adapter's face (name, fingerprint, errors) over the demo agent's own functions."""

    name = "command"
    handles_retries = False
    cacheable = True

    def __init__(self, command: tuple[str, ...]) -> None:
        self._command = command

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return list(self._command)

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        return answer(request)

    async def aclose(self) -> None:
        return None


def answer_demo_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """For ``monkeypatch``'s life, the command adapter pointed at the demo agent answers in this
    process instead of one interpreter per call."""
    real = engine.build_adapter

    def build(agent: AgentConfig, root: Path, jobs: list[Job], policy: RetryPolicy, transport: Any = None,
              inputs: AgentInputs | None = None) -> Adapter:
        if isinstance(agent, CommandAgent) and runs_the_demo(agent, root):
            return InProcessDemo(agent.command)
        return real(agent, root, jobs, policy, transport, inputs)

    monkeypatch.setattr(engine, "build_adapter", build)
