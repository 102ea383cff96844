"""The agent runner: call the agent for every job through the configured adapter.

``run_jobs`` is the whole public surface; adapters (command, http, python, openai, replay), the
cache and the progress line are its parts. Its HTTP clients, their retry policy and error type are
gate.net's.
"""

from __future__ import annotations

from gate.runner.base import AgentError
from gate.runner.engine import RunOutcome, run_jobs
from gate.runner.settings import RunnerSettings

__all__ = ["AgentError", "RunOutcome", "RunnerSettings", "run_jobs"]
