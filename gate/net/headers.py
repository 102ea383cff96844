"""HTTP headers from gate.yaml: ${ENV} expanded at call time, values kept out of every message."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from gate.net.errors import NetError
from gate.redaction.secrets import remember, secret_headers

HEADER_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
"""``${NAME}`` in a header value: expanded from the environment at call time."""


def expand(headers: Mapping[str, str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Headers with every ${NAME} replaced by the variable's current value."""
    env = os.environ if environ is None else environ

    def value_of(match: re.Match[str]) -> str:
        if match.group(1) not in env:
            raise NetError(f"header uses ${{{match.group(1)}}}, which is not set")
        return env[match.group(1)]

    found = {name: HEADER_VARIABLE.sub(value_of, value) for name, value in headers.items()}
    remember(secret_headers(headers, found, HEADER_VARIABLE))
    return found


def with_bearer(headers: Mapping[str, str], api_key_env: str, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The expanded headers, plus ``Authorization: Bearer`` from ``api_key_env`` when it is set."""
    env = os.environ if environ is None else environ
    found = expand(headers, env)
    key = env.get(api_key_env)
    if key:
        remember([key])
        found["Authorization"] = f"Bearer {key}"
    return found
