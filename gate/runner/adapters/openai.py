"""The openai adapter: drive an OpenAI-compatible chat-completions endpoint and its tool loop.

The system message is the team's prompt (``agent.system_prompt`` or ``system_prompt_file``) in both
groups; in group B the active skills' text follows it: ``<skills_dir>/<skill>.md`` for each one.
The model is offered the agent's real tools (``agent.tools``: names, descriptions, JSON-Schema
parameters), or, when none are declared, the tools the case intercepts; a call is answered from the
case's intercepts (gate.runner.toolsim: by arguments, then by call order, with the case's state and
injected errors and latency), a declared tool without one gets ``agent.tool_default_result`` — so a forbidden
tool the case never intercepts can still be called, and caught. What it reads (skills, tools) is
read and checked before any call by gate.config.agent_inputs.

Each request carries ``max_tokens``, ``stop``, ``tool_choice`` and ``extra_body`` when gate.yaml sets
them. A reply cut off at the token limit (finish_reason ``length``) ends the run as an agent error,
and so does a turn that fails after tools were called — the record then keeps every call made.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from gate.config.agent_config import OpenAIAgent
from gate.config.agent_inputs import ChatInputs
from gate.config.agent_tools import PERMISSIVE
from gate.net import headers as headers_mod
from gate.net.body import snippet
from gate.net.chat import cut_off_error, message_text, read_reply, request_body
from gate.net.client import OnDemandClient
from gate.net.post import post_json
from gate.net.retry import RetryPolicy, with_retries
from gate.runner.base import AgentError
from gate.runner.toolsim import ToolSimulator
from gate.text.reasoning import split_reasoning
from gate.trajectory import mark_parallel_turns, tool_arguments


def tool_declarations(intercepts: Iterable[Mapping[str, Any]],
                      declared: Iterable[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """The declared tools, then one per intercepted tool not declared (its schema accepts anything;
    with tools declared there is none: gate.config.agent_tools.check_intercepts)."""
    tools = [dict(tool) for tool in declared]
    known = {tool["function"]["name"] for tool in tools}
    names = [name for name in dict.fromkeys(str(i["tool"]) for i in intercepts) if name not in known]
    return tools + [
        {"type": "function", "function": {"name": name, "description": f"The {name} tool.", "parameters": PERMISSIVE}}
        for name in names
    ]


class ChatAdapter:
    """Runs the whole tool loop per request; retries each chat-completions request on its own."""

    name = "openai"
    handles_retries = True
    cacheable = True

    def __init__(self, agent: OpenAIAgent, inputs: ChatInputs, policy: RetryPolicy,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        """``inputs``: the endpoint, skill texts and tools, checked (gate.config.agent_inputs)."""
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
        options = agent.request_options()
        if agent.tool_choice is not None:
            options["tool_choice"] = agent.tool_choice if isinstance(agent.tool_choice, str) else agent.tool_choice.model_dump()
        return {"url": self._url, "model": agent.model, "temperature": agent.temperature, "seed": agent.seed,
                "max_turns": agent.max_turns, "system": system, "tools": tools,
                **({"options": options} if options else {})}  # only when set: caches recorded before keep their keys

    def _headers(self) -> dict[str, str]:
        return headers_mod.with_bearer(self._agent.headers, self._agent.api_key_env)

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        """The run's record. A turn that fails after tools were called still gives the record, with
        every call made so far and the error (an agent error, never judged)."""
        agent = self._agent
        system = self.system_prompt(request)
        transcript: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        transcript += [dict(m) for m in request["messages"]]
        tools = tool_declarations(request.get("tool_intercepts", ()), self._tools)
        tools_sim = ToolSimulator(request.get("tool_intercepts", ()), (t["function"]["name"] for t in self._tools),
                                  agent.tool_default_result, request.get("tool_state"),
                                  replay=bool(request.get("tool_replay")))
        run = _Run(agent.model)
        try:
            for turn in range(1, agent.max_turns + 1):
                run.turns = turn
                reply = read_reply(await self._complete(self._body(transcript, tools, forced=not run.calls)), run.usage)
                run.finish_reason = reply.finish_reason
                message = reply.message
                thinking, said = split_reasoning(message_text(message.get("content")))
                run.thought += len(thinking)
                run.answer = said or run.answer
                if reply.cut_off:  # its text or its tool calls stop mid-way: nothing in it is taken as done
                    return run.record("cut_off", cut_off_error(agent.max_tokens, "agent"))
                requested = [_parse_tool_call(raw, f"call_{turn}_{n}") for n, raw in enumerate(message.get("tool_calls") or [])]
                if not requested:
                    return run.record("answer")
                transcript.append(_echoed(message, [call_id for call_id, _, _ in requested]))
                for call_id, name, args in requested:
                    result, is_error = await self._simulate(tools_sim, name, args)
                    run.add({"name": name, "args": args, "result": result, "is_error": is_error}, turn - 1)
                    transcript.append({"role": "tool", "tool_call_id": call_id, "content": result})
        except AgentError as exc:
            if not run.calls:
                raise
            return run.record("error", f"turn {run.turns}: {exc}")
        return run.record("max_turns")

    async def _simulate(self, tools_sim: ToolSimulator, name: str, args: dict[str, Any]) -> tuple[str, bool]:
        """A simulated call's result and is_error flag, after its injected latency; latency beyond the
        agent's ``timeout_s`` times the call out, as a real tool's would."""
        answer = tools_sim.answer(name, args)
        if answer.delay_s > self._agent.timeout_s:
            await self._policy.sleep(self._agent.timeout_s)
            return f"error: tool '{name}' timed out after {self._agent.timeout_s:g} s", True
        if answer.delay_s:
            await self._policy.sleep(answer.delay_s)
        return answer.result, answer.is_error

    def _body(self, transcript: list[dict[str, Any]], tools: list[dict[str, Any]], *, forced: bool) -> dict[str, Any]:
        agent = self._agent
        body = request_body(agent, model=agent.model, messages=transcript, temperature=agent.temperature, seed=agent.seed)
        if tools:
            body["tools"] = tools
            choice = agent.tool_choice
            if choice is not None and (forced or choice in ("auto", "none")):  # forced until a tool was called
                body["tool_choice"] = choice if isinstance(choice, str) else choice.model_dump()
        return body

    async def _complete(self, body: dict[str, Any]) -> dict[str, Any]:
        hint = f" (is ${self._agent.api_key_env} set and valid?)"

        async def attempt() -> dict[str, Any]:
            return await post_json(self._http.client, self._url, body, self._headers(),
                                   timeout_s=self._agent.timeout_s, hint=hint)

        response, _ = await with_retries(attempt, self._policy)
        return response

    async def aclose(self) -> None:
        await self._http.aclose()


def _echoed(message: dict[str, Any], ids: list[str]) -> dict[str, Any]:
    """The assistant's tool-call message as it goes back to the server: content "" when it had none
    (a llama.cpp server answers null with HTTP 500; OpenAI's reference sends ""), and each call with
    its id, its type and its arguments as the JSON text the model wrote."""
    content = message.get("content")
    calls = []
    for raw, call_id in zip(message["tool_calls"], ids, strict=True):  # each already read by _parse_tool_call
        function = raw["function"]
        arguments = function.get("arguments")
        text = arguments if isinstance(arguments, str) else json.dumps(arguments or {}, ensure_ascii=False)
        calls.append({"id": call_id, "type": "function", "function": {"name": function["name"], "arguments": text}})
    return {"role": "assistant", "content": "" if content is None else content, "tool_calls": calls}


def _parse_tool_call(raw: Any, fallback_id: str = "") -> tuple[str, str, dict[str, Any]]:
    """(id, name, arguments) of a requested call; a call without an id gets ``fallback_id``, which
    its tool message then answers."""
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
    return call_id or fallback_id, function["name"], arguments


@dataclass
class _Run:
    """What one run's tool loop has gathered so far."""

    model: str | None
    calls: list[dict[str, Any]] = field(default_factory=list)
    call_turns: list[int] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    answer: str = ""
    thought: int = 0
    """Characters of thinking set apart from the answers."""
    turns: int = 0
    finish_reason: str | None = None

    def add(self, call: dict[str, Any], turn: int) -> None:
        self.calls.append(call)
        self.call_turns.append(turn)

    def record(self, stop: str, error: str | None = None) -> dict[str, Any]:
        metadata: dict[str, Any] = {"model": self.model, "turns": self.turns, "stop_reason": stop,
                                    "finish_reason": self.finish_reason}
        if self.usage:
            metadata["usage"] = self.usage
        if self.thought:
            metadata["reasoning_chars"] = self.thought  # a reasoning model's <think> block: shown apart, not the answer
        mark_parallel_turns(self.calls, self.call_turns)
        record: dict[str, Any] = {"final_answer": self.answer, "tool_calls": self.calls, "metadata": metadata}
        return record if error is None else {**record, "error": error}
