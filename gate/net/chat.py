"""One chat-completions exchange as the openai agent and the judge both make it: the request body
with the settings gate.yaml gives (gate.config.agent_config.ChatOptions), and the reply read strictly —
its message, why it finished, the tokens it used.

An endpoint may send any JSON object. Every field read here is checked before it is used, so a
malformed response (``usage`` a string, ``tool_calls`` a number) is one :class:`NetError` naming
the field, recorded as that run's agent error (the judge: that sample's error), never an exception
that ends the whole run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from gate.net.body import snippet
from gate.net.errors import NetError


class ChatSettings(Protocol):
    """The request settings gate.yaml gives a chat endpoint (gate.config.agent_config.ChatOptions)."""

    def request_options(self) -> dict[str, Any]:
        """max_tokens, stop, extra_body…: only those set."""


@dataclass(frozen=True)
class ChatReply:
    """``choices[0]`` of a chat-completions response."""

    message: dict[str, Any]
    finish_reason: str | None
    """Why the server stopped: stop, tool_calls, length (cut off at the token limit)…; None if it did not say."""

    @property
    def cut_off(self) -> bool:
        return self.finish_reason == "length"


def request_body(options: ChatSettings, *, model: str | None, messages: list[dict[str, Any]], temperature: float,
                 seed: int | None) -> dict[str, Any]:
    """The body of one request: the gate's own keys, then the settings' (max_tokens, stop, extra_body)."""
    body: dict[str, Any] = {"model": model, "messages": messages, "temperature": temperature}
    if seed is not None:
        body["seed"] = seed
    return {**body, **options.request_options()}


def _malformed(field: str, expected: str, value: Any) -> NetError:
    shown = snippet(json.dumps(value, ensure_ascii=True))
    return NetError(f"the chat-completions response is malformed: {field} must be {expected}, got {shown}")


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


def read_reply(response: dict[str, Any], usage: dict[str, int]) -> ChatReply:
    """The response's first choice, its message's content and tool calls checked; its token usage is
    added to ``usage``."""
    add_usage(response, usage)
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict) \
            or "message" not in choices[0]:
        raise NetError(f"the chat-completions response has no choices[0].message: {snippet(json.dumps(response))}")
    choice = choices[0]
    message = choice["message"]
    if not isinstance(message, dict):
        raise _malformed("choices[0].message", "an object", message)
    message_text(message.get("content"), "choices[0].message.content")
    requested = message.get("tool_calls")
    if requested is not None and not isinstance(requested, list):
        raise _malformed("choices[0].message.tool_calls", "a list or null", requested)
    finish = choice.get("finish_reason")
    return ChatReply(message, finish if isinstance(finish, str) else None)


def cut_off_error(max_tokens: int | None, setting: str) -> str:
    """The error of a run whose reply was cut off: it is incomplete, so it is not judged as an answer."""
    limit = f"max_tokens ({max_tokens})" if max_tokens is not None else "the server's token limit"
    return (f"the reply was cut off at {limit}: finish_reason 'length', so the answer is incomplete and "
            f"is not judged; raise {setting}.max_tokens or ask for a shorter answer")


def message_text(content: Any, field: str = "content") -> str:
    """A message's text: the string, or the text parts of a content list (parts of other kinds, an
    image, carry none). Any other content is a :class:`NetError` naming ``field``."""
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
