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
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gate.files.jsonstore import JsonStore
from gate.trajectory import Trajectory


def cache_key(identity: str | None, adapter: str, endpoint: Any, request: dict[str, Any]) -> str:
    """The hex digest that names a request's cached answer."""
    canonical = json.dumps(
        {"identity": identity, "adapter": adapter, "endpoint": endpoint, "request": request},
        ensure_ascii=False, sort_keys=True, separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


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
