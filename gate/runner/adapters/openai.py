"""The openai adapter: drive an OpenAI-compatible chat-completions endpoint and its tool loop.

The system message is the team's prompt (``agent.system_prompt`` or ``system_prompt_file``) in both
groups; in group B the active skills' text follows it: ``<skills_dir>/<skill>.md`` for each one.
The model is offered the agent's real tools (``agent.tools``: names, descriptions, JSON-Schema
parameters), or, when none are declared, the tools the case intercepts; a call is answered from the
case's intercepts, a declared tool without one gets ``agent.tool_default_result`` — so a forbidden
tool the case never intercepts can still be called, and caught. What it reads (skills, tools) is
read and checked before any call by gate.agent_inputs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import httpx

from gate.agent_config import OpenAIAgent
from gate.agent_inputs import ChatInputs
from gate.agent_tools import PERMISSIVE
from gate.runner import headers as headers_mod
from gate.runner.base import AgentError, snippet
from gate.runner.chatreply import read_turn
from gate.runner.httpcall import OnDemandClient, post_json
from gate.runner.retry import RetryPolicy, with_retries
from gate.text.reasoning import split_reasoning
from gate.trajectory import tool_arguments


def tool_declarations(intercepts: Iterable[Mapping[str, Any]],
                      declared: Iterable[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """The declared tools, then one per intercepted tool not declared (its schema accepts anything;
    with tools declared there is none: gate.agent_tools.check_intercepts)."""
    tools = [dict(tool) for tool in declared]
    known = {tool["function"]["name"] for tool in tools}
    names = [name for name in dict.fromkeys(str(i["tool"]) for i in intercepts) if name not in known]
    return tools + [
        {"type": "function", "function": {"name": name, "description": f"The {name} tool.", "parameters": PERMISSIVE}}
        for name in names
    ]


class _Intercepts:
    """Answers tool calls: the n-th call of a tool gets its n-th intercept, then the last again."""

    def __init__(self, intercepts: Iterable[Mapping[str, Any]], declared: Iterable[str] = (),
                 default_result: str = "") -> None:
        self._by_name: dict[str, list[Mapping[str, Any]]] = {}
        for intercept in intercepts:
            self._by_name.setdefault(str(intercept["tool"]), []).append(intercept)
        self._declared = set(declared)
        self._default = default_result
        self._used: dict[str, int] = {}

    def answer(self, name: str) -> tuple[str, bool]:
        """The result text and is_error flag for a call of ``name``."""
        options = self._by_name.get(name)
        if not options and name in self._declared:
            return self._default, False  # a real tool the case does not script
        if not options:
            known = ", ".join(sorted(self._by_name.keys() | self._declared)) or "none"
            return f"error: unknown tool '{name}'; available tools: {known}", True
        index = min(self._used.get(name, 0), len(options) - 1)
        self._used[name] = self._used.get(name, 0) + 1
        return str(options[index]["result"]), bool(options[index].get("is_error", False))


class ChatAdapter:
    """Runs the whole tool loop per request; retries each chat-completions request on its own."""

    name = "openai"
    handles_retries = True
    cacheable = True

    def __init__(self, agent: OpenAIAgent, inputs: ChatInputs, policy: RetryPolicy,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        """``inputs``: the endpoint, skill texts and tools, checked (gate.agent_inputs)."""
        self._agent = agent
        self._url = inputs.url
        self._prompt = inputs.prompt
        self._skills = inputs.skills
        self._tools = inputs.tools
        self._policy = policy
        self._http = OnDemandClient(agent.timeout_s, agent.concurrency, transport, url=self._url)

    def system_prompt(self, request: Mapping[str, Any]) -> str:
        """The team's prompt, the active skills' text (group B), then the request's context as JSON.
        All of it is in :meth:`fingerprint`, so a changed prompt or skill is never answered from the cache."""
        parts = [self._prompt] if self._prompt else []
        parts += [self._skills[s] for s in request.get("active_skills", ()) if request.get("skill_enabled")]
        if request.get("context"):
            parts.append("Context:\n" + json.dumps(request["context"], ensure_ascii=False, sort_keys=True))
        return "\n\n".join(parts)

    def fingerprint(self, request: dict[str, Any]) -> Any:
        agent = self._agent
        system = hashlib.sha256(self.system_prompt(request).encode("utf-8")).hexdigest()
        tools = hashlib.sha256(json.dumps([self._tools, agent.tool_default_result], sort_keys=True,
                                          ensure_ascii=False).encode("utf-8")).hexdigest()
        return {"url": self._url, "model": agent.model, "temperature": agent.temperature, "seed": agent.seed,
                "max_turns": agent.max_turns, "system": system, "tools": tools}

    def _headers(self) -> dict[str, str]:
        return headers_mod.with_bearer(self._agent.headers, self._agent.api_key_env)

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        agent = self._agent
        system = self.system_prompt(request)
        transcript: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        transcript += [dict(m) for m in request["messages"]]
        tools = tool_declarations(request.get("tool_intercepts", ()), self._tools)
        intercepts = _Intercepts(request.get("tool_intercepts", ()), (t["function"]["name"] for t in self._tools),
                                 agent.tool_default_result)
        calls: list[dict[str, Any]] = []
        usage: dict[str, int] = {}
        answer = ""
        thought = 0  # characters of thinking set apart from the answers
        for turn in range(1, agent.max_turns + 1):
            body: dict[str, Any] = {"model": agent.model, "messages": transcript, "temperature": agent.temperature}
            if agent.seed is not None:
                body["seed"] = agent.seed
            if tools:
                body["tools"] = tools
            turn_read = read_turn(await self._complete(body), usage)
            thinking, said = split_reasoning(turn_read.text)
            thought += len(thinking)
            answer = said or answer
            requested = turn_read.tool_calls
            transcript.append({"role": "assistant", "content": turn_read.content,
                               **({"tool_calls": requested} if requested else {})})
            if not requested:
                return _record(answer, calls, usage, turn, agent.model, stop="answer", thought=thought)
            for raw in requested:
                call_id, name, args = _parse_tool_call(raw)
                result, is_error = intercepts.answer(name)
                calls.append({"name": name, "args": args, "result": result, "is_error": is_error})
                transcript.append({"role": "tool", "tool_call_id": call_id, "content": result})
        return _record(answer, calls, usage, agent.max_turns, agent.model, stop="max_turns", thought=thought)

    async def _complete(self, body: dict[str, Any]) -> dict[str, Any]:
        hint = f" (is ${self._agent.api_key_env} set and valid?)"

        async def attempt() -> dict[str, Any]:
            return await post_json(self._http.client, self._url, body, self._headers(),
                                   timeout_s=self._agent.timeout_s, hint=hint)

        response, _ = await with_retries(attempt, self._policy)
        return response

    async def aclose(self) -> None:
        await self._http.aclose()


def _parse_tool_call(raw: Any) -> tuple[str, str, dict[str, Any]]:
    function = raw.get("function") if isinstance(raw, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise AgentError(f"malformed tool call in the chat-completions response: {snippet(json.dumps(raw))}")
    try:  # the model's own text: hostile or broken JSON in it is kept raw and judged
        arguments = tool_arguments(function.get("arguments"))
    except TypeError as error:
        raise AgentError(f"malformed tool call arguments in the chat-completions response: {error}") from None
    call_id = raw.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise AgentError(f"malformed tool call id in the chat-completions response: {snippet(json.dumps(call_id))}")
    return call_id or "", function["name"], arguments


def _record(answer: str, calls: list[dict[str, Any]], usage: dict[str, int], turns: int, model: str | None,
            *, stop: str, thought: int = 0) -> dict[str, Any]:
    metadata: dict[str, Any] = {"model": model, "turns": turns, "stop_reason": stop}
    if usage:
        metadata["usage"] = usage
    if thought:
        metadata["reasoning_chars"] = thought  # a reasoning model's <think> block: shown apart, not the answer
    return {"final_answer": answer, "tool_calls": calls, "metadata": metadata}
