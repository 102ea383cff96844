"""The answer read as YAML or TOML records, where a model wrote those for a list ("```yaml" with
"- name: Bose …", or TOML's "[[headphones]]" tables): the records it holds are its entries.

JSON is read first (:mod:`gate.text.jsonanswer`); this reads what JSON cannot. A format constraint
still fails such an answer — YAML is not JSON — but what it lists is counted and priced like a JSON
array's elements. Read only when the records are the answer: a fence marked yaml, yml or toml around
the whole of it, or the whole answer parsing to records; prose around them is Markdown's to read.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the same parser, as a package before 3.11
    import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]

from gate.files.yamlsafe import StrictLoader
from gate.text.jsonanswer import main_array

_FENCE_RE = re.compile(r"\A(?P<fence>```|~~~)[ \t]*(?P<kind>yaml|yml|toml)[ \t]*\r?\n(?P<body>.*)\r?\n(?P=fence)\Z",
                       re.DOTALL | re.IGNORECASE)
_TOML_TABLE_RE = re.compile(r"^\s*\[\[?[A-Za-z_][\w.-]*\]\]?\s*$", re.MULTILINE)
# Unfenced YAML records open with a key ("headphones:") or a list entry's key ("- name: Bose").
_YAML_OPENING_RE = re.compile(r"(?:-[ \t]+)?[A-Za-z_][\w-]*:(?:[ \t]|$)", re.MULTILINE)
MAX_CHARS = 200_000  # records longer than this are no answer to a request for a few picks
_MAX_DEPTH = 20


def _plain(value: Any, depth: int = 0) -> Any:
    """The parsed value as JSON would hold it: dates and other scalars as their text."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(value, dict):
        return {str(key): _plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item, depth + 1) for item in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _parse(text: str, kind: str) -> Any:
    try:
        if kind == "toml":
            return tomllib.loads(text)
        return yaml.load(text, Loader=StrictLoader)  # the safe loader: alias bombs refused
    except (yaml.YAMLError, tomllib.TOMLDecodeError, ValueError, TypeError, OverflowError, RecursionError):
        return None


def data_records(answer: str) -> list[Any] | None:
    """The records a YAML or TOML answer lists (a list of mappings), or None."""
    text = answer.lstrip("\ufeff").strip()
    if not text or len(text) > MAX_CHARS:
        return None
    fenced = _FENCE_RE.match(text)
    if fenced:
        kinds = ["toml" if fenced.group("kind").lower() == "toml" else "yaml"]
        text = fenced.group("body")
    elif _TOML_TABLE_RE.search(text):
        kinds = ["toml"]
    elif _YAML_OPENING_RE.match(text):
        kinds = ["yaml"]
    else:  # prose or Markdown: not parsed as YAML at all, which most answers would cost for nothing
        return None
    for kind in kinds:
        value = _plain(_parse(text, kind))
        found = main_array(value) if isinstance(value, (dict, list)) else None
        if found is not None and found[1] and all(isinstance(record, dict) and len(record) >= 2 for record in found[1]):
            return found[1]
    return None
