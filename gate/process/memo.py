"""Values made once per object that many runs share (a deterministic agent's repeats share one
verdict's constraints, and one metadata dict when they recorded the same)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
V = TypeVar("V")


class ByIdentity(Generic[T]):
    """What was made for an object, by its identity (and ``extra``). Each object is kept with what was
    made for it, so that its id() cannot be reused meanwhile; at most ``limit`` are kept."""

    def __init__(self, limit: int = 1024) -> None:
        self._limit = limit
        self._made: dict[tuple[int, Hashable], tuple[object, T]] = {}

    def get(self, anchor: object, make: Callable[[V], T], value: V, extra: Hashable = None) -> T:
        """``make(value)``, made once for ``anchor`` (and ``extra``): what ``value`` holds of it."""
        key = (id(anchor), extra)
        found = self._made.get(key)
        if found is None:
            if len(self._made) >= self._limit:
                self._made.clear()
            found = self._made[key] = (anchor, make(value))
        return found[1]
