"""Trajectory checks: which tools were called, with what arguments, how often (order: order_checks)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from pydantic import Field, field_validator

from gate.checkers.base import checker
from gate.checkers.tool_calls import CallParams, Placed, counted, counting, matches, of_tool, shown
from gate.files import safejson
from gate.lexicon import charset, source
from gate.subject import Subject
from gate.text.deferred import deferred
from gate.text.numerals import to_int
from gate.text.terms import fold
from gate.trajectory import ToolCall
from gate.verdict import Outcome


class ToolsParams(CallParams):
    tools: list[str] = Field(min_length=1)
    """Tool names; shell-style wildcards allowed (maps_*)."""


@checker("tools:required", ToolsParams, "each tool was called at least once (a call that errored counts too, unless succeeded_only)")
def tools_required(subject: Subject, params: ToolsParams) -> Outcome:
    calls = counted(subject, params)
    missing = [tool for tool in params.tools if not of_tool(calls, tool)]
    if missing:
        return Outcome.failed(f"never called {missing}{counting(params)}; calls: {shown(calls)}", tuple(missing))
    return Outcome.passed(f"called {params.tools}{counting(params)}")


@checker("tools:forbidden", ToolsParams, "none of the tools was called — not even once, not on a retry, not if it errored (unless succeeded_only)")
def tools_forbidden(subject: Subject, params: ToolsParams) -> Outcome:
    bad = [
        f"#{index} {call.name}" + (" (errored)" if call.is_error else "")
        for index, _, call in counted(subject, params)
        if any(matches(call, tool) for tool in params.tools)
    ]
    if bad:
        return Outcome.failed(f"forbidden tool call(s): {', '.join(bad)}", tuple(bad))
    return Outcome.passed(f"none of {params.tools} called{counting(params)}")


def _patterns(value: Any) -> list[str]:
    if isinstance(value, str) and value.startswith("re:"):
        return [value[3:]]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _patterns(v)]
    if isinstance(value, list):
        return [p for v in value for p in _patterns(v)]
    return []


class ArgsParams(CallParams):
    tool: str
    args: dict[str, Any] = Field(min_length=1)
    """Expected values; a string ``re:…`` is a regular expression the value must match; an object
    matches when each of its keys matches (other keys may be present)."""
    every: bool = False
    """True: every call of the tool must match; False: at least one."""

    @field_validator("args")
    @classmethod
    def _compiles(cls, value: dict[str, Any]) -> dict[str, Any]:
        for pattern in _patterns(value):
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"bad regular expression 're:{pattern}': {exc}") from None
        return value


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def _arg_matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str) and expected.startswith("re:"):
        return actual is not None and re.search(expected[3:], _as_text(actual)) is not None
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(_arg_matches(v, actual.get(k)) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(_arg_matches(e, a) for e, a in zip(expected, actual, strict=True)))
    if isinstance(expected, bool) or isinstance(actual, bool):  # True is not 1
        return type(expected) is type(actual) and expected == actual
    return bool(expected == actual)


@checker("tools:args", ArgsParams, "the tool was called with matching arguments (values or re: patterns)")
def tools_args(subject: Subject, params: ArgsParams) -> Outcome:
    calls = [(i, c) for i, _, c in of_tool(counted(subject, params), params.tool)]
    if not calls:
        return Outcome.failed(f"{params.tool} never called{counting(params)}")

    def ok(call: ToolCall) -> bool:
        return all(_arg_matches(v, call.args.get(k)) for k, v in params.args.items())
    good = [i for i, c in calls if ok(c)]
    bad = [f"#{i} {json.dumps(c.args, ensure_ascii=False, sort_keys=True)}" for i, c in calls if not ok(c)]
    if params.every and bad:
        return Outcome.failed(f"{len(bad)} call(s) of {params.tool} with other arguments: {bad[0]}", tuple(bad))
    if not good:
        return Outcome.failed(f"no call of {params.tool} matches {params.args}: {bad[0]}", tuple(bad))
    return Outcome.passed(f"{params.tool} called with {params.args} (#{good[0]})")


class MaxCallsParams(CallParams):
    max: int = Field(ge=0)
    tool: str = "*"


@checker("tools:max_calls", MaxCallsParams, "at most N calls (of one tool, or of all tools)")
def tools_max_calls(subject: Subject, params: MaxCallsParams) -> Outcome:
    count = len(of_tool(counted(subject, params), params.tool))
    what = "tool calls" if params.tool == "*" else f"calls of {params.tool}"
    return Outcome.of(count <= params.max, f"{count} {what}{counting(params)}; at most {params.max} allowed")


def _attempts(calls: list[Placed]) -> list[list[Placed]]:
    """One tool's calls as the calls meant: a call that errored and is sent again with the same
    arguments is retried, and the retry is the same call; any other call is a call of its own."""
    meant: list[list[Placed]] = []
    for placed in calls:
        last = meant[-1][-1].call if meant else None
        if last is not None and last.is_error and last.args == placed.call.args:
            meant[-1].append(placed)
        else:
            meant.append([placed])
    return meant


@checker("tools:no_repeat", ToolsParams,
         "no side-effect tool is called more than once (resent with the same arguments after an error, it is the same call)")
def tools_no_repeat(subject: Subject, params: ToolsParams) -> Outcome:
    calls = counted(subject, params)
    # Grouped by the name called: send_* covering send_sms and send_email is not one tool twice.
    names = dict.fromkeys(c.name for _, _, c in calls if any(matches(c, tool) for tool in params.tools))
    meant = {name: _attempts([p for p in calls if p.call.name == name]) for name in names}
    repeated = {name: tries for name, tries in meant.items() if len(tries) > 1}
    if repeated:
        shown_ = "; ".join(f"{tool} ×{len(tries)} (#{', #'.join(str(t[0].position) for t in tries)})"
                           for tool, tries in repeated.items())
        return Outcome.failed(f"side-effect call(s) repeated{counting(params)}: {shown_}", tuple(repeated))
    retried = [f"{name} #{t[-1].position}" for name, tries in meant.items() for t in tries if len(t) > 1]
    note = f" ({len(retried)} retried after an error: {', '.join(retried)})" if retried else ""
    return Outcome.passed(f"no repeated call of {params.tools}{counting(params)}{note}")


class UsesResultParams(CallParams):
    tool: str
    min_matches: int = Field(1, ge=1)
    """How many distinct facts (numbers, names) from the result the answer must contain."""
    fields: list[str] = Field(default_factory=list)
    """Only values of these JSON keys count as facts; default: every string and number."""


_NUMBER_FACT_RE = re.compile(r"^-?\d+(?:\.\d+)?$")


def _fact(text: str) -> str | None:
    """A value worth looking for in the answer: a name of 2+ characters or a number of 2+ digits.

    One digit ("3", "4") turns up in any answer, so it proves nothing.
    """
    text = text.strip()
    if _NUMBER_FACT_RE.match(text):
        return text if len(text.lstrip("-").replace(".", "")) >= 2 else None
    return text if len(text) >= 2 else None


# A fact in a result that is not JSON: a run of two Chinese characters or more, or a number.
_fact_token_re = deferred(lambda: rf"{source('han')}{{2,}}|\d+(?:\.\d+)?")


def _facts(result: str, fields: list[str]) -> set[str]:
    try:
        data: Any = safejson.loads(result)
    except ValueError:
        tokens = _fact_token_re().findall(result)
        return {fact for token in tokens if (fact := _fact(token))}
    found: set[str] = set()

    def walk(value: Any, key: str | None) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, str(k))
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            if fields and key not in fields:
                return
            fact = _fact(f"{value:g}" if isinstance(value, float) else str(value))
            if fact:
                found.add(fact)

    walk(data, None)
    return found


_answer_number_re = deferred(lambda: rf"(?<![\d.])\d+(?:\.\d+)?(?![\d])|{charset('cn_digit', 'cn_ten')}+")


_fahrenheit_re = deferred(lambda: rf"(?<![\d.])(?P<value>\d+(?:\.\d+)?)\s*{source('fahrenheit')}")


def _answer_numbers(answer: str) -> set[float]:
    """The values of the whole numbers an answer writes, in digits or in Chinese (十五 → 15, 15.0 → 15),
    and a Fahrenheit temperature's in Celsius too, to the degree (59°F → 15)."""
    values: set[float] = set()
    for token in _answer_number_re().findall(answer):
        value = to_int(token) if not token[0].isdigit() else float(token)
        if value is not None:
            values.add(float(value))
    values.update(float(round((float(m.group("value")) - 32) * 5 / 9)) for m in _fahrenheit_re().finditer(answer))
    return values


