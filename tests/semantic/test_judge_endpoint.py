"""The judge's requests carry the endpoint settings gate.yaml gives it (max_tokens, stop, extra_body),
and a verdict cut off at max_tokens is no verdict: the sample's error says so, nothing is voted."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from gate.config.gate_yaml import JudgeConfig
from gate.net.retry import RetryPolicy
from gate.semantic.client import JudgeClient, Sample
from tests.runner.loopback import Reply
from tests.semantic.standin import Asked, judge_mocked

ASKED = [{"role": "system", "content": "judge"}, {"role": "user", "content": "is it friendly?"}]


def _config(**settings: Any) -> JudgeConfig:
    return JudgeConfig(**{"url": "http://judge.test/v1", "model": "stand-in", "cache": False, **settings})


def _sample(config: JudgeConfig, reply: Reply) -> tuple[Sample, list[Asked]]:
    seen: list[Asked] = []

    def script(asked: Asked, index: int) -> Reply:
        seen.append(asked)
        return reply

    async def ask() -> Sample:
        client = JudgeClient(config, Path("."), RetryPolicy(retries=0), env={})
        try:
            return await client.sample(ASKED, 0)
        finally:
            await client.aclose()

    with judge_mocked(script):
        return asyncio.run(ask()), seen


def _reply(content: str, finish_reason: str) -> Reply:
    return Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": finish_reason}], "usage": {"completion_tokens": 16}})


def test_a_verdict_cut_off_at_max_tokens_is_no_verdict_and_is_not_asked_again() -> None:
    sample, seen = _sample(_config(max_tokens=16), _reply('{"reason": "the answer is friendly and', "length"))
    assert sample.vote is None and not sample.endpoint_failed
    assert sample.error == ("judge: the reply was cut off at max_tokens (16): finish_reason 'length', so the answer "
                            "is incomplete and is not judged; raise judge.max_tokens or ask for a shorter answer")
    assert len(seen) == 1  # sending it back to be corrected would only be cut again


def test_the_settings_reach_the_judge_s_request() -> None:
    config = _config(max_tokens=256, stop=["\n\n\n"], extra_body={"top_k": 20, "chat_template_kwargs": {"enable_thinking": False}})
    sample, seen = _sample(config, _reply(json.dumps({"reason": "friendly", "passed": True}), "stop"))
    assert sample.vote is not None and sample.vote.passed
    body = seen[0].body
    assert (body["max_tokens"], body["stop"], body["top_k"]) == (256, ["\n\n\n"], 20)
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


def test_the_settings_key_the_reply_cache_only_when_set() -> None:
    def key(**settings: Any) -> str:
        return JudgeClient(_config(**settings), Path("."), RetryPolicy(), env={}).key(ASKED, 0)

    assert key() == key(extra_body={})  # replies cached before these settings existed still answer
    assert key(max_tokens=64) != key() and key(extra_body={"top_k": 20}) != key() and key(stop="END") != key()


def test_the_judge_takes_no_tool_choice_it_offers_no_tools() -> None:
    with pytest.raises(ValidationError, match="tool_choice"):
        _config(tool_choice="required")
