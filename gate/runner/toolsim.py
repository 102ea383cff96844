"""Answers one run's tool calls from its case's intercepts (gate.tool_intercept): by arguments
first, in the order written, then the tool's unkeyed intercepts by call order, then the default
result of a declared tool. The state lives as long as the run."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gate.net.body import snippet
from gate.runner.base import AgentError
from gate.tool_intercept import PATTERN_PREFIX, PLACEHOLDER, ToolIntercept


@dataclass(frozen=True)
class Answer:
    """What a simulated tool returns, and how long it takes to."""

    result: str
    is_error: bool = False
    delay_s: float = 0.0


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def value_matches(expected: Any, actual: Any) -> bool:
    """Equal, or for a ``re:`` pattern, the value's text matched whole."""
    if isinstance(expected, str) and expected.startswith(PATTERN_PREFIX):
        return re.fullmatch(expected[len(PATTERN_PREFIX):], _text(actual)) is not None
    return bool(expected == actual) and isinstance(expected, bool) == isinstance(actual, bool)  # true is not 1


def args_match(intercept: ToolIntercept, args: Mapping[str, Any]) -> bool:
    """Whether a call with ``args`` is one ``intercept`` answers (a keyed one)."""
    wanted = intercept.args or {}
    if intercept.match == "exact" and set(args) != set(wanted):
        return False
    return all(name in args and value_matches(expected, args[name]) for name, expected in wanted.items())


class ToolSimulator:
    """One run's simulated tools."""

    def __init__(self, intercepts: Iterable[Mapping[str, Any]], declared: Iterable[str] = (),
                 default_result: str = "", state: Mapping[str, str] | None = None, *, replay: bool = False) -> None:
        """``replay``: answer only from intercepts keyed by arguments; a call none matches raises
        AgentError naming it, rather than getting a default the recording never saw."""
        self._intercepts = [ToolIntercept.model_validate(i) for i in intercepts]
        self._unkeyed: dict[str, list[ToolIntercept]] = {}
        for intercept in self._intercepts:
            if not intercept.keyed:
                self._unkeyed.setdefault(intercept.tool, []).append(intercept)
        self._tools = {i.tool for i in self._intercepts} | set(declared)
        self._default = default_result
        self._used: dict[str, int] = {}
        self._replay = replay
        self._replayed: dict[str, int] = {}
        self.state: dict[str, str] = dict(state or {})

    def answer(self, name: str, args: Mapping[str, Any]) -> Answer:
        """The answer to a call of ``name`` with ``args``; the state it sets is recorded."""
        if name not in self._tools:
            known = ", ".join(sorted(self._tools)) or "none"
            return Answer(f"error: unknown tool '{name}'; available tools: {known}", True)
        intercept = self._choose(name, args)
        if intercept is None:
            return Answer(self._default)  # a real tool, or calls no intercept of it answers
        result = self._fill(intercept.result, args)
        self.state.update({key: self._fill(template, args) for key, template in intercept.sets.items()})
        return Answer(result, intercept.is_error, intercept.delay_s)

    def _choose(self, name: str, args: Mapping[str, Any]) -> ToolIntercept | None:
        if self._replay:
            return self._recorded(name, args)
        keyed = next((i for i in self._intercepts if i.tool == name and i.keyed and args_match(i, args)), None)
        if keyed is not None:
            return keyed
        options = self._unkeyed.get(name)
        if not options:
            return None
        index = min(self._used.get(name, 0), len(options) - 1)
        self._used[name] = self._used.get(name, 0) + 1
        return options[index]

    def _recorded(self, name: str, args: Mapping[str, Any]) -> ToolIntercept:
        """The n-th identical call's n-th matching recording, then the last again."""
        matching = [i for i in self._intercepts if i.tool == name and i.keyed and args_match(i, args)]
        call = f"{name} {_text(dict(args))}"
        if not matching:
            raise AgentError(f"tool call {snippet(call)} matches no recorded call (tool_replay)")
        index = min(self._replayed.get(call, 0), len(matching) - 1)
        self._replayed[call] = self._replayed.get(call, 0) + 1
        return matching[index]

    def _fill(self, template: str, args: Mapping[str, Any]) -> str:
        """``template`` with its placeholders filled: an argument the call did not give is empty."""
        def value(found: re.Match[str]) -> str:
            kind, key = found.group(1), found.group(2)
            if kind == "state":
                return self.state.get(key, "")
            return _text(args[key]) if key in args else ""
        return PLACEHOLDER.sub(value, template)
