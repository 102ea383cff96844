"""The trajectory record (contract): what one agent run did — tool calls in order and the answer."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Group = Literal["A", "B"]


def clean_text(text: str) -> str:
    """``text`` with lone surrogates (a truncated emoji, say) replaced, so it can be written as UTF-8."""
    return text if text.isascii() else text.encode("utf-8", "replace").decode("utf-8")


class ToolCall(BaseModel):
    """One tool call, in call order; ``is_error`` marks a call whose result was an error."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    result: str | None = None
    is_error: bool = False

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


class Trajectory(BaseModel):
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

    def tool_names(self) -> list[str]:
        """Names of the tool calls, in call order."""
        return [call.name for call in self.tool_calls]


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: keep the text ones
        return "".join(
            part.get("text", "") for part in content if isinstance(part, dict)
        )
    raise ValueError(f"message content must be a string or a list of parts, got {type(content).__name__}")


def derive_from_messages(messages: Any) -> tuple[str, list[dict[str, Any]]]:
    """Final answer and tool calls from an OpenAI chat transcript.

    The answer is the last assistant message's text; each assistant ``tool_calls`` entry becomes a
    call, completed by the ``tool`` message that answers its ``tool_call_id``.
    """
    if not isinstance(messages, list):
        raise ValueError("messages must be a list of chat messages")
    calls: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    answer = ""
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or "role" not in message:
            raise ValueError(f"messages[{index}] must be an object with a 'role'")
        role = message["role"]
        if role == "assistant":
            text = _content_text(message.get("content"))
            if text:
                answer = text
            for raw in message.get("tool_calls") or []:
                function = raw.get("function", {}) if isinstance(raw, dict) else {}
                arguments = function.get("arguments", {})
                if isinstance(arguments, str):
                    try:
                        arguments = json.loads(arguments) if arguments.strip() else {}
                    except json.JSONDecodeError:
                        arguments = {"_raw": arguments}
                call: dict[str, Any] = {"name": function.get("name", ""), "args": arguments}
                calls.append(call)
                if isinstance(raw, dict) and raw.get("id"):
                    by_id[str(raw["id"])] = call
        elif role == "tool":
            call_id = str(message.get("tool_call_id", ""))
            target = by_id.get(call_id) or (calls[-1] if calls else None)
            if target is not None:
                target["result"] = _content_text(message.get("content"))
                target["is_error"] = bool(message.get("is_error", False))
    return answer, calls
