"""A case's simulated tools: intercepts keyed by tool name and arguments, a small state, injected
errors and latency.

An intercept without ``args`` is the old n-th-call form: the n-th call of its tool that no keyed
intercept answers gets the tool's n-th unkeyed intercept, then the last again. An intercept with
``args`` answers a call whose arguments match (first match in the order written wins). A result may
name the call's arguments (``{args.id}``) and the state (``{state.status}``); ``sets`` records state
from a call, so the ticket updated is the ticket read back. Nothing else in a result is touched, so
JSON braces stay as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from gate.files.strictvalues import StrictValues
from gate.model import SharedFieldNames

MAX_DELAY_S = 30.0
"""Longest injected latency of one call: a slow tool, not a stalled CI job."""
PATTERN_PREFIX = "re:"
PLACEHOLDER = re.compile(r"\{(state|args)\.([A-Za-z_][A-Za-z0-9_]*)\}")
"""``{state.<key>}`` or ``{args.<name>}``; any other brace is text."""


class ToolIntercept(SharedFieldNames, StrictValues):
    """A tool result the agent's harness injects instead of calling the real tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str
    result: str
    """The result text; ``{args.<name>}`` and ``{state.<key>}`` are filled in at the call."""
    is_error: bool = False
    args: dict[str, Any] | None = None
    """Answer only calls with these arguments: each value equal, or, written ``"re:<pattern>"``, the
    call's value (as text) matched whole by the pattern. Without it: the n-th-call form."""
    match: Literal["subset", "exact"] = "subset"
    """``subset``: the call may give other arguments too; ``exact``: only these."""
    sets: dict[str, str] = Field(default_factory=dict)
    """State this call records: key → template over the call's arguments (``{args.status}``)."""
    delay_s: float = Field(0.0, ge=0, le=MAX_DELAY_S)
    """Injected latency before the result; beyond the agent's ``timeout_s`` the call times out."""

    @field_validator("args")
    @classmethod
    def _patterns_compile(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        for name, expected in (value or {}).items():
            if isinstance(expected, str) and expected.startswith(PATTERN_PREFIX):
                try:
                    re.compile(expected[len(PATTERN_PREFIX):])
                except re.error as error:
                    raise ValueError(f"{name}: '{expected}' is not a regular expression ({error})") from None
        return value

    @field_validator("sets")
    @classmethod
    def _keys_are_names(cls, value: dict[str, str]) -> dict[str, str]:
        for key in value:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                raise ValueError(f"state key '{key}' must be a name (letters, digits, _)")
        return value

    @model_validator(mode="after")
    def _exact_needs_args(self) -> ToolIntercept:
        if self.match == "exact" and self.args is None:
            raise ValueError("match: exact needs args")
        return self

    @property
    def keyed(self) -> bool:
        """True when it answers by arguments rather than by call order."""
        return self.args is not None

    def request_form(self) -> dict[str, Any]:
        """The agent request's form: tool, result and is_error always, the rest only when set, so a
        case without simulation sends what it always sent."""
        return self.model_dump(exclude_defaults=True) | {"tool": self.tool, "result": self.result,
                                                          "is_error": self.is_error}


def state_references(intercepts: Iterable[ToolIntercept]) -> set[str]:
    """The state keys the results and ``sets`` templates read."""
    texts = [text for i in intercepts for text in (i.result, *i.sets.values())]
    return {name for text in texts for kind, name in PLACEHOLDER.findall(text) if kind == "state"}


def check_state(intercepts: tuple[ToolIntercept, ...], initial: Mapping[str, str]) -> None:
    """Each state key read is given a start value or set by some intercept: a typo is caught at load."""
    known = set(initial) | {key for i in intercepts for key in i.sets}
    missing = sorted(state_references(intercepts) - known)
    if missing:
        raise ValueError(f"tool_intercepts read state {missing} that no intercept sets and tool_state does not start")
