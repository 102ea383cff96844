"""The replay adapter: answers from recorded trajectories, keyed by case, group and run."""

from __future__ import annotations

import json
from typing import Any

from gate.config.agent_inputs import ReplayInputs
from gate.runner.base import AgentError


class ReplayAdapter:
    """Serves the recorded trajectory of each request; a missing record is an agent error."""

    name = "replay"
    handles_retries = False
    cacheable = False  # a lookup costs nothing, and a cache would hide edits to the file

    def __init__(self, records: ReplayInputs) -> None:
        """``records``: the replay file read and checked (gate.config.agent_inputs); closed with the adapter."""
        self._records = records

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return str(self._records.path)

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        key = (request["case_id"], request["group"], request["run"])
        text = self._records.answer(key)
        if text is None:
            raise AgentError(f"no recorded trajectory for {key[0]} group {key[1]} run {key[2]} in {self._records.path}")
        answer: dict[str, Any] = json.loads(text)
        return answer

    async def aclose(self) -> None:
        self._records.close()
