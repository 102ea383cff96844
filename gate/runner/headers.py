"""HTTP headers from gate.yaml: ${ENV} expanded at call time, values kept out of every message."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from gate.errors import GateError
from gate.runner.base import AgentError

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def referenced(headers: Mapping[str, str]) -> dict[str, list[str]]:
    """The environment variables each header refers to."""
    return {name: _VAR.findall(value) for name, value in headers.items()}


def check_environment(headers: Mapping[str, str], environ: Mapping[str, str] | None = None) -> None:
    """A GateError, before any call, for a header that names an unset variable."""
    env = os.environ if environ is None else environ
    for name, variables in referenced(headers).items():
        missing = [v for v in variables if v not in env]
        if missing:
            raise GateError(f"agent.headers.{name}: environment variable {missing[0]} is not set")


def expand(headers: Mapping[str, str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Headers with every ${NAME} replaced by the variable's current value."""
    env = os.environ if environ is None else environ

    def value_of(match: re.Match[str]) -> str:
        if match.group(1) not in env:
            raise AgentError(f"header uses ${{{match.group(1)}}}, which is not set")
        return env[match.group(1)]

    return {name: _VAR.sub(value_of, value) for name, value in headers.items()}


def with_bearer(headers: Mapping[str, str], api_key_env: str, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The expanded headers, plus ``Authorization: Bearer`` from ``api_key_env`` when it is set."""
    env = os.environ if environ is None else environ
    found = expand(headers, env)
    key = env.get(api_key_env)
    if key:
        found["Authorization"] = f"Bearer {key}"
    return found
