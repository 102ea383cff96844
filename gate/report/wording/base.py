"""The one entry point of the wording: :func:`words` dispatches on the kind of reason to the renderer
a module of this package registered for it (the package imports them all)."""

from __future__ import annotations

from functools import singledispatch

from gate.policy.reasons import Reason


@singledispatch
def words(reason: Reason) -> str:
    """The line that says ``reason``."""
    raise TypeError(f"no wording for a reason of kind {type(reason).__name__}")
