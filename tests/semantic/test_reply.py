"""The judge's reply is parsed strictly: one JSON object, the reason and a boolean verdict."""

from __future__ import annotations

import pytest

from gate.semantic.reply import ReplyError, Vote, parse_reply


@pytest.mark.parametrize("content, vote", [
    ('{"reason": "每天都有安排", "passed": true}', Vote(True, "每天都有安排")),
    ('  {"reason": "only three days", "passed": false}\n', Vote(False, "only three days")),
    ('```json\n{"reason": "ok", "passed": true}\n```', Vote(True, "ok")),
    ('```\n{"reason": "ok", "passed": false}\n```', Vote(False, "ok")),
    ('{"passed": true, "reason": "verdict first is still a verdict", "confidence": 0.9}',
     Vote(True, "verdict first is still a verdict")),
    # a reasoning model (Qwen3, DeepSeek-R1 distills) thinks first, in the same message
    ('<think>\n每天都排了景点，{"passed": true} 应该成立。\n</think>\n\n{"reason": "每天都有安排", "passed": true}',
     Vote(True, "每天都有安排")),
    ('<thinking>short</thinking>```json\n{"reason": "ok", "passed": false}\n```', Vote(False, "ok")),
])
def test_a_json_verdict_is_read(content: str, vote: Vote) -> None:
    assert parse_reply(content) == vote


@pytest.mark.parametrize("content, problem", [
    ("", "an empty reply"),
    ("   \n", "an empty reply"),
    ('Sure! Here is my verdict: {"reason": "ok", "passed": true}', "text before the JSON object"),
    ('{"reason": "ok", "passed": true}\nHope this helps!', "not valid JSON"),
    ('<think>\n还在想，没有想完', "text before the JSON object"),  # a block left open is no thinking set apart
    ('{"reason": "ok", "passed": tru', "not valid JSON"),
    ('{"reason": "ok", "passed": "true"}', '"passed" must be true or false'),
    ('{"reason": "ok", "passed": 1}', '"passed" must be true or false'),
    ('{"reason": "ok"}', '"passed" must be true or false'),
    ('{"reason": "", "passed": true}', '"reason" must be a non-empty string'),
    ('{"reason": ["a"], "passed": false}', '"reason" must be a non-empty string'),
    ('[{"reason": "ok", "passed": true}]', "JSON, but not an object"),
    ('```json\n{"reason": "ok", "passed": true}', "an unclosed code fence"),
    ('```python\n{"reason": "ok", "passed": true}\n```', "a code fence labelled 'python'"),
    ('{"reason": "ok", "passed": NaN}', "not valid JSON"),
])
def test_anything_else_is_a_reply_error_that_says_what_is_wrong(content: str, problem: str) -> None:
    with pytest.raises(ReplyError) as raised:
        parse_reply(content)
    assert problem in str(raised.value)


def test_a_deeply_nested_reply_is_refused_not_a_crash() -> None:
    with pytest.raises(ReplyError):
        parse_reply('{"reason": ' + "[" * 100_000 + "]" * 100_000 + ', "passed": true}')
