"""The answer read as JSON: trimmed, at most one enclosing ```json fence removed, parsed whole."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from gate import lexicon
from gate.files import safejson

_FENCE_RE = re.compile(r"\A(?P<fence>```|~~~)[ \t]*(?:json|JSON|json5)?[ \t]*\r?\n(?P<body>.*)\r?\n(?P=fence)\Z", re.DOTALL)


@dataclass(frozen=True)
class JsonAnswer:
    """The parsed value, or why the answer is not JSON."""

    ok: bool
    value: Any = None
    problem: str = ""
    fenced: bool = False


def parse_answer(answer: str) -> JsonAnswer:
    """Parse the whole answer as JSON; prose around it makes it not JSON."""
    whole = answer.lstrip("\ufeff")
    text = whole.strip()
    start = len(whole) - len(whole.lstrip())  # where ``text`` begins in the answer
    fenced = False
    match = _FENCE_RE.match(text)
    if match:
        body = match.group("body")
        start += match.start("body") + len(body) - len(body.lstrip())
        text, fenced = body.strip(), True
    if not text:
        return JsonAnswer(False, problem="empty")
    try:  # strict RFC 8259 (no NaN), and within the bounds every other input is held to
        return JsonAnswer(True, safejson.loads(text), fenced=fenced)
    except json.JSONDecodeError as exc:
        at = start + exc.pos  # the place in the answer as the reader sees it, fence lines included
        where = f"line {whole.count(chr(10), 0, at) + 1} column {at - whole.rfind(chr(10), 0, at)}"
        snippet = text[max(0, exc.pos - 15) : exc.pos + 15].replace("\n", "⏎")
        return JsonAnswer(False, problem=f"not valid JSON at {where}: {exc.msg} near '{snippet}'")


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
    longer, then the first; sibling arrays of the same kind of object are groups of one list
    ({"over_ear": [2 headphones], "in_ear": [1]} holds 3), and so are the arrays of labelled groups
    ({"categories": [{"type": "over_ear", "items": [2]}, {"type": "in_ear", "items": [1]}]} holds 3).
    """
    arrays = _arrays(value, "$", 3)
    if not arrays:
        return None
    grouped = _groups(arrays) + _labelled_groups(arrays)
    return max(
        enumerate([*arrays, *grouped]),
        key=lambda pair: (_of_objects(pair[1][1]), len(pair[1][1]), -pair[0]),
    )[1]


def _of_objects(array: list[Any]) -> bool:
    return bool(array) and all(isinstance(e, dict) for e in array)


def _groups(arrays: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    """Sibling arrays of the same kind of object, one per group ({"over_ear": [{name…}, …],
    "in_ear": [{name…}]}), joined: the items are all of them."""
    by_parent: dict[str, list[tuple[str, list[Any]]]] = {}
    for path, array in arrays:
        if _of_objects(array):
            by_parent.setdefault(path.rsplit(".", 1)[0], []).append((path, array))
    joined = []
    for siblings in by_parent.values():
        if len(siblings) < 2:
            continue
        keys = [set(array[0]) for _, array in siblings]
        shared = set.intersection(*keys)
        if shared and len(shared) * 2 >= max(len(k) for k in keys):  # the same kind of element in each
            joined.append(("+".join(path for path, _ in siblings), [e for _, array in siblings for e in array]))
    return joined




def _labelled_groups(arrays: list[tuple[str, list[Any]]]) -> list[tuple[str, list[Any]]]:
    """An array of groups, each a label and one array of objects ({"type": "in_ear", "items": […]}),
    joined: the items are the groups' entries."""
    joined = []
    for path, array in arrays:
        if not _of_objects(array):
            continue
        inner: list[Any] = []
        for group in array:
            lists = [v for v in group.values() if isinstance(v, list)]
            labels = {str(k).casefold() for k, v in group.items() if not isinstance(v, list)}
            # the fields a group carries besides its entries: a label, never a name of its own
            if len(lists) != 1 or not _of_objects(lists[0]) or not labels <= set(lexicon.words("group_key")):
                break
            inner.extend(lists[0])
        else:
            joined.append((f"{path}[*]", inner))
    return joined
