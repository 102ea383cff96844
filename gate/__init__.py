"""agent-gate: a CI regression gate for LLM agent instruction following.

The public API: load cases, judge trajectories, compute metrics. Submodules load lazily so the
`gate` command starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Case": "gate.case",
    "CaseSet": "gate.cases.loader",
    "GateError": "gate.errors",
    "RunVerdict": "gate.verdict",
    "Status": "gate.verdict",
    "ToolCall": "gate.trajectory",
    "Trajectory": "gate.trajectory",
    "evaluate": "gate.judging.evaluate",
    "load_cases": "gate.cases.loader",
    "REGISTRY": "gate.checkers",
}

__all__ = [
    "REGISTRY",
    "Case",
    "CaseSet",
    "GateError",
    "RunVerdict",
    "Status",
    "ToolCall",
    "Trajectory",
    "evaluate",
    "load_cases",
]
assert sorted(__all__) == sorted(_EXPORTS)

if TYPE_CHECKING:
    from gate.case import Case
    from gate.cases.loader import CaseSet, load_cases
    from gate.checkers import REGISTRY
    from gate.errors import GateError
    from gate.judging.evaluate import evaluate
    from gate.trajectory import ToolCall, Trajectory
    from gate.verdict import RunVerdict, Status


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gate' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def _take_stops_from_the_start() -> None:
    # The `gate` script imports this package first: from here on a stop while the command line
    # loads is remembered for the command (gate.process.interrupts), not a traceback or a bare exit 143.
    from gate.process import interrupts

    if interrupts.running_as_gate():
        interrupts.take_stop_signals()


_take_stops_from_the_start()
