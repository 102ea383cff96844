"""The adapters, by the name gate.yaml gives them, each built from its own settings model (and
checked) before any agent call. An adapter that speaks HTTP takes an injected transport (tests
serve it with httpx.MockTransport)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.agent_config import AgentConfig, CommandAgent, HttpAgent, OpenAIAgent, PythonAgent, ReplayAgent
from gate.runner.base import Adapter
from gate.runner.retry import RetryPolicy

if TYPE_CHECKING:
    import httpx


def _command(agent: CommandAgent, root: Path, requests: Iterable[dict[str, Any]], policy: RetryPolicy,
             transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.command import CommandAdapter

    return CommandAdapter(agent.command, root, agent.timeout_s)


def _http(agent: HttpAgent, root: Path, requests: Iterable[dict[str, Any]], policy: RetryPolicy,
          transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.http import HttpAdapter

    return HttpAdapter(agent.url, agent.headers, agent.timeout_s, agent.concurrency, transport)


def _python(agent: PythonAgent, root: Path, requests: Iterable[dict[str, Any]], policy: RetryPolicy,
            transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.python import PythonAdapter

    return PythonAdapter(agent.function, root, agent.timeout_s)


def _replay(agent: ReplayAgent, root: Path, requests: Iterable[dict[str, Any]], policy: RetryPolicy,
            transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.replay import ReplayAdapter

    path = Path(agent.trajectories)
    return ReplayAdapter(path if path.is_absolute() else root / path)


def _openai(agent: OpenAIAgent, root: Path, requests: Iterable[dict[str, Any]], policy: RetryPolicy,
            transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.openai import ChatAdapter

    return ChatAdapter(agent, root, requests, policy, transport)


_BUILDERS: dict[type, Callable[..., Adapter]] = {CommandAgent: _command, HttpAgent: _http, PythonAgent: _python,
                                                 ReplayAgent: _replay, OpenAIAgent: _openai}
"""One builder per settings model; each imports its adapter only when it is the one chosen."""


def build_adapter(agent: AgentConfig, root: Path, requests: Iterable[dict[str, Any]], policy: RetryPolicy,
                  transport: httpx.AsyncBaseTransport | None = None) -> Adapter:
    """The configured adapter. Bad settings (missing program, skill file, env var) raise GateError here."""
    return _BUILDERS[type(agent)](agent, root, requests, policy, transport)
