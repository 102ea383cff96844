"""Atomic file writes: a report is either the old file or the whole new one, never half."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8, LF) to ``path`` through a temporary file and a rename."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes 0600 files; reports and baselines are ordinary files (umask applies).
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        # A lone surrogate from an agent must not cost the whole report: it becomes '?'.
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def dump_json(data: Any) -> str:
    """Deterministic JSON: sorted keys, two-space indent, real UTF-8, trailing newline.

    Strict RFC 8259: a NaN or infinity that reached a report is a bug, raised, never written.
    """
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_json(path: str | os.PathLike[str], data: Any) -> Path:
    """Write ``data`` as deterministic JSON, atomically."""
    return write_text(path, dump_json(data))
