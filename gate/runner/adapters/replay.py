"""The replay adapter: answers from recorded trajectories, keyed by case, group and run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gate.errors import GateError
from gate.records import iter_trajectories
from gate.runner.base import AgentError
from gate.spool import Held, TextSpool


class ReplayAdapter:
    """Serves the recorded trajectory of each request; a missing record is an agent error."""

    name = "replay"
    handles_retries = False
    cacheable = False  # a lookup costs nothing, and a cache would hide edits to the file

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise GateError("agent.trajectories: replay file not found", where=str(path))
        self._path = path
        # Each record validated, then kept as its JSON text in a temporary file, the run holding
        # only its place: held in memory, 16,700 records' texts were ~23 MiB. The run builds its
        # own trajectory from the answer anyway.
        self._spool = TextSpool("the replay file's records")
        self._records: dict[tuple[str, str, int], Held] = {}
        try:
            for record in iter_trajectories(path):
                self._records[(record.case_id, record.group, record.run)] = self._spool.hold(record.model_dump_json())
        except BaseException:
            self._spool.close()
            raise

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return str(self._path)

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        key = (request["case_id"], request["group"], request["run"])
        record = self._records.get(key)
        if record is None:
            raise AgentError(f"no recorded trajectory for {key[0]} group {key[1]} run {key[2]} in {self._path}")
        answer: dict[str, Any] = json.loads(self._spool.text(record))
        return answer

    async def aclose(self) -> None:
        self._spool.close()
