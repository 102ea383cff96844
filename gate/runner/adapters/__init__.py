"""The adapters, by the name gate.yaml gives them, each built from its own settings model and the
inputs gate.config.agent_inputs checked before any agent call. An adapter that speaks HTTP takes an
injected transport (tests serve it with httpx.MockTransport)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gate.config.agent_config import AgentConfig, CommandAgent, HttpAgent, OpenAIAgent, PythonAgent, ReplayAgent
from gate.config.agent_inputs import (
    AgentInputs,
    ChatInputs,
    CommandInputs,
    HttpInputs,
    PythonInputs,
    ReplayInputs,
    check_agent,
    planned_pairs,
)
from gate.net.retry import RetryPolicy
from gate.runner.base import Adapter
from gate.runs.jobs import Job

if TYPE_CHECKING:
    import httpx


def _command(agent: CommandAgent, inputs: CommandInputs, root: Path, policy: RetryPolicy,
             transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.command import CommandAdapter

    return CommandAdapter(agent.command, inputs.argv, root, agent.timeout_s)


def _http(agent: HttpAgent, inputs: HttpInputs, root: Path, policy: RetryPolicy,
          transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.http import HttpAdapter

    return HttpAdapter(inputs.url, agent.headers, agent.timeout_s, agent.concurrency, transport)


def _python(agent: PythonAgent, inputs: PythonInputs, root: Path, policy: RetryPolicy,
            transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.python import PythonAdapter

    return PythonAdapter(agent.function, inputs.function, agent.timeout_s)


def _replay(agent: ReplayAgent, inputs: ReplayInputs, root: Path, policy: RetryPolicy,
            transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.replay import ReplayAdapter

    return ReplayAdapter(inputs)


def _openai(agent: OpenAIAgent, inputs: ChatInputs, root: Path, policy: RetryPolicy,
            transport: httpx.AsyncBaseTransport | None) -> Adapter:
    from gate.runner.adapters.openai import ChatAdapter

    return ChatAdapter(agent, inputs, policy, transport)


BUILDERS: dict[type, Callable[..., Adapter]] = {CommandAgent: _command, HttpAgent: _http, PythonAgent: _python,
                                                ReplayAgent: _replay, OpenAIAgent: _openai}
"""One builder per settings model; each imports its adapter only when it is the one chosen."""


def build_adapter(agent: AgentConfig, root: Path, jobs: Sequence[Job], policy: RetryPolicy,
                  transport: httpx.AsyncBaseTransport | None = None, inputs: AgentInputs | None = None) -> Adapter:
    """The configured adapter, from ``inputs`` when they were checked already (`gate check` checks
    them with the rest of its inputs), else from the agent's inputs checked here: bad settings
    (missing program, skill file, env var) raise GateError before any call. The adapter closes them."""
    checked = inputs if inputs is not None else check_agent(agent, root, planned_pairs(jobs))
    try:
        return BUILDERS[type(agent)](agent, checked, root, policy, transport)
    except BaseException:
        checked.close()
        raise
