"""Shared fixtures: a subject built from an answer and tool calls, and a one-call judge."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from gate.checkers import REGISTRY
from gate.subject import Subject
from gate.trajectory import Trajectory
from gate.verdict import Outcome

SubjectFactory = Callable[..., Subject]
Judge = Callable[..., Outcome]


def build_subject(answer: str = "", tool_calls: Sequence[dict[str, Any]] = ()) -> Subject:
    """A group-A run-0 trajectory of case T with this answer and these tool calls."""
    return Subject(Trajectory.model_validate(
        {"case_id": "T", "group": "A", "run": 0, "final_answer": answer, "tool_calls": list(tool_calls)}
    ))


def run_checker(check: str, params: dict[str, Any], answer: str = "",
                tool_calls: Sequence[dict[str, Any]] = ()) -> Outcome:
    """Validate ``params`` with the checker's model and judge the subject, as the evaluator does."""
    checker = REGISTRY[check]
    return checker(build_subject(answer, tool_calls), checker.params.model_validate(params))


@pytest.fixture
def subject_of() -> SubjectFactory:
    return build_subject


@pytest.fixture
def judge() -> Judge:
    return run_checker
