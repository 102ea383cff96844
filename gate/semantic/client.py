"""One judge sample: a chat-completions request, a strictly parsed reply (sent back to be corrected a
bounded number of times), the endpoint's retries and timeouts, and the reply cache."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gate.config.agent_inputs import check_environment, check_url, endpoint_url
from gate.config.gate_yaml import JudgeConfig
from gate.errors import GateError
from gate.net import headers as headers_mod
from gate.net.chat import cut_off_error, message_text, read_reply, request_body
from gate.net.client import OnDemandClient
from gate.net.errors import NetError
from gate.net.post import post_json
from gate.net.retry import RetryPolicy, with_retries
from gate.semantic.prompt import CORRECTION, PROMPT_VERSION
from gate.semantic.reply import ReplyError, Vote, parse_reply
from gate.semantic.replycache import open_cache, request_digest
from gate.trajectory import clean_text


@dataclass(frozen=True)
class Sample:
    """One sample's outcome: a vote, or the error that prevented one."""

    vote: Vote | None = None
    error: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    cached: bool = False
    endpoint_failed: bool = False
    """The endpoint gave no usable response (refused, timed out, HTTP error), as opposed to a bad reply."""


class JudgeClient:
    """Asks the judge endpoint for samples; one instance per `gate judge` run (one HTTP pool)."""

    def __init__(self, config: JudgeConfig, root: Path, policy: RetryPolicy, *, use_cache: bool = True,
                 env: Mapping[str, str] | None = None) -> None:
        self._config = config
        self._url = endpoint_url(config.url)
        try:
            check_url(self._url)
        except GateError as exc:
            raise GateError(str(exc).replace("agent.url", "judge.url", 1)) from None
        try:
            check_environment(config.headers)
        except GateError as exc:
            raise GateError(str(exc).replace("agent.headers", "judge.headers", 1)) from None
        self._policy = policy
        self._http = OnDemandClient(config.timeout_s, config.concurrency, url=self._url)
        # ``env`` decides whether the cache is trusted: signed with a key, or outside CI (gate.semantic.replycache)
        self._cache = open_cache(root / config.cache, os.environ if env is None else env) \
            if config.cache is not False and use_cache else None

    @property
    def url(self) -> str:
        return self._url

    def key(self, messages: list[dict[str, Any]], sample: int) -> str:
        """The cache key of one sample: the digest of everything that shapes the reply, which the
        entry also holds (a cached reply answers only the request that produced it)."""
        config = self._config
        seed = None if config.seed is None else config.seed + sample
        options = config.request_options()  # only when set: replies cached before keep their keys
        return request_digest({"prompt": PROMPT_VERSION, "url": self._url, "model": config.model,
                               "temperature": config.sampling_temperature(), "seed": seed, "sample": sample,
                               "messages": messages, **({"options": options} if options else {})})

    def _headers(self) -> dict[str, str]:
        return headers_mod.with_bearer(self._config.headers, self._config.api_key_env)

    def cached(self, messages: list[dict[str, Any]], sample: int) -> Sample | None:
        vote = None if self._cache is None else self._cache.get(self.key(messages, sample))
        return None if vote is None else Sample(vote=vote, cached=True)

    async def sample(self, messages: list[dict[str, Any]], sample: int) -> Sample:
        """Sample number ``sample`` (0-based) of the verdict ``messages`` ask for."""
        config = self._config
        transcript = list(messages)
        usage: dict[str, int] = {}
        problem: ReplyError | None = None
        hint = f" (is ${config.api_key_env} set and valid?)"
        for _ in range(config.format_retries + 1):
            seed = None if config.seed is None else config.seed + sample
            body = request_body(config, model=config.model, messages=transcript,
                                temperature=config.sampling_temperature(), seed=seed)

            async def attempt(body: dict[str, Any] = body) -> dict[str, Any]:
                return await post_json(self._http.client, self._url, body, self._headers(), timeout_s=config.timeout_s,
                                       hint=hint)

            try:
                response, _ = await with_retries(attempt, self._policy)
                reply = read_reply(response, usage)
            except NetError as exc:
                return Sample(error=f"judge endpoint: {exc}", usage=usage, endpoint_failed=True)
            if reply.cut_off:  # a verdict cut short is no verdict, and asking again would cut it again
                return Sample(error=f"judge: {cut_off_error(config.max_tokens, 'judge')}", usage=usage)
            content = clean_text(message_text(reply.message.get("content")))  # checked by read_reply
            try:
                vote = parse_reply(content)
            except ReplyError as exc:
                problem = exc
                transcript += [{"role": "assistant", "content": content},
                               {"role": "user", "content": CORRECTION.format(problem=exc)}]
                continue
            if self._cache is not None:
                self._cache.put(self.key(messages, sample), vote)
            return Sample(vote=vote, usage=usage)
        attempts = config.format_retries + 1
        return Sample(error=f"the judge's reply was not the JSON asked for after {attempts} attempt(s): {problem}",
                      usage=usage)

    async def aclose(self) -> None:
        await self._http.aclose()
