"""The adapter named in gate.yaml, built (and checked) before any agent call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gate.agent_config import AgentConfig
from gate.runner.base import Adapter
from gate.runner.retry import RetryPolicy


def build_adapter(agent: AgentConfig, root: Path, requests: list[dict[str, Any]], policy: RetryPolicy) -> Adapter:
    """The configured adapter. Bad settings (missing program, skill file, env var) raise GateError here."""
    if agent.adapter == "command":
        from gate.runner.adapters.command import CommandAdapter

        return CommandAdapter(agent.command, root, agent.timeout_s)
    if agent.adapter == "http":
        from gate.runner.adapters.http import HttpAdapter

        assert agent.url is not None  # required by the config for this adapter
        return HttpAdapter(agent.url, agent.headers, agent.timeout_s, agent.concurrency)
    if agent.adapter == "python":
        from gate.runner.adapters.python import PythonAdapter

        assert agent.function is not None
        return PythonAdapter(agent.function, root, agent.timeout_s)
    if agent.adapter == "replay":
        from gate.runner.adapters.replay import ReplayAdapter

        assert agent.trajectories is not None
        path = Path(agent.trajectories)
        return ReplayAdapter(path if path.is_absolute() else root / path)
    from gate.runner.adapters.openai import ChatAdapter

    return ChatAdapter(agent, root, requests, policy)
