"""The answer read as JSON: trimmed, at most one enclosing ```json fence removed, parsed whole."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_FENCE_RE = re.compile(r"\A(?P<fence>```|~~~)[ \t]*(?:json|JSON|json5)?[ \t]*\r?\n(?P<body>.*)\r?\n(?P=fence)\Z", re.DOTALL)


class _NotJson(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    # Python's json accepts NaN and Infinity; JSON does not.
    raise _NotJson(f"{name} is not a JSON value")


@dataclass(frozen=True)
class JsonAnswer:
    """The parsed value, or why the answer is not JSON."""

    ok: bool
    value: Any = None
    problem: str = ""
    fenced: bool = False


def parse_answer(answer: str) -> JsonAnswer:
    """Parse the whole answer as JSON; prose around it makes it not JSON."""
    text = answer.lstrip("\ufeff").strip()
    fenced = False
    match = _FENCE_RE.match(text)
    if match:
        text, fenced = match.group("body").strip(), True
    if not text:
        return JsonAnswer(False, problem="empty")
    try:
        return JsonAnswer(True, json.loads(text, parse_constant=_reject_constant), fenced=fenced)
    except _NotJson as exc:
        return JsonAnswer(False, problem=f"not valid JSON: {exc}")
    except RecursionError:
        return JsonAnswer(False, problem="not usable JSON: nested too deeply")
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        snippet = text[max(0, exc.pos - 15) : exc.pos + 15].replace("\n", "⏎")
        return JsonAnswer(False, problem=f"not valid JSON at {where}: {exc.msg} near '{snippet}'")
    except ValueError as exc:  # e.g. an integer longer than Python converts
        return JsonAnswer(False, problem=f"not usable JSON: {exc}")


def _arrays(value: Any, path: str, depth: int) -> list[tuple[str, list[Any]]]:
    if isinstance(value, list):
        return [(path, value)]
    if not isinstance(value, dict) or depth == 0:
        return []
    return [found for key, item in value.items() for found in _arrays(item, f"{path}.{key}", depth - 1)]


def main_array(value: Any) -> tuple[str, list[Any]] | None:
    """The array a JSON answer is about: the value itself, or an array field of an object.

    Among an object's arrays (nested up to three levels: {"data": {"cities": [...]}}), one of
    objects beats one of scalars ({"cities": [{…}, {…}], "tags": ["a", "b", "c"]}), then the
    longer, then the first.
    """
    arrays = _arrays(value, "$", 3)
    if not arrays:
        return None
    return max(
        enumerate(arrays),
        key=lambda pair: (bool(pair[1][1]) and all(isinstance(e, dict) for e in pair[1][1]),
                          len(pair[1][1]), -pair[0]),
    )[1]
