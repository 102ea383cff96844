"""The package's imports flow one way: cli → commands → pipeline → semantic tier → report → policy →
scoring → judging → checkers, runner, loader, baseline, config → contracts → text → lexicon → net → base. A module
imports only modules of its own room or of rooms below it, so no lower layer reaches for a command."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gate"

# Lowest room first; a module belongs to the room of the longest prefix that names it.
ROOMS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("gate.errors", "gate.model", "gate.files", "gate.redaction", "gate.formats", "gate.process")),
    ("net", ("gate.net",)),
    ("lexicon", ("gate.lexicon",)),
    ("text", ("gate.text",)),
    ("contracts", ("gate.case", "gate.tool_intercept", "gate.trajectory", "gate.verdict", "gate.results", "gate.subject")),
    ("services", ("gate.checkers", "gate.runner", "gate.github", "gate.runs", "gate.config", "gate.cases", "gate.baseline")),
    ("judging", ("gate.judging",)),
    ("scoring", ("gate.scoring",)),
    ("policy", ("gate.policy",)),
    ("report", ("gate.report",)),
    ("semantic", ("gate.semantic",)),
    ("pipeline", ("gate.pipeline",)),
    ("commands", ("gate.commands",)),
    ("cli", ("gate.__main__", "gate.cli")),
]


def room_of(module: str) -> int:
    best = max(((len(prefix), rank) for rank, (_, prefixes) in enumerate(ROOMS) for prefix in prefixes
                if module == prefix or module.startswith(prefix + ".")), default=None)
    assert best is not None, f"{module} is in no room: add it to ROOMS"
    return best[1]


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def imports_of(path: Path) -> set[str]:
    """Every gate module a file imports, at the top or inside a function (a lazy import is still one)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "gate":
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                found.add(name if name in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "gate"}
    return found


@pytest.mark.parametrize("module", sorted(set(MODULES) - {"gate"}))
def test_no_import_climbs_to_a_higher_room(module: str) -> None:
    own = room_of(module)
    higher = sorted(f"{target} ({ROOMS[room_of(target)][0]})" for target in imports_of(MODULES[module])
                    if target != "gate" and room_of(target) > own)
    assert not higher, f"{module} ({ROOMS[own][0]}) imports {higher}"


def test_every_room_is_used() -> None:
    assert {room_of(m) for m in MODULES if m != "gate"} == set(range(len(ROOMS)))


def test_modules_stay_small() -> None:
    """A module over about 300 lines holds more than one job: split it by role."""
    long = {m: n for m, path in MODULES.items() if (n := len(path.read_text(encoding="utf-8").splitlines())) > 300}
    assert not long, long
