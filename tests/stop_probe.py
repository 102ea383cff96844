"""`gate` with one pause point, for the stop tests: run as ``python stop_probe.py <gate arguments>``
(with no ``GATE_PROBE_AT``, the gate as it is).

At the point named by ``GATE_PROBE_AT`` the gate touches ``$GATE_PROBE_DIR/<point>`` and waits until
``$GATE_PROBE_DIR/go`` exists. A test waits for the first file, signals, then creates the second: the
signal lands while the gate is at that point, however slow the machine, instead of after a delay
guessed to fall into it. The points (each pauses once):

- ``starting``: once the options are read, before the command is chosen (the process still starting)
- ``loading``: before the cases of `gate check` are loaded
- ``judging``: inside the first ``items:count`` check of a run
- ``writing`` / ``written``: before / after `gate check` writes its reports
- ``verdict``: once the reports are settled, before the closing line is printed
- ``baseline-diff``: before `gate baseline update` compares the new baseline with the old
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PAUSE_LIMIT_S = 120.0
"""A pause that no test ends (a test that failed before creating ``go``) ends by itself."""


def pause(point: str) -> None:
    directory = Path(os.environ["GATE_PROBE_DIR"])
    (directory / point).touch()
    deadline = time.monotonic() + PAUSE_LIMIT_S
    while not (directory / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.005)


def _once(point: str, function: Callable[..., Any], *, after: bool = False) -> Callable[..., Any]:
    paused = False

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nonlocal paused
        first, paused = not paused, True
        if first and not after:
            pause(point)
        result = function(*args, **kwargs)
        if first and after:
            pause(point)
        return result

    return wrapper


def install(point: str) -> None:
    """Wrap what the gate calls at ``point`` (looked up at call time, so patched in its module)."""
    if point == "starting":
        from gate.cli.group import GateGroup

        GateGroup.resolve_command = _once(point, GateGroup.resolve_command)  # type: ignore[method-assign]
        return
    if point == "judging":
        from gate.checkers import REGISTRY
        from gate.checkers.base import Checker

        original = REGISTRY["items:count"]
        REGISTRY["items:count"] = Checker(original.id, original.params, _once(point, original.run), original.summary)
        return
    import gate.commands.baseline
    import gate.commands.check
    import gate.report.terminal

    module, name, after = {
        "loading": (gate.commands.check, "load_cases", False),
        "writing": (gate.commands.check, "write_reports", False),
        "written": (gate.commands.check, "write_reports", True),
        "verdict": (gate.report.terminal, "summary", False),
        "baseline-diff": (gate.commands.baseline, "diff", False),
    }[point]
    setattr(module, name, _once(point, getattr(module, name), after=after))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    if os.environ.get("GATE_PROBE_AT"):
        install(os.environ["GATE_PROBE_AT"])
    from gate.cli.app import main

    main(sys.argv[1:], prog_name="gate")
