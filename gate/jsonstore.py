"""JSON documents on disk by key, for the caches (answers, judge replies, kept verdicts, parsed case
files): written atomically without fsync — a cache is disposable, and an entry lost or truncated by
a crash reads as a miss — and read only from regular files of bounded size."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

from gate import safejson
from gate.atomic import replace_text

MAX_ENTRY_BYTES = 10 * 1024 * 1024
"""An entry larger than an agent's answer may be (the adapters' output cap) is not read."""


def _read_regular(path: Path) -> bytes | None:
    """The bytes of a regular file of at most MAX_ENTRY_BYTES; None for anything else.

    Opened non-blocking and checked before reading: a FIFO or a device planted in the cache
    would otherwise block the event loop for ever."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(MAX_ENTRY_BYTES + 1)
    finally:
        os.close(fd)


class JsonStore:
    """JSON documents by key under ``directory/<key[:2]>/<key>.json``, written atomically without
    fsync; anything unreadable reads as a miss and a failed write only warns (once)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._writable = True

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Any:
        """The stored document, or None when absent, unreadable, corrupt or not a regular file."""
        try:
            data = _read_regular(self._path(key))
            return safejson.loads(data) if data is not None else None
        except (OSError, ValueError):
            return None

    def put(self, key: str, text: str) -> None:
        """Store ``text`` (a JSON document); a failed write is a warning, and the store stops writing."""
        if not self._writable:
            return
        try:
            self._write(self._path(key), text)
        except OSError as exc:
            self._writable = False
            print(f"gate: warning: cannot write to the cache at {self.directory} ({exc}); continuing without caching",
                  file=sys.stderr)

    def _write(self, target: Path, text: str) -> None:
        replace_text(target, text, durable=False)  # a lost entry is only a cache miss
