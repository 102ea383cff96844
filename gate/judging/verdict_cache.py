"""Verdicts kept beside the answer cache, so that a rerun whose answers come from the cache judges
none of them again — what every local `gate check` before a push would otherwise pay.

An entry is keyed by everything a verdict depends on: the case file (its digest), the group, what
the run did (``Trajectory.done_key``), the judging budget and the build that judged it (the gate's
own modules, the judging libraries and Python: :func:`gate.files.buildinfo.build`), so an edited case or
checker judges again. Only verdicts without an error are kept (an exceeded budget is no verdict on
the answer), with the run's consistency fields when its case measures them. Like the validation
stamps, the store is never read in CI, where a restored cache directory is not the developer's own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from pydantic import ConfigDict, Field, ValidationError

from gate.files.buildinfo import build, readable
from gate.files.jsonstore import JsonStore
from gate.model import Model
from gate.verdict import ConstraintVerdict, RunVerdict, Status

SCHEMA = "gate.verdict-cache/v1"


class StoredVerdict(Model):
    """One cached verdict: what judging gave, without the run's number or metadata."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_: str = Field(alias="schema")
    status: Status
    constraints: tuple[ConstraintVerdict, ...]
    fields: tuple[str, ...] | None = None


class VerdictStore:
    """Cached verdicts under ``directory`` for one build and judging budget."""

    def __init__(self, directory: Path, budget_s: float | None, build_id: str) -> None:
        self._store = JsonStore(directory)
        self._budget_s = budget_s
        self._build_id = build_id

    def _key(self, case_id: str, case_digest: str, group: str, done_key: bytes) -> str:
        parts = {"schema": SCHEMA, "build": self._build_id, "budget_s": self._budget_s, "case_id": case_id,
                 "case": case_digest, "group": group, "done": done_key.hex()}
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    def get(self, case_id: str, case_digest: str, group: str, done_key: bytes) -> StoredVerdict | None:
        """The verdict judged before on this answer to this case file, or None (absent, unreadable)."""
        data = self._store.get(self._key(case_id, case_digest, group, done_key))
        if not isinstance(data, dict):
            return None
        try:
            stored = StoredVerdict.model_validate(data)
        except ValidationError:
            return None
        return stored if stored.schema_ == SCHEMA else None

    def put(self, case_digest: str, done_key: bytes, verdict: RunVerdict, fields: list[str] | None) -> None:
        """Keep ``verdict`` unless it holds an error; a failed write only warns (the store's rule)."""
        if verdict.error is not None or any(c.status is Status.ERROR for c in verdict.constraints):
            return
        document = {"schema": SCHEMA, "status": verdict.status.value,
                    "constraints": [c.model_dump(mode="json") for c in verdict.constraints], "fields": fields}
        self._store.put(self._key(verdict.case_id, case_digest, verdict.group, done_key),
                        json.dumps(document, ensure_ascii=False, sort_keys=True))


def verdict_store(answer_cache: Path | None, budget_s: float | None,
                  env: Mapping[str, str] | None = None) -> VerdictStore | None:
    """The store beside the answer cache directory (``verdicts/``), or None: no answer cache, or CI."""
    directory = readable(answer_cache, env)
    return VerdictStore(directory / "verdicts", budget_s, build()) if directory is not None else None
