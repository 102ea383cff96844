"""Atomic file writes: a report is either the old file or the whole new one, never half.

A set of reports is all-or-nothing too: every file is written to a temporary name first, and only
when all of them are on disk are they renamed into place — a full disk leaves the old set whole.
A write that fails is one clear GateError naming the file and the reason (ENOSPC, EACCES …).
Every report passes gate/redaction/secrets.py on its way: no secret, in any spelling, lands in one.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gate.errors import GateError
from gate.redaction.secrets import public, public_pieces

Text = str | Iterable[str]
"""A file's text, whole or in pieces (a large report is written as it is encoded, never held whole)."""


def _failure(path: Path, exc: OSError) -> GateError:
    code = errno.errorcode.get(exc.errno or 0, "")
    reason = exc.strerror or str(exc)
    return GateError(f"cannot write: {reason}{f' ({code})' if code else ''}", where=str(path))


def stage(target: Path, text: Text, *, durable: bool = True) -> Path:
    """``text`` (UTF-8, LF; a string or its pieces) in a temporary file beside ``target``; flushed to disk when ``durable``
    (reports, baselines) — a cache entry need not be. Raises OSError, leaving nothing behind."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:16]}.", suffix=".tmp", dir=target.parent)
    try:
        # mkstemp makes 0600 files; reports and baselines are ordinary files (umask applies).
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        # A lone surrogate from an agent must not cost the whole report: it becomes '?'.
        with os.fdopen(fd, "w", encoding="utf-8", errors="replace", newline="\n") as handle:
            if isinstance(text, str):
                handle.write(text)
            else:
                handle.writelines(text)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def replace_text(target: Path, text: str, *, durable: bool = True) -> None:
    """Write one file through a temporary file and a rename; raises OSError (the cache's write,
    which warns and carries on, where a report's is a GateError)."""
    tmp = stage(target, text, durable=durable)
    try:
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _stage(target: Path, text: Text) -> Path:
    # Reports are read by others (a PR's comment, CI artifacts): the one path past redaction.
    shown: Text = public(text) if isinstance(text, str) else public_pieces(text)
    try:
        return stage(target, shown)
    except OSError as exc:
        raise _failure(target, exc) from None


def write_text(path: str | os.PathLike[str], text: Text) -> Path:
    """Write ``text`` (UTF-8, LF) to ``path`` through a temporary file and a rename."""
    target = Path(path)
    write_set({target: text})
    return target


def write_set(files: Mapping[Path, Text]) -> None:
    """Write every file or none: all are staged first, then renamed into place."""
    staged: dict[Path, Path] = {}
    try:
        for target, text in files.items():
            staged[target] = _stage(target, text)
        for target, tmp in staged.items():
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise _failure(target, exc) from None
    finally:
        for tmp in staged.values():
            tmp.unlink(missing_ok=True)


def check_writable(directory: Path) -> None:
    """Fail early, before any agent call, when ``directory`` cannot be created or written."""
    probe = directory / ".gate-write-probe"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise GateError(f"the report directory cannot be written: {exc.strerror or exc}", where=str(directory)) from None


def dump_json(data: Any) -> str:
    """Deterministic JSON: sorted keys, two-space indent, real UTF-8, trailing newline.

    Strict RFC 8259: a NaN or infinity that reached a report is a bug, raised, never written.
    """
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False) + "\n"


def write_json(path: str | os.PathLike[str], data: Any) -> Path:
    """Write ``data`` as deterministic JSON, atomically."""
    return write_text(path, dump_json(data))
