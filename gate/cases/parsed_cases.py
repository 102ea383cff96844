"""Case files as YAML parsed them, kept as JSON by the digest of their bytes: an unchanged file is
not parsed again (YAML is two thirds of loading a case; JSON reads in a twentieth of the time).

Only what JSON gives back unchanged is kept (no dates, sets or non-string keys), and only for a
file that loaded as a valid case; the kept data is validated like freshly parsed data, so the
cache saves the parse and nothing else. Entries are keyed by the build too (a new PyYAML or an
edited loader parses again), and, like every cache of derived results, never read in CI, where
a pull request could commit an entry that says its file holds something else.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gate.files.buildinfo import build, readable
from gate.files.jsonstore import JsonStore

SCHEMA = "gate.parsed-case/v1"


class ParsedCases:
    """Parsed case files under ``directory``, for one build."""

    def __init__(self, directory: Path, build_id: str) -> None:
        self._store = JsonStore(directory)
        self._build_id = build_id

    @staticmethod
    def _key(raw: bytes) -> str:
        return hashlib.sha256(raw).hexdigest()

    def get(self, raw: bytes) -> Any:
        """The data this file's bytes parsed to, or None (never parsed, another build, unreadable)."""
        entry = self._store.get(self._key(raw))
        if isinstance(entry, dict) and entry.get("schema") == SCHEMA and entry.get("build") == self._build_id:
            return entry.get("data")
        return None

    def put(self, raw: bytes, data: Any) -> None:
        """Keep ``data`` when JSON gives it back unchanged; a failed write only warns (the store's rule)."""
        try:
            text = json.dumps({"schema": SCHEMA, "build": self._build_id, "data": data}, ensure_ascii=False,
                              allow_nan=False)
        except (TypeError, ValueError):
            return  # a date, a set …: parsed again next time
        if json.loads(text)["data"] == data:  # and not a dict with integer keys read back as strings
            self._store.put(self._key(raw), text)


def parsed_cases(cache: Path | None, env: Mapping[str, str] | None = None) -> ParsedCases | None:
    """The parsed case files kept under ``cache`` (``cases/`` of the project's .gate-cache), or
    None: no project cache, or CI."""
    directory = readable(cache, env)
    return ParsedCases(directory / "cases", build()) if directory is not None else None
