"""The checker contract: a subject and that checker's validated parameters in, an outcome out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import ConfigDict, model_validator

from gate.files.strictvalues import StrictValues
from gate.model import SharedFieldNames
from gate.subject import Subject
from gate.verdict import Outcome


class Params(SharedFieldNames, StrictValues):
    """Base of every checker's parameters: unknown keys are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    shared_last: ClassVar[tuple[str, ...]] = ()
    """Options a family of checks shares, which the reference lists after each check's own."""


class CountBounds(Params):
    """exact / min / max: at least one; exact excludes the others."""

    exact: int | None = None
    min: int | None = None
    max: int | None = None

    @model_validator(mode="after")
    def _coherent(self) -> CountBounds:
        if self.exact is None and self.min is None and self.max is None:
            raise ValueError("give exact, min or max")
        if self.exact is not None and (self.min is not None or self.max is not None):
            raise ValueError("exact cannot be combined with min or max")
        for name in ("exact", "min", "max"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be ≥ 0")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self

    def admits(self, value: float) -> bool:
        if self.exact is not None:
            return value == self.exact
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def describe(self) -> str:
        if self.exact is not None:
            return f"exactly {self.exact}"
        if self.min is not None and self.max is not None:
            return f"{self.min}–{self.max}"
        if self.min is not None:
            return f"at least {self.min}"
        return f"at most {self.max}"


P = TypeVar("P", bound=Params)


@dataclass(frozen=True)
class Checker(Generic[P]):
    """A registered checker: its id, its parameter model and the function that judges."""

    id: str
    params: type[P]
    run: Callable[[Subject, P], Outcome]
    summary: str

    def __call__(self, subject: Subject, params: Any) -> Outcome:
        return self.run(subject, params)


def checker(id: str, params: type[P], summary: str) -> Callable[[Callable[[Subject, P], Outcome]], Checker[P]]:
    """Wrap a judging function as a :class:`Checker` (registration is the explicit table)."""

    def wrap(function: Callable[[Subject, P], Outcome]) -> Checker[P]:
        return Checker(id=id, params=params, run=function, summary=summary)

    return wrap


def quote(text: str, limit: int = 24) -> str:
    """A short, single-line excerpt for details."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
