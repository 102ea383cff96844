"""The checkers' example files, tests/checkers/examples/<id with ':' → '__'>/*.yaml, read once: the
example tests judge each, the property tests and the linear-time probe take the richest parameters.

Each file is a list of cases ``{id, params, answer | tool_calls, expect, detail_contains?}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

EXAMPLES = Path(__file__).parent / "examples"


class Example(BaseModel):
    """One example case as written in an example file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    params: dict[str, Any] = Field(default_factory=dict)
    answer: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    expect: Literal["pass", "fail", "error"]
    detail_contains: str | None = None


def check_id(directory: Path) -> str:
    return directory.name.replace("__", ":")


def _load() -> list[tuple[str, str, Example]]:
    found = []
    for path in sorted(EXAMPLES.glob("*/*.yaml")):
        try:
            raw = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)  # C: read at collection
            assert isinstance(raw, list), "an example file is a list of cases"
            examples = [Example.model_validate(entry) for entry in raw]
        except (yaml.YAMLError, ValueError, AssertionError) as exc:
            raise AssertionError(f"{path}: {exc}") from None
        found += [(check_id(path.parent), path.stem, example) for example in examples]
    return found


ALL = _load()
"""(checker id, file stem, example) for every example."""


def _representative_params() -> dict[str, dict[str, Any]]:
    """Per checker, the richest parameters its examples use (most keys set, then most text, the first
    on a tie) — the most paths exercised: a new checker needs no entry here, only its examples.
    A case author's own regex (``re:…``) is passed over: what it costs on hostile text is the
    author's, bounded by the judging budget (tests/test_budget.py), not a property of the checker."""
    def richness(params: dict[str, Any]) -> tuple[bool, int, int]:
        text = json.dumps(params, ensure_ascii=False)
        return '"re:' not in text, len(params), len(text)

    best: dict[str, dict[str, Any]] = {}
    for check, _, example in ALL:
        if check not in best or richness(example.params) > richness(best[check]):
            best[check] = example.params
    return best


PARAMS: dict[str, dict[str, Any]] = _representative_params()
