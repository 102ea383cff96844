"""The on-disk answer cache: an unchanged rerun makes no agent call.

The key is the SHA-256 of the canonical JSON of {identity, adapter, endpoint, request}; only
successful trajectories are stored, one file each, written atomically (a temporary file renamed
into place) but without fsync: the cache is disposable, and an entry lost or truncated by a crash
reads as a miss. An fsync per entry would stall the event loop for every answer. For the same
reason a cache that cannot be written (disk full, its path a file) never fails the run: one
warning, and the run goes on without storing answers.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gate import safejson
from gate.atomic import replace_text
from gate.trajectory import Trajectory

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


def cache_key(identity: str | None, adapter: str, endpoint: Any, request: dict[str, Any]) -> str:
    """The hex digest that names a request's cached answer."""
    canonical = json.dumps(
        {"identity": identity, "adapter": adapter, "endpoint": endpoint, "request": request},
        ensure_ascii=False, sort_keys=True, separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


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


class Cache:
    """Trajectories by key (a :class:`JsonStore` of trajectory records)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._store = JsonStore(directory)

    def get(self, key: str, expect: tuple[str, str, int] | None = None) -> Trajectory | None:
        """The stored trajectory, or None: absent, unreadable, corrupt, from an incompatible
        version, not a regular file (a FIFO must not block the run), or — with ``expect`` — a record
        of another (case, group, run) than the one asked for (a tampered cache never answers for
        the wrong case)."""
        data = self._store.get(key)
        if data is None:
            return None
        try:
            found = Trajectory.model_validate(data)
        except ValidationError:
            return None
        if expect is not None and (found.case_id, found.group, found.run) != expect:
            return None
        return found

    def put(self, key: str, trajectory: Trajectory) -> None:
        """Store a successful trajectory; failed calls are never cached, and a failed write is no error."""
        if trajectory.error is None:
            self._store.put(key, trajectory.model_dump_json())
