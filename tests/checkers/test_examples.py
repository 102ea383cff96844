"""Every checker judged on its example files: tests/checkers/examples/<id with ':' → '__'>/*.yaml.

Each file is a list of cases ``{id, params, answer | tool_calls, expect, detail_contains?}``; the
test id is ``<checker>/<file>/<case id>``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field

from gate.checkers import REGISTRY
from gate.verdict import Outcome, Status

Judge = Callable[..., Outcome]

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


def _check_id(directory: Path) -> str:
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
        found += [(_check_id(path.parent), path.stem, example) for example in examples]
    return found


ALL = _load()


@pytest.mark.parametrize(
    ("check", "example"),
    [(check, example) for check, _, example in ALL],
    ids=[f"{check}/{file}/{example.id}" for check, file, example in ALL],
)
def test_example(check: str, example: Example, judge: Judge) -> None:
    outcome = judge(check, example.params, example.answer, example.tool_calls)
    assert outcome.status is Status(example.expect), outcome.detail
    if example.detail_contains is not None:
        assert example.detail_contains in outcome.detail


def test_every_checker_has_pass_and_fail_examples() -> None:
    seen: dict[str, set[str]] = {}
    for check, _, example in ALL:
        seen.setdefault(check, set()).add(example.expect)
    lacking = {check: sorted({"pass", "fail"} - seen.get(check, set())) for check in REGISTRY}
    assert {check: missing for check, missing in lacking.items() if missing} == {}


def test_example_directories_name_registered_checkers() -> None:
    directories = {_check_id(d) for d in EXAMPLES.iterdir() if d.is_dir()}
    assert directories - set(REGISTRY) == set()


def test_example_ids_are_unique_per_checker() -> None:
    keys = [(check, example.id) for check, _, example in ALL]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
