"""A chat-completions response, read field by field: what the openai adapter and the judge take of it.

An endpoint may send any JSON object. Every field read here is checked before it is used, so a
malformed response (``usage`` a string, ``tool_calls`` a number) is one :class:`AgentError` naming
the field, recorded as that run's agent error (the judge: that sample's error), never an exception
that ends the whole run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gate.runner.base import AgentError, snippet


@dataclass(frozen=True)
class ChatTurn:
    """The first choice's message, checked."""

    content: str | list[Any] | None
    """As sent: it goes back to the endpoint in the transcript."""
    text: str
    """Its text: the string, or the text parts of a content list."""
    tool_calls: list[Any]
    """The tool calls requested, as sent (each is checked where it is answered)."""


def _malformed(field: str, expected: str, value: Any) -> AgentError:
    shown = snippet(json.dumps(value, ensure_ascii=True))
    return AgentError(f"the chat-completions response is malformed: {field} must be {expected}, got {shown}")


def add_usage(response: dict[str, Any], usage: dict[str, int]) -> None:
    """Add the response's token counts to ``usage``; its other entries (detail objects) are skipped."""
    counts = response.get("usage")
    if counts is None:
        return
    if not isinstance(counts, dict):
        raise _malformed("usage", "an object", counts)
    for key, value in counts.items():
        if isinstance(value, int) and not isinstance(value, bool):
            usage[key] = usage.get(key, 0) + value


def message_text(content: Any, field: str = "content") -> str:
    """A message's text: the string, or the text parts of a content list (parts of other kinds, an
    image, carry none). Any other content is an :class:`AgentError` naming ``field``."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise _malformed(field, "a string, a list of parts or null", content)
    texts = []
    for index, part in enumerate(content):
        if not isinstance(part, dict):
            raise _malformed(f"{field}[{index}]", "an object", part)
        text = part.get("text")
        if text is not None and not isinstance(text, str):
            raise _malformed(f"{field}[{index}].text", "a string", text)
        texts.append(text or "")
    return "".join(texts)


def read_turn(response: dict[str, Any], usage: dict[str, int]) -> ChatTurn:
    """``choices[0].message`` of ``response``, checked; its token usage is added to ``usage``."""
    add_usage(response, usage)
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict) \
            or "message" not in choices[0]:
        raise AgentError(f"the chat-completions response has no choices[0].message: {snippet(json.dumps(response))}")
    message = choices[0]["message"]
    if not isinstance(message, dict):
        raise _malformed("choices[0].message", "an object", message)
    content = message.get("content")
    text = message_text(content, "choices[0].message.content")
    requested = message.get("tool_calls")
    if requested is None:
        requested = []
    if not isinstance(requested, list):
        raise _malformed("choices[0].message.tool_calls", "a list or null", requested)
    return ChatTurn(content=content, text=text, tool_calls=requested)
