"""The package's imports flow one way: cli → commands → pipeline → semantic tier → report → policy →
scoring → judging → checkers, runner, runs, cases, baseline, config → contracts → text → lexicon → net → base. A
module imports only modules of its own room or of rooms below it, so no lower layer reaches for a command. The
tree is the map: each room is a package or a few, and CONTRIBUTING.md's table is held to ROOMS."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gate"

# Lowest room first; a module belongs to the room of the longest prefix that names it. A room lists
# packages, and the few top-level modules that are contracts (or the package's entry points).
ROOMS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("gate.errors", "gate.model", "gate.files", "gate.redaction", "gate.formats", "gate.process")),
    ("net", ("gate.net",)),
    ("lexicon", ("gate.lexicon",)),
    ("text", ("gate.text",)),
    ("contracts", ("gate.case", "gate.tool_intercept", "gate.trajectory", "gate.verdict", "gate.results", "gate.subject")),
    ("services", ("gate.checkers", "gate.runner", "gate.runs", "gate.cases", "gate.baseline", "gate.config", "gate.github")),
    ("judging", ("gate.judging",)),
    ("scoring", ("gate.scoring",)),
    ("policy", ("gate.policy",)),
    ("report", ("gate.report",)),
    ("semantic", ("gate.semantic",)),
    ("pipeline", ("gate.pipeline",)),
    ("commands", ("gate.commands",)),
    ("cli", ("gate.cli", "gate.__main__")),
]
TOP_LEVEL_MODULES = 12
"""gate/ keeps its entry points and contracts at the top; every other module lives in a package named for its role."""


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


def test_gate_keeps_few_top_level_modules() -> None:
    """A newcomer opening gate/ sees the entry points, the contracts and the role packages, not a flat list."""
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= TOP_LEVEL_MODULES, (f"{len(top)} modules at the top of gate/ (at most {TOP_LEVEL_MODULES}): "
                                           f"move one into the package of its role: {top}")


def test_every_package_is_in_a_room() -> None:
    """A room names packages: a new package is placed in the layers on purpose, not by a prefix it happens to share."""
    named = {prefix for _, prefixes in ROOMS for prefix in prefixes}
    packages = {m for m, path in MODULES.items() if path.name == "__init__.py" and m.count(".") == 1}
    assert packages <= named, sorted(packages - named)
    assert all(prefix in MODULES for prefix in named), sorted(named - set(MODULES))


def _where_things_live() -> list[tuple[str, list[str]]]:
    text = (PACKAGE.parent / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Where things live", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("| ")]
    return [(room.strip(), re.findall(r"`(gate/[^`]*)`", where)) for room, where, _ in rows[1:]]


def _path_of(prefix: str) -> str:
    path = prefix.replace(".", "/")
    return f"{path}/" if (PACKAGE.parent / path).is_dir() else f"{path}.py"


def test_contributing_names_every_room_and_package_in_order() -> None:
    """CONTRIBUTING.md's "Where things live" table is ROOMS, highest room first: the same rooms, and in each
    the same packages and modules in the same order, so the map a newcomer reads cannot drift from the one
    the build holds."""
    documented = _where_things_live()
    expected = [(name, [_path_of(prefix) for prefix in prefixes]) for name, prefixes in reversed(ROOMS)]
    assert [room for room, _ in documented] == [room for room, _ in expected], "the rooms, highest first"
    for (room, paths), (_, wanted) in zip(documented, expected, strict=True):
        assert paths == wanted, f"CONTRIBUTING.md's {room} row: {paths}; ROOMS: {wanted}"
