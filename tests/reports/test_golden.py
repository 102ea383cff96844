"""Golden files for the rendered reports. Rewrite them with GATE_UPDATE_GOLDEN=1 after a deliberate change."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gate.report import comment, junit, terminal
from gate.report.model import GateReport

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize(("name", "render"), [
    ("comment.md", lambda r: comment.render(r)),
    ("junit.xml", lambda r: "".join(junit.render(r))),
    ("terminal.txt", lambda r: terminal.summary(r, {"results": Path("gate-results/results.json")})),
])
def test_rendered_report_matches_its_golden_file(mixed_report: GateReport, name: str, render) -> None:  # type: ignore[no-untyped-def]
    text = render(mixed_report)
    path = GOLDEN / name
    if os.environ.get("GATE_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; rerun with GATE_UPDATE_GOLDEN=1 if intended"
