"""Compile the gate's modules before a benchmark times processes that import them.

An installed package has its bytecode compiled (pip does it on install), but a checkout may not: with
PYTHONDONTWRITEBYTECODE set, or after an edit, every `gate` process compiles the modules it imports
again — about 70 ms for `gate check` here, which the figures would then count as the gate's cost.
"""

from __future__ import annotations

import compileall
import importlib.util
from pathlib import Path


def compile_package() -> None:
    """Write the bytecode of every module of the ``gate`` package the benchmark's processes will
    import (this checkout's, or the one PYTHONPATH names) whose source changed since it was
    compiled; compileall writes it even under PYTHONDONTWRITEBYTECODE."""
    spec = importlib.util.find_spec("gate")
    if spec is None or spec.origin is None:
        raise SystemExit("the gate package is not installed: pip install -e .")
    package = Path(spec.origin).parent
    if not compileall.compile_dir(str(package), quiet=1):
        raise SystemExit(f"could not compile the modules under {package}")
