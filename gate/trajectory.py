"""The trajectory record (contract): what one agent run did — tool calls in order and the answer."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import (
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from gate.files import safejson
from gate.model import Model

Group = Literal["A", "B"]

UNREACHABLE = "agent_unreachable"
"""Metadata key of a failed run's record: no attempt could connect to the agent."""


def clean_text(text: str) -> str:
    """``text`` with lone surrogates (a truncated emoji, say) replaced, so it can be written as UTF-8."""
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


class ToolCall(Model):
    """One tool call, in call order; ``is_error`` marks a call whose result was an error."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    result: str | None = None
    is_error: bool = False
    turn: int | None = Field(None, ge=0, strict=True)
    """The assistant turn that sent the call (0-based): the calls of one turn were sent together, in
    parallel, before any of their results came back. None: each call is a turn of its own."""

    @model_serializer(mode="wrap")
    def _without_unknown_turn(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # a record without turns dumps (and digests) as it did before turns were recorded
        data: dict[str, Any] = handler(self)
        if data.get("turn") is None:
            data.pop("turn", None)
        return data

    @field_validator("name", "result")
    @classmethod
    def _clean(cls, value: str | None) -> str | None:
        return None if value is None else clean_text(value)

    @model_validator(mode="before")
    @classmethod
    def _stringify_result(cls, data: Any) -> Any:
        # Agents often put the parsed JSON of a tool result here; keep it as the text it stood for.
        if isinstance(data, dict) and data.get("result") is not None:
            result = data["result"]
            if not isinstance(result, str):
                data = {**data, "result": json.dumps(result, ensure_ascii=False, sort_keys=True)}
        return data


class Trajectory(Model):
    """One (case, group, run) record. Either ``final_answer`` + ``tool_calls`` or OpenAI ``messages``."""

    model_config = ConfigDict(extra="allow", frozen=True)

    case_id: str
    group: Group
    run: int = Field(ge=0)
    final_answer: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    error: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("final_answer", "error")
    @classmethod
    def _clean(cls, value: str | None) -> str | None:
        return None if value is None else clean_text(value)

    @field_validator("tool_calls")
    @classmethod
    def _turns_in_order(cls, value: tuple[ToolCall, ...]) -> tuple[ToolCall, ...]:
        check_turns(value)
        return value

    @model_validator(mode="before")
    @classmethod
    def _from_messages(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "messages" not in data:
            return data
        if "final_answer" in data or "tool_calls" in data:
            return data
        try:
            answer, calls = derive_from_messages(data["messages"])
        except ValueError as exc:  # name the field: "messages[2] must be an object …"
            raise ValueError(str(exc) if str(exc).startswith("messages") else f"messages: {exc}") from None
        return {**data, "final_answer": answer, "tool_calls": calls}

    def whole(self) -> Trajectory:
        """The record itself (a spooled run reads its record back: ``gate.runs.records.SpooledRun``)."""
        return self

    def tool_names(self) -> list[str]:
        """Names of the tool calls, in call order."""
        return [call.name for call in self.tool_calls]

    def turns(self) -> tuple[int, ...]:
        """The turn of each tool call: as recorded, or each call its own when none is."""
        return call_turns(self.tool_calls)

    @property
    def done_key(self) -> bytes:
        """Equal for two runs exactly when their digests are, at a fraction of the cost (the answer is
        hashed as it is, not escaped into JSON first): what judging tells repeats apart by."""
        answer = self.final_answer.encode("utf-8", "replace")
        found = hashlib.sha256(len(answer).to_bytes(8, "big") + answer)
        if self.tool_calls:
            calls = [call.model_dump(mode="json") for call in self.tool_calls]
            found.update(json.dumps(calls, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8", "replace"))
        return found.digest()

    @property
    def digest(self) -> str:
        """What the run did — its answer and tool calls, not when or how fast — as ``sha256:…``:
        a human verdict on this trajectory applies to any record that did exactly the same."""
        done = {"final_answer": self.final_answer,
                "tool_calls": [call.model_dump(mode="json") for call in self.tool_calls]}
        canonical = json.dumps(done, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(canonical.encode("utf-8", "replace")).hexdigest()


def call_turns(calls: tuple[ToolCall, ...]) -> tuple[int, ...]:
    """The turn of each call: as recorded, or its position when no call records one."""
    if calls and calls[0].turn is not None:
        return tuple(call.turn or 0 for call in calls)
    return tuple(range(len(calls)))


def check_turns(calls: tuple[ToolCall, ...]) -> None:
    """Turns are recorded for every call or for none, and never go back along the list."""
    recorded = [call.turn for call in calls]
    if all(turn is None for turn in recorded):
        return
    for index, turn in enumerate(recorded):
        if turn is None:
            raise ValueError(f"call #{index} has no turn while other calls have one: give every call a turn or none")
        before = recorded[index - 1] if index else None
        if before is not None and turn < before:
            raise ValueError(f"call #{index} has turn {turn}, before the turn {before} of the call ahead of it: "
                             "calls are listed in the order they were sent")


def mark_parallel_turns(calls: list[dict[str, Any]], turns: list[int]) -> None:
    """Record each call's turn when some turn sent more than one call; otherwise leave them out, as
    each call being its own turn is what a record without turns means (and its digest stays)."""
    if len(set(turns)) < len(turns):
        for call, turn in zip(calls, turns, strict=True):
            call["turn"] = turn


def _type(value: Any) -> str:
    return type(value).__name__


def _content_text(content: Any, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: keep the text ones
        texts = []
        for index, part in enumerate(content):
            text = part.get("text", "") if isinstance(part, dict) else ""
            if not isinstance(text, str):
                raise ValueError(f"{where}[{index}].text: must be a string, got {_type(text)}")
            texts.append(text)
        return "".join(texts)
    raise ValueError(f"message content must be a string or a list of parts, got {_type(content)}")


def tool_arguments(arguments: Any) -> dict[str, Any]:
    """A call's arguments as OpenAI sends them — an object, or the JSON text of one — for every
    reader of tool calls (transcripts in records, the openai adapter's responses).

    The text is the model's own writing, so text that is not (bounded) JSON is kept raw
    (``{"_raw": text}``) and JSON that is no object is wrapped (``{"_value": …}``), both judged as
    such; only a wrong type (neither text nor object) is the harness's fault: ``TypeError``.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, dict):
        return arguments
    if not isinstance(arguments, str):
        raise TypeError(f"must be a JSON object or a string of one, got {_type(arguments)}")
    try:
        parsed = safejson.loads(arguments) if arguments.strip() else {}
    except json.JSONDecodeError:
        return {"_raw": arguments}
    return parsed if isinstance(parsed, dict) else {"_value": parsed}


def _arguments(arguments: Any, where: str) -> dict[str, Any]:
    try:
        return tool_arguments(arguments)
    except TypeError as error:
        raise ValueError(f"{where}: {error}") from None


def _tool_call(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: must be an object, got {_type(raw)}")
    function = raw.get("function")
    if not isinstance(function, dict):
        raise ValueError(f"{where}.function: must be an object with a string 'name', got {_type(function)}")
    name = function.get("name")
    if not isinstance(name, str):
        raise ValueError(f"{where}.function.name: must be a string, got {_type(name)}")
    return {"name": name, "args": _arguments(function.get("arguments"), f"{where}.function.arguments")}


def derive_from_messages(messages: Any) -> tuple[str, list[dict[str, Any]]]:
    """Final answer and tool calls from an OpenAI chat transcript.

    The answer is the last assistant message's text; each assistant ``tool_calls`` entry becomes a
    call, completed by the ``tool`` message that answers its ``tool_call_id``. A field of the wrong
    type is a ValueError naming it (``messages[2].tool_calls[0].function``), never a guess.
    """
    if not isinstance(messages, list):
        raise ValueError("messages must be a list of chat messages")
    calls: list[dict[str, Any]] = []
    turns: list[int] = []
    by_id: dict[str, dict[str, Any]] = {}
    answer = ""
    turn = 0
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or "role" not in message:
            raise ValueError(f"messages[{index}] must be an object with a 'role'")
        role = message["role"]
        where = f"messages[{index}]"
        if role == "assistant":
            text = _content_text(message.get("content"), f"{where}.content")
            if text:
                answer = text
            requested = message.get("tool_calls")
            if requested is not None and not isinstance(requested, list):
                raise ValueError(f"{where}.tool_calls: must be a list of tool calls, got {_type(requested)}")
            for number, raw in enumerate(requested or []):
                call = _tool_call(raw, f"{where}.tool_calls[{number}]")
                calls.append(call)
                turns.append(turn)
                if raw.get("id"):
                    by_id[str(raw["id"])] = call
            turn += 1 if requested else 0
        elif role == "tool":
            call_id = str(message.get("tool_call_id", ""))
            target = by_id.get(call_id) or (calls[-1] if calls else None)
            if target is not None:
                target["result"] = _content_text(message.get("content"), f"{where}.content")
                target["is_error"] = bool(message.get("is_error", False))
    mark_parallel_turns(calls, turns)
    return answer, calls
