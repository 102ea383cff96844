"""What every adapter shares: the agent-error type, the adapter protocol, and checking the trajectory answered."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from gate.files import safejson
from gate.net.errors import NetError
from gate.redaction.secrets import public, without_secrets
from gate.trajectory import Trajectory

_KEY_FIELDS = ("case_id", "group", "run")


AgentError = NetError
"""One failed agent call: the runner's name for the one error type of a failed call (gate.net.errors)."""


class Adapter(Protocol):
    """Calls the agent for one request and returns the raw trajectory object it answered."""

    name: str
    handles_retries: bool
    """True when the adapter retries its own requests (a multi-request tool loop)."""
    cacheable: bool
    """False when a cached answer would be no cheaper or could go stale (replay)."""

    def fingerprint(self, request: dict[str, Any]) -> Any:
        """What, besides the request, decides the answer (command, URL, model…): keys the cache."""

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        """The agent's trajectory object for ``request``; raises :class:`AgentError` on failure."""

    async def aclose(self) -> None:
        """Release connections, threads and processes."""


def to_trajectory(data: Any, key: tuple[str, str, int]) -> Trajectory:
    """The agent's answer as a trajectory of job ``key``.

    The job's case/group/run are forced onto the record; differing values the agent sent are kept
    in ``metadata.key_mismatch`` rather than trusted.
    """
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    if not isinstance(data, dict):
        raise AgentError(f"the agent must return a trajectory object, got {type(data).__name__}")
    try:  # a python agent's value may hold anything; it must be what a JSON answer could hold
        surrogates = safejson.check_value(data)
    except safejson.UnsafeValue as exc:
        raise AgentError(f"the trajectory is not plain JSON: {exc}") from None
    if surrogates:  # half an emoji ("\ud83d" in JSON, or cut in Python) must not stop every report
        data = safejson.without_surrogates(data)
    if "final_answer" not in data and "messages" not in data and data.get("error") is None:
        keys = ", ".join(sorted(map(str, data))) or "none"
        raise AgentError(f"the trajectory has neither 'final_answer' nor 'messages' (keys: {keys})")
    expected = dict(zip(_KEY_FIELDS, key, strict=True))
    mismatch = {f: data[f] for f in _KEY_FIELDS if f in data and data[f] != expected[f]}
    metadata = data.get("metadata")
    metadata = dict(metadata) if isinstance(metadata, dict) else {}
    if mismatch:
        metadata["key_mismatch"] = mismatch
    try:
        trajectory = Trajectory.model_validate({**data, **expected, "metadata": metadata})
    except ValidationError as exc:
        from gate.files.yamlio import first_problem

        raise AgentError(f"the trajectory is malformed: {first_problem(exc)}") from None
    return _redacted(trajectory)


def _redacted(trajectory: Trajectory) -> Trajectory:
    """The answer and error with any secret they echo hidden as they arrive: the reports quote them
    escaped again (a JSON string in results.json), a spelling the reports' own pass cannot know."""
    update = {field: hidden for field in ("final_answer", "error")
              if isinstance(text := getattr(trajectory, field), str) and (hidden := without_secrets(text)) != text}
    return trajectory.model_copy(update=update) if update else trajectory


def error_trajectory(key: tuple[str, str, int], message: str, metadata: dict[str, Any]) -> Trajectory:
    """The record of a failed call: it judges as an agent error, never as a pass."""
    case_id, group, run = key
    return Trajectory.model_validate({"case_id": case_id, "group": group, "run": run, "error": public(message),
                                      "metadata": metadata})
