"""The on-disk answer cache: an unchanged rerun makes no agent call.

The key is the SHA-256 of the canonical JSON of {identity, adapter, endpoint, request}; only
successful trajectories are stored, one file each, written atomically (a temporary file renamed
into place) but without fsync: the cache is disposable, and an entry lost or truncated by a crash
reads as a miss. An fsync per entry would stall the event loop for every answer. For the same
reason a cache that cannot be written (disk full, its path a file) never fails the run: one
warning, and the run goes on without storing answers.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gate import safejson
from gate.trajectory import Trajectory


def cache_key(identity: str | None, adapter: str, endpoint: Any, request: dict[str, Any]) -> str:
    """The hex digest that names a request's cached answer."""
    canonical = json.dumps(
        {"identity": identity, "adapter": adapter, "endpoint": endpoint, "request": request},
        ensure_ascii=False, sort_keys=True, separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Cache:
    """Trajectories by key under ``directory/<key[:2]>/<key>.json``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._writable = True

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Trajectory | None:
        """The stored trajectory, or None (absent, unreadable, corrupt or from an incompatible version)."""
        try:
            return Trajectory.model_validate(safejson.loads(self._path(key).read_bytes()))
        except (OSError, ValueError, ValidationError):
            return None

    def put(self, key: str, trajectory: Trajectory) -> None:
        """Store a successful trajectory; failed calls are never cached, and a failed write is no error."""
        if trajectory.error is not None or not self._writable:
            return
        try:
            self._write(self._path(key), trajectory)
        except OSError as exc:
            self._writable = False
            print(f"gate: warning: cannot write to the cache at {self.directory} ({exc}); continuing without caching",
                  file=sys.stderr)

    def _write(self, target: Path, trajectory: Trajectory) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.stem[:8]}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(trajectory.model_dump_json())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                Path(tmp).unlink(missing_ok=True)
            raise
