"""The GitHub wing is delivery only: it reads the reports' files, never the report or runner code."""

from __future__ import annotations

import ast
from pathlib import Path

GITHUB = Path(__file__).resolve().parents[2] / "gate" / "github"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    found |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    return found


def test_no_github_module_imports_the_report_or_runner_wings() -> None:
    crossing = {path.name: sorted(m for m in _imports(path) if m.startswith(("gate.report", "gate.runner")))
                for path in sorted(GITHUB.glob("*.py"))}
    assert {name: found for name, found in crossing.items() if found} == {}
