"""The answer read as JSON: trimmed, at most one enclosing ```json fence removed, parsed whole."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_FENCE_RE = re.compile(r"\A```[ \t]*(?:json|JSON|json5)?[ \t]*\n(?P<body>.*)\n```\Z", re.DOTALL)


@dataclass(frozen=True)
class JsonAnswer:
    """The parsed value, or why the answer is not JSON."""

    ok: bool
    value: Any = None
    problem: str = ""
    fenced: bool = False


def parse_answer(answer: str) -> JsonAnswer:
    """Parse the whole answer as JSON; prose around it makes it not JSON."""
    text = answer.strip()
    fenced = False
    match = _FENCE_RE.match(text)
    if match:
        text, fenced = match.group("body").strip(), True
    if not text:
        return JsonAnswer(False, problem="the answer is empty")
    try:
        return JsonAnswer(True, json.loads(text), fenced=fenced)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        snippet = text[max(0, exc.pos - 15) : exc.pos + 15].replace("\n", "⏎")
        return JsonAnswer(False, problem=f"not valid JSON at {where}: {exc.msg} near '{snippet}'")


def main_array(value: Any) -> tuple[str, list[Any]] | None:
    """The array a JSON answer is about: the value itself, or the largest array field of an object."""
    if isinstance(value, list):
        return "$", value
    if isinstance(value, dict):
        arrays = [(f"$.{key}", item) for key, item in value.items() if isinstance(item, list)]
        if arrays:
            return max(arrays, key=lambda pair: len(pair[1]))
    return None
