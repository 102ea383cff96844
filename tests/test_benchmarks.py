"""The benchmark scripts still start: each imports what it measures (and bench_all.py the others'
helpers), so a renamed function or module would otherwise be found only when someone measures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("bench_*.py"))


def test_every_benchmark_is_found() -> None:
    assert "bench_all.py" in {script.name for script in SCRIPTS}
    assert len(SCRIPTS) >= 9


@pytest.mark.slow  # an interpreter per script
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda script: script.name)
def test_benchmark_starts(script: Path) -> None:
    result = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60,
                            cwd=BENCHMARKS.parent)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: {script.name}")
