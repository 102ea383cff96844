"""Numbers that are numbers: no boolean where a count is expected, no NaN or infinity anywhere.

pydantic's lax mode reads ``true`` as 1 and ``no`` as 0 for an int field, and YAML's ``.nan`` /
``.inf`` are floats like any other — so ``exact: true`` would ask for one item, and ``max: .inf``
or ``min_a: .nan`` would give a check that can never fail. :class:`StrictValues` refuses them
while the file is loaded, naming the field, instead.
"""

from __future__ import annotations

import math
import types
import typing
from functools import cache
from typing import Any, ClassVar, Literal, Union

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from gate.model import Model

_NoneType = type(None)


def _members(annotation: Any) -> tuple[Any, ...]:
    """The alternatives of a union (Optional included), else the annotation itself; Annotated unwrapped."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return tuple(m for arg in typing.get_args(annotation) for m in _members(arg))
    return (annotation,)


def _admits_bool(member: Any) -> bool:
    if member is bool or member is Any or member is object:
        return True
    if typing.get_origin(member) is Literal:
        return any(isinstance(v, bool) for v in typing.get_args(member))
    return False


def _is_number(member: Any) -> bool:
    return member in (int, float)


def _inner(members: tuple[Any, ...], value: Any) -> list[tuple[str, Any, Any]]:
    """(place, annotation, value) of each element of a list/tuple/dict ``value``."""
    for member in members:
        if member in (Any, dict, list, tuple):
            break
        origin, args = typing.get_origin(member), typing.get_args(member)
        if isinstance(value, dict) and origin is dict and len(args) == 2:
            return [(str(k), args[1], v) for k, v in value.items()]
        if isinstance(value, (list, tuple)) and origin in (list, tuple, set, frozenset) and args:
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                return [(f"[{i}]", args[i] if i < len(args) else Any, v) for i, v in enumerate(value)]
            return [(f"[{i}]", args[0], v) for i, v in enumerate(value)]
    else:
        return []  # a nested model or another type: it checks its own values
    # Any (or an untyped container): only non-finite numbers can be told apart from intent here
    if isinstance(value, dict):
        return [(str(k), Any, v) for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [(f"[{i}]", Any, v) for i, v in enumerate(value)]
    return []


def _join(place: str, part: str) -> str:
    return f"{place}{part}" if part.startswith("[") or not place else f"{place}.{part}"


def loose_value(annotation: Any, value: Any) -> str | None:
    """Why ``value`` is not the number ``annotation`` expects (with where inside it), or None.

    Iterative over nested containers, so a deeply nested value cannot exhaust the stack.
    """
    pending: list[tuple[str, Any, Any]] = [("", annotation, value)]
    while pending:
        place, annotation, value = pending.pop()
        members = _members(annotation)
        problem = None
        if isinstance(value, bool):
            if any(_is_number(m) for m in members) and not any(_admits_bool(m) for m in members):
                problem = f"a boolean ({str(value).lower()}) where a number is expected"
        elif isinstance(value, float) and not math.isfinite(value):
            problem = f"not a finite number ({value})"
        elif isinstance(value, (dict, list, tuple)):
            pending.extend((_join(place, part), ann, v) for part, ann, v in reversed(_inner(members, value)))
        if problem:
            return f"{problem} at {place}" if place else problem
    return None


def _walked(annotation: Any) -> bool:
    """Whether a container under ``annotation`` can hold what :func:`loose_value` refuses where
    no nested model would check it: a number, ``Any`` or an untyped container somewhere in it.
    A tuple of messages or of constraints cannot (each model checks its own values), so most of a
    case's containers need no walk."""
    for member in _members(annotation):
        origin, args = typing.get_origin(member), typing.get_args(member)
        if origin in (dict, list, tuple, set, frozenset):
            if any(_walked(arg) for arg in args if arg is not Ellipsis) or not args:
                return True
        elif origin is Literal or member in (str, _NoneType, bool):
            continue
        elif not (isinstance(member, type) and issubclass(member, BaseModel)):
            return True  # a number, Any, an untyped container, or a type not known here
    return False


@cache
def _field_walked(model: type[BaseModel], name: str) -> bool:
    return _walked(model.model_fields[name].annotation)


_PLAIN = (str, int, _NoneType)  # type() is exact: a bool is not an int here


class StrictValues(Model):
    """A model base whose fields refuse booleans as numbers and NaN/infinity, with a clear message."""

    model_config = ConfigDict(allow_inf_nan=False)

    checked_elsewhere: ClassVar[frozenset[str]] = frozenset()
    """Fields another model validates with their real types (a constraint's checker params)."""

    @field_validator("*", mode="before")
    @classmethod
    def _numbers_are_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if type(value) in _PLAIN or (type(value) is float and math.isfinite(value)):
            return value  # nothing here to refuse (most values of a case): skip the walk
        if info.field_name is None or info.field_name in cls.checked_elsewhere:
            return value
        if isinstance(value, (dict, list, tuple)) and not _field_walked(cls, info.field_name):
            return value
        problem = loose_value(cls.model_fields[info.field_name].annotation, value)
        if problem:
            raise ValueError(problem)
        return value


class StrictConfig(StrictValues):
    """A gate.yaml section: strict values, no unknown key, immutable once read."""

    model_config = ConfigDict(extra="forbid", frozen=True)
