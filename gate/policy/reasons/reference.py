"""Reasons about the base commit a pull request is compared with: its baseline and its bar, read or
not, and what this change lowers of its baseline."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gate.policy.reasons import Reason


@dataclass(frozen=True)
class RefUnreadable(Reason):
    """The base's baseline or bar could not be read at ``ref`` (a shallow checkout, no git): why."""

    what: Literal["baseline", "bar"]
    ref: str
    error: str


@dataclass(frozen=True)
class NoBaselineAt(Reason):
    """The base has no baseline yet: the working tree's is the reference."""

    ref: str


@dataclass(frozen=True)
class NoBarAt(Reason):
    """The base has no gate.yaml (``file``): the bar is this change's own."""

    ref: str
    file: str


@dataclass(frozen=True)
class BaselineUnparsable(Reason):
    """The base's baseline file is there but not a valid baseline: why."""

    ref: str
    error: str


@dataclass(frozen=True)
class ComparedAt(Reason):
    """The comparison is with the baseline at ``ref``."""

    ref: str


@dataclass(frozen=True)
class BaselineLoweredAt(Reason):
    """This change's baseline lowers cases that passed at ``ref``."""

    ref: str
    cases: tuple[str, ...]


@dataclass(frozen=True)
class AcceptancesAdded(Reason):
    """This change's baseline accepts never-rule violations (case, constraint) the base's does not."""

    ref: str
    added: tuple[tuple[str, str], ...]
    acknowledged: bool
