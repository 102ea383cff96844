"""JSON-Schema references kept inside their schema: a case's ``json:schema`` and a declared tool's
``parameters`` come with a pull request, and a ``$ref`` to another document would have the validator
fetch it (a URL) or fail mid-run (a file). Only references into the schema itself (``#…``) are
followed; anything else is refused when the schema is read, naming the reference and its place."""

from __future__ import annotations

from typing import Any

_REFERENCE_KEYS = ("$ref", "$dynamicRef", "$recursiveRef")


def outside_reference(schema: Any) -> tuple[str, str] | None:
    """The first reference that leaves ``schema``, as (its place, e.g. ``properties.a.$ref``, and its
    value); None when every one points into the schema."""
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:  # iterative: a deep schema costs no recursion
        place, node = stack.pop()
        if isinstance(node, dict):
            for key in _REFERENCE_KEYS:
                value = node.get(key)
                if isinstance(value, str) and not value.startswith("#"):
                    return f"{place}{key}", value
            stack.extend((f"{place}{key}.", value) for key, value in reversed(node.items()) if key not in _REFERENCE_KEYS)
        elif isinstance(node, list):
            stack.extend((f"{place.rstrip('.')}[{index}].", value) for index, value in reversed(list(enumerate(node))))
    return None


def check_references(schema: Any) -> None:
    """A ValueError naming the first reference that leaves ``schema``."""
    found = outside_reference(schema)
    if found is not None:
        place, value = found
        raise ValueError(f"{place}: '{value}' points outside this schema; expected a reference into it ('#/$defs/…')")
