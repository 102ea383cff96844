"""The one JSON reader for everything the gate did not write itself, and the strict writer.

Python's ``json`` accepts what RFC 8259 does not (``NaN``, ``Infinity``, ``1e400`` read as
infinity), turns integers of thousands of digits into objects every later ``float()`` chokes
on, and recurses once per nesting level, so a line of 100 000 ``[`` ends in a RecursionError
wherever the value is next walked. :func:`loads` accepts only strict JSON within bounds that no
real trajectory comes near, and says where it stopped; :func:`check_value` holds a value built in
Python (the python adapter's answer) to the same bounds; :func:`dumps` never writes ``NaN``.

A rejection is a :class:`json.JSONDecodeError`, so every caller that already reported bad JSON
by file and line reports these the same way.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 100
"""Deepest nesting of arrays and objects accepted; far below Python's recursion limit."""
MAX_DIGITS = 100
"""Longest integer accepted, in digits (a float handles up to about 308)."""
MAX_VALUES = 1_000_000
"""Most values in one Python-built value, shared containers counted at each use."""

# Only run on a document already rejected, to find the place: strings are skipped whole so a
# bracket or digit inside one is not counted; each alternative is unambiguous, so this is linear.
_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity')


class JsonRejected(json.JSONDecodeError):
    """JSON the gate will not read: invalid per RFC 8259 or beyond its bounds."""


class UnsafeValue(ValueError):
    """A Python value that is not plain, bounded JSON; ``path`` says where (``metadata.trace[3]``)."""

    def __init__(self, problem: str, path: str) -> None:
        shown = path if len(path) <= 80 else path[:80] + "…"  # a cycle's path repeats itself a hundred times
        super().__init__(f"{shown}: {problem}" if path else problem)
        self.problem = problem
        self.path = path


def _reject_constant(name: str) -> Any:
    raise _Found(f"{name} is not JSON; write null or a number", lambda t: t in ("NaN", "Infinity", "-Infinity"))


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Found(f"an integer of more than {MAX_DIGITS} digits", _long_integer)
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Found(f"the number {text[:20]} is too large for a float", _infinite_float)
    return value


def _long_integer(token: str) -> bool:
    return token[0] in "-0123456789" and "." not in token and "e" not in token.lower() \
        and len(token.lstrip("-")) > MAX_DIGITS


def _infinite_float(token: str) -> bool:
    if token[0] not in "-0123456789":
        return False
    try:
        return not math.isfinite(float(token))
    except ValueError:
        return False


class _Found(ValueError):
    """Raised from a parse hook: the problem, and how to recognise its token when locating it."""

    def __init__(self, problem: str, is_token: Any) -> None:
        super().__init__(problem)
        self.problem = problem
        self.is_token = is_token


def _locate(text: str, is_token: Any = None) -> int:
    """Offset of the first token ``is_token`` accepts, or where nesting first exceeds MAX_DEPTH."""
    depth = 0
    for match in _TOKEN_RE.finditer(text):
        token = match.group()
        if is_token is None:
            if token in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    return match.start()
            elif token in "]}":
                depth -= 1
        elif is_token(token):
            return match.start()
    return 0


def _too_deep(value: Any) -> bool:
    """True when ``value`` nests containers deeper than MAX_DEPTH; iterative."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_DEPTH:
            return True
        children = item.values() if isinstance(item, dict) else item
        pending.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


_SURROGATE_RE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate: alone in a str (JSON's "\\ud800", a Python agent's text) no UTF-8 can hold it."""


def has_surrogate(text: str) -> bool:
    """True when ``text`` holds a lone surrogate (cheap for ASCII text, the common case)."""
    return not text.isascii() and _SURROGATE_RE.search(text) is not None


def without_surrogates(value: Any) -> Any:
    """A copy of the plain JSON ``value`` whose strings and keys have each lone surrogate replaced by
    "?" (as gate.trajectory.clean_text does): the rest of the text is kept and can be written as
    UTF-8. Recursion is bounded by :func:`check_value`'s MAX_DEPTH, which the value passed first."""
    if isinstance(value, str):
        return _SURROGATE_RE.sub("?", value) if has_surrogate(value) else value
    if isinstance(value, dict):
        return {without_surrogates(key): without_surrogates(child) for key, child in value.items()}
    if isinstance(value, (list, tuple)):
        return [without_surrogates(child) for child in value]
    return value


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float)
"""One decoder for every document, as ``json.loads`` keeps one for its defaults: given hooks, it
builds a new decoder and scanner per call, a large part of the time of a short trajectory record."""


def _text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8-sig")  # RFC 8259: UTF-8; a leading byte-order mark may be ignored
    except UnicodeDecodeError as exc:
        raise JsonRejected(f"not UTF-8 (byte {exc.start})", "", 0) from None


def loads(data: str | bytes) -> Any:
    """Strict, bounded JSON, or :class:`JsonRejected` (a JSONDecodeError) saying what and where."""
    text = _text(data)
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise JsonRejected(exc.msg, exc.doc, exc.pos) from None
    except _Found as found:
        raise JsonRejected(found.problem, text, _locate(text, found.is_token)) from None
    except RecursionError:
        raise JsonRejected(f"nested deeper than {MAX_DEPTH} levels", text, _locate(text)) from None
    # Cheap test first: a document with few brackets cannot be deep.
    if text.count("[") + text.count("{") > MAX_DEPTH and isinstance(value, (dict, list)) and _too_deep(value):
        raise JsonRejected(f"nested deeper than {MAX_DEPTH} levels", text, _locate(text))
    return value


def _scalar_problem(value: Any) -> str | None:
    if value is None or isinstance(value, (str, bool)):
        return None
    if isinstance(value, int):
        return f"an integer of more than {MAX_DIGITS} digits" if abs(value) >= 10**MAX_DIGITS else None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value} is not a JSON number"
    return f"{type(value).__name__} is not a JSON type"


def _child(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else (f"{path}.{key}" if path else key)


def check_value(value: Any, path: str = "") -> bool:
    """Raise :class:`UnsafeValue` unless ``value`` is plain JSON within the reader's bounds; True
    when a string or key in it holds a lone surrogate (see :func:`without_surrogates`).

    Iterative and bounded by MAX_VALUES, so a cycle (too deep) or a structure sharing the same
    list a billion times (too many values) is refused without walking it all.
    """
    pending: list[tuple[Any, str, int]] = [(value, path, 0)]
    seen = 0
    surrogates = False
    while pending:
        item, where, depth = pending.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise UnsafeValue(f"more than {MAX_VALUES} values", path)
        if isinstance(item, (dict, list, tuple)):
            if depth >= MAX_DEPTH:
                raise UnsafeValue(f"nested deeper than {MAX_DEPTH} levels", where)
            if isinstance(item, dict):
                for key, child in item.items():
                    if not isinstance(key, str):
                        raise UnsafeValue(f"key {key!r:.40} is not a string", where)
                    surrogates = surrogates or has_surrogate(key)
                    pending.append((child, _child(where, key), depth + 1))
            else:
                pending.extend((child, _child(where, i), depth + 1) for i, child in enumerate(item))
            continue
        problem = _scalar_problem(item)
        if problem:
            raise UnsafeValue(problem, where)
        surrogates = surrogates or (isinstance(item, str) and has_surrogate(item))
    return surrogates


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps`` that refuses NaN and infinity (a ValueError) rather than write non-JSON."""
    return json.dumps(value, allow_nan=False, **options)

