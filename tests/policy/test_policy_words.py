"""gate/policy/ decides and returns reasons; the words are gate/report/wording's.

A policy module that builds text (an f-string, ``str.format``, ``%``, ``+`` or ``join`` on a string)
is saying something a reader sees, which is the report's job: these tests find every such expression.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

POLICY = Path(__file__).resolve().parents[2] / "gate" / "policy"

ALLOWED: dict[tuple[str, str], str] = {
    ("drift_choice.py", 'f"group {name}"'): "a case group's key among the dimensions, as results.json keys it",
}
"""Text a policy module must build, by (module, expression), each with why."""


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _builds_text(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"):
        return _is_text(node.func.value)
    return isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)) and (
        _is_text(node.left) or _is_text(node.right))


def _text_built(tree: ast.AST) -> list[ast.expr]:
    """The expressions that build text: f-strings, ``"…".format``/``"…".join``, ``"…" % x``, ``"…" + x``;
    the outermost only."""
    found = [node for node in ast.walk(tree) if isinstance(node, ast.expr) and _builds_text(node)]
    inner = {id(n) for node in found for n in ast.walk(node) if n is not node}
    return [node for node in found if id(node) not in inner]


def _offences(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    found = []
    for node in _text_built(ast.parse(source)):
        segment = ast.get_source_segment(source, node) or ""
        if (path.name, segment) not in ALLOWED:
            found.append(f"{path.name}:{node.lineno}: {segment[:80]}")
    return found


MODULES = sorted(path for path in POLICY.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(POLICY)))
def test_policy_builds_no_text(path: Path) -> None:
    """A policy module returns numbers and reasons; the words are :mod:`gate.report.wording`'s."""
    assert not _offences(path), _offences(path)


def test_every_allowed_expression_is_still_there() -> None:
    stale = [key for key in ALLOWED if key[1] not in (POLICY / key[0]).read_text(encoding="utf-8")]
    assert not stale, stale


def test_the_check_finds_each_way_of_building_text() -> None:
    source = 'a = f"{x} runs"\nb = "{} runs".format(x)\nc = "%d runs" % x\nd = "runs: " + x\ne = ", ".join(x)\n' \
             'f = float(x)\ng = "a constant"\nh = round(x, 4)\n'
    assert len(_text_built(ast.parse(source))) == 5
