"""A stand-in OpenAI-compatible judge: it reads the prompt `gate judge` sends and replies as a test
scripts it — valid JSON, prose, broken JSON, errors, stalls. Behind a real server on 127.0.0.1
(``judge_server``) where the test is about the network (stalls, timeouts, a port in the cache key),
through an httpx.MockTransport (``judge_mocked``) where it is about what is asked and answered."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from gate.semantic.fence import unquote
from tests.runner.loopback import Mocked, Reply, Seen, Server, serve

ROOT = Path(__file__).resolve().parents[2]
_BLOCK = re.compile(r"<<<DATA (?P<name>[A-Z0-9-]+) (?P<nonce>[0-9a-f]{12})>>>\n(?P<body>.*?)\n<<<END (?P=name) (?P=nonce)>>>",
                    re.S)


def blocks(prompt: str) -> dict[str, str]:
    """The text quoted in each data block of ``prompt``, by the block's name."""
    return {m["name"]: unquote(m["body"]) for m in _BLOCK.finditer(prompt)}


@dataclass(frozen=True)
class Asked:
    """What one request asked: the rubric, the answer, the examples shown, and the turn (1 = first)."""

    rubric: str
    answer: str
    examples: list[str]
    turn: int
    seed: int | None
    body: dict[str, Any]


def asked(seen: Seen) -> Asked:
    messages = seen.body["messages"]
    prompt = messages[1]["content"]
    quoted = blocks(prompt)
    rubric = re.search(r"^Rubric: (.*?)\n\n## ", prompt, re.M | re.S)
    return Asked(rubric=rubric.group(1).replace("\n  ", "\n") if rubric else "", answer=quoted.get("ANSWER", ""),
                 examples=[body for name, body in quoted.items() if name.startswith("EXAMPLE-")],
                 turn=(len(messages) - 2) // 2 + 1, seed=seen.body.get("seed"), body=seen.body)


def chat(content: str, *, prompt_tokens: int = 900, completion_tokens: int = 30) -> Reply:
    """A chat-completions reply with ``content`` and token usage."""
    return Reply(body={"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                 "total_tokens": prompt_tokens + completion_tokens}})


def verdict(passed: bool, reason: str = "the answer meets the rubric") -> Reply:
    return chat(json.dumps({"reason": reason, "passed": passed}, ensure_ascii=False))


Script = Callable[[Asked, int], Reply]


@contextmanager
def judge_server(script: Script, port: int = 0) -> Iterator[Server]:
    """Serve ``script(asked, request index)`` as the judge endpoint (on ``port``, or any free one)."""
    with serve(lambda seen, index: script(asked(seen), index), port) as server:
        yield server


@contextmanager
def judge_mocked(script: Script) -> Iterator[Mocked]:
    """``judge_server``'s face with no socket and no thread: the judge client `gate judge` builds posts
    through an httpx.MockTransport serving ``script``."""
    from gate.net import client as httpcall

    endpoint = Mocked(lambda seen, index: script(asked(seen), index))
    real = httpcall.new_client
    with mock.patch.object(httpcall, "new_client",
                           lambda *args, **kwargs: real(*args, **{**kwargs, "transport": endpoint.transport})):
        yield endpoint


def config_text(url: str, *, extra: str = "", agent: str | None = None, cases: str | None = None,
                judge_extra: str = "", cache: str = "false") -> str:
    """A gate.yaml for the repository's cases, judging at ``url`` (no cache unless asked)."""
    agent = agent or f"  adapter: replay\n  trajectories: {ROOT / 'examples' / 'trajectories.jsonl'}\n"
    suites = "suites:\n  B3: [FC, QC, PC, LC, MC, AC, MM]\n  X: [OC, SD, SA, FC, CD]\n  ARTICLE: [TC]\n" if cases is None else ""
    return (f"{suites}cases:\n  path: {cases or ROOT / 'cases'}\n  tags: [golden, consistency]\nagent:\n{agent}"
            f"baseline: {ROOT / 'baselines' / 'main.json'}\n"
            f"judge:\n  url: {url}/v1\n  model: stand-in\n  cache: {cache}\n{judge_extra}{extra}")
