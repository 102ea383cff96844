"""Every checker judged on its example files (tests/checkers/example_files.py); the test id is
``<checker>/<file>/<case id>``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.checkers import REGISTRY
from gate.verdict import Outcome, Status
from tests.checkers.example_files import ALL, EXAMPLES, Example, check_id

Judge = Callable[..., Outcome]


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
    directories = {check_id(d) for d in EXAMPLES.iterdir() if d.is_dir()}
    assert directories - set(REGISTRY) == set()


def test_example_ids_are_unique_per_checker() -> None:
    keys = [(check, example.id) for check, _, example in ALL]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
