"""The judge's reply, parsed strictly: one JSON object ``{"reason": str, "passed": bool}``."""

from __future__ import annotations

import json
from dataclasses import dataclass

from gate.files import safejson
from gate.redaction.sanitize import one_line
from gate.text.reasoning import split_reasoning


class ReplyError(ValueError):
    """The reply is not the JSON object asked for; the message says how."""


@dataclass(frozen=True)
class Vote:
    """One sample's verdict and the reason the judge gave first."""

    passed: bool
    reason: str


def _unfenced(text: str) -> str:
    """The body of a reply that is one fenced block (```json … ```), else the reply itself."""
    if not text.startswith("```"):
        return text
    first_newline = text.find("\n")
    if first_newline < 0 or not text.endswith("```") or len(text) < first_newline + 4:
        raise ReplyError("an unclosed code fence")
    label = text[3:first_newline].strip().lower()
    if label not in ("", "json"):
        raise ReplyError(f"a code fence labelled '{one_line(label, 20)}'")
    return text[first_newline + 1: -3].strip()


def parse_reply(content: str) -> Vote:
    """The vote in ``content``, or a :class:`ReplyError` naming what is wrong with it. A reasoning
    model's thinking before it ("<think>…</think>") is not the reply."""
    text = _unfenced(split_reasoning(content)[1].strip())
    if not text:
        raise ReplyError("an empty reply")
    if not text.startswith(("{", "[")):
        raise ReplyError(f"text before the JSON object: '{one_line(text, 40)}'")
    try:
        data = safejson.loads(text)
    except (json.JSONDecodeError, ValueError) as exc:
        raise ReplyError(f"not valid JSON: {one_line(str(exc), 120)}") from None
    if not isinstance(data, dict):
        raise ReplyError("JSON, but not an object")
    passed, reason = data.get("passed"), data.get("reason")
    if not isinstance(passed, bool):
        raise ReplyError(f'"passed" must be true or false, not {one_line(json.dumps(passed, ensure_ascii=False), 40)}')
    if not isinstance(reason, str) or not reason.strip():
        raise ReplyError('"reason" must be a non-empty string')
    return Vote(passed=passed, reason=reason.strip())
