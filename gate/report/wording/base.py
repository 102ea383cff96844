"""The one entry point of the wording: a renderer per kind of reason, registered by the modules of
this package (imported here, so every kind has its words once this module is loaded)."""

from __future__ import annotations

from functools import singledispatch

from gate.policy.reasons import Reason, Said


@singledispatch
def words(reason: Reason) -> str:
    """The line that says ``reason``."""
    raise TypeError(f"no wording for a reason of kind {type(reason).__name__}")


@words.register
def _said(reason: Said) -> str:
    return reason.text
