"""A reasoning model's thinking before its answer, set apart only when the block is closed."""

from __future__ import annotations

import pytest

from gate.text.reasoning import split_reasoning


@pytest.mark.parametrize(("text", "thinking", "answer"), [
    ("<think>\n先列城市\n</think>\n\n[1, 2]", "先列城市", "[1, 2]"),
    ("  \n<thinking>plan</thinking>answer", "plan", "answer"),
    ("<think></think>answer", "", "answer"),
    ("<think>unclosed, out of tokens", "", "<think>unclosed, out of tokens"),
    ("answer first <think>then a tag</think>", "", "answer first <think>then a tag</think>"),
    ("1. 厦门\n2. 成都", "", "1. 厦门\n2. 成都"),
])
def test_only_a_closed_leading_block_is_thinking(text: str, thinking: str, answer: str) -> None:
    assert split_reasoning(text) == (thinking, answer)


def test_a_megabyte_of_unclosed_thinking_is_read_in_one_pass() -> None:
    text = "<think>" + "<think>" * 150_000
    assert split_reasoning(text) == ("", text)