def _used(fact: str, answer: str, numbers: set[float]) -> bool:
    """``fact`` in the answer: a number by value as a whole number (28 is not in 280 or 2.8); a name
    as a whole word where it begins or ends in a Latin letter or digit ("ok" is not in "look")."""
    if _NUMBER_FACT_RE.match(fact):
        return float(fact) in numbers
    return _whole(fold(fact)).search(answer) is not None


@lru_cache(maxsize=4096)
def _whole(folded: str) -> re.Pattern[str]:
    left = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", folded) else ""
    right = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", folded) else ""
    return re.compile(left + re.escape(folded) + right)


@checker("tools:uses_result", UsesResultParams, "the answer uses data (names, numbers) from the tool's result")
def tools_uses_result(subject: Subject, params: UsesResultParams) -> Outcome:
    # only a result that came back without an error is data: succeeded_only is what this check always does
    results = [c.result for _, _, c in of_tool(counted(subject, params), params.tool) if c.result and not c.is_error]
    if not results:
        return Outcome.failed(f"no successful {params.tool} result to use")
    facts = set().union(*(_facts(result, params.fields) for result in results))
    answer = fold(subject.answer)
    numbers = _answer_numbers(answer)
    used = sorted(fact for fact in facts if _used(fact, answer, numbers))
    detail = f"{len(used)} fact(s) from {params.tool} in the answer ({', '.join(used[:4]) or 'none'}); {params.min_matches} required"
    return Outcome.of(len(used) >= params.min_matches, detail, tuple(used))


