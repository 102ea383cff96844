"""A reasoning model's thinking, written before its answer in the same message: "<think>…</think>"
as DeepSeek-R1, QwQ and Qwen3 write it when the server leaves it in the content. Chat clients show
it apart from the answer, or not at all."""

from __future__ import annotations

_OPENERS = ("<think>", "<thinking>")


def split_reasoning(text: str) -> tuple[str, str]:
    """``(thinking, answer)`` when ``text`` opens with a closed thinking block, else ``("", text)``.

    A block left open (the model ran out of tokens while thinking) sets nothing apart: the whole
    text is what was answered.
    """
    body = text.lstrip()
    for opener in _OPENERS:
        if body.startswith(opener):
            closer = "</" + opener[1:]
            end = body.find(closer, len(opener))
            if end < 0:
                return "", text
            return body[len(opener):end].strip(), body[end + len(closer):].lstrip()
    return "", text
