"""gate.yaml's agent: section — how the agent is called, one settings model per adapter.

``adapter`` chooses the model (``command`` when it is left out); each reads the shared keys and
its own. A key the chosen adapter never reads is an error that names whose setting it is, before
any field is checked, so ``url:`` under ``adapter: command`` never passes silently.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Discriminator, Field, Tag, TypeAdapter, field_validator, model_validator

from gate.files import safejson
from gate.files.strictvalues import StrictConfig

AdapterName = Literal["command", "http", "python", "openai", "replay"]


class _Agent(StrictConfig):
    """The settings every adapter shares."""

    concurrency: int = Field(8, ge=1, le=256)
    timeout_s: float = Field(60.0, gt=0, le=86_400)
    """Seconds one call may take: at most a day."""
    retries: int = Field(3, ge=0, le=10)
    cache: str | Literal[False] = False
    """A directory for the answer cache (opt-in: ``.gate-cache``), or false."""
    identity: str | None = None
    """Agent identity (version, prompt hash…) that keys the cache along with each request; by
    default derived from the agent's files and the commit under test (gate/runner/identity.py)."""

    @property
    def target(self) -> Any:
        """What the agent is (command, URL, function, file): part of the identity a baseline records."""
        raise NotImplementedError


def _http_url(url: str) -> str:
    # without a scheme httpx fails on every call; say so before the first one
    if not url.lower().startswith(("http://", "https://")):
        raise ValueError("url must start with http:// or https://")
    return url


class CommandAgent(_Agent):
    """One subprocess per call: the request on stdin, the trajectory on stdout."""

    adapter: Literal["command"] = "command"
    command: tuple[str, ...] = Field(min_length=1)

    @property
    def target(self) -> Any:
        return list(self.command)


class _OverHttp(_Agent):
    """The settings of an adapter that calls a URL."""

    url: str
    headers: dict[str, str] = Field(default_factory=dict)
    """HTTP headers; ${ENV} is expanded at call time and values are never printed."""

    _scheme = field_validator("url")(_http_url)

    @property
    def target(self) -> Any:
        return self.url


class HttpAgent(_OverHttp):
    """One POST per call: the request as the JSON body, the trajectory as the JSON reply."""

    adapter: Literal["http"] = "http"


class PythonAgent(_Agent):
    """A function in the project: ``module:function``, sync or async, taking the request dict."""

    adapter: Literal["python"] = "python"
    function: str

    @property
    def target(self) -> Any:
        return self.function


class ReplayAgent(_Agent):
    """Answers from recorded trajectories (a JSONL file), keyed by case, group and run."""

    adapter: Literal["replay"] = "replay"
    trajectories: str

    @property
    def target(self) -> Any:
        return self.trajectories


SET_BY_THE_GATE = frozenset({"model", "messages", "tools", "tool_choice", "temperature", "seed", "max_tokens", "stop",
                             "stream"})
"""Request keys the gate writes itself: extra_body may not set them (stream: the gate reads whole replies)."""


class ChatOptions(StrictConfig):
    """What a chat-completions request carries besides its messages, for the openai agent and the judge."""

    max_tokens: int | None = Field(None, ge=1)
    """The most tokens one reply may have; a reply cut off there (finish_reason length) is an error, never judged."""
    stop: str | tuple[str, ...] | None = None
    """Sequences that end a reply where they appear."""
    extra_body: dict[str, Any] = Field(default_factory=dict)
    """Keys merged as they are into every request body: a server's own settings (top_k, repeat_penalty,
    chat_template_kwargs…). A key the gate sets itself is refused: set it by its own name."""

    @field_validator("extra_body")
    @classmethod
    def _not_set_by_the_gate(cls, value: dict[str, Any]) -> dict[str, Any]:
        if "stream" in value:
            raise ValueError("extra_body may not set stream: the gate reads each reply whole")
        taken = sorted(SET_BY_THE_GATE & set(value))
        if taken:
            raise ValueError(f"extra_body may not set {', '.join(taken)}: the gate sets "
                             f"{'it' if len(taken) == 1 else 'them'} itself (use the setting of that name)")
        try:  # sent as JSON: a YAML date or a NaN would only fail at the first request
            safejson.check_value(value, "extra_body")
        except safejson.UnsafeValue as exc:
            raise ValueError(str(exc)) from None
        return value

    def request_options(self) -> dict[str, Any]:
        """The body keys these settings add (none when left at their defaults)."""
        options: dict[str, Any] = {}
        if self.max_tokens is not None:
            options["max_tokens"] = self.max_tokens
        if self.stop is not None:
            options["stop"] = self.stop if isinstance(self.stop, str) else list(self.stop)
        return {**options, **self.extra_body}


class _FunctionName(StrictConfig):
    name: str = Field(min_length=1)


class NamedTool(StrictConfig):
    """``tool_choice: {type: function, function: {name: …}}``: the model must call that tool."""

    type: Literal["function"]
    function: _FunctionName


class OpenAIAgent(_OverHttp, ChatOptions):
    """An OpenAI-compatible chat endpoint driven through the agent's tool loop."""

    adapter: Literal["openai"] = "openai"
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    skills_dir: str = "skills"
    temperature: float = 0.0
    seed: int | None = None
    tools: str | tuple[dict[str, Any], ...] = ()
    """The agent's real tools in OpenAI's format (``{type: function, function: {name, description,
    parameters}}``), inline or as a JSON/YAML file; all are offered to the model."""
    tool_default_result: str = '{"status": "ok"}'
    """What a call to a declared tool that the case does not intercept returns."""
    max_turns: int = Field(8, ge=1, le=100)
    system_prompt: str | None = None
    """The team's system prompt, sent in both groups (group B: the active skills' text after it)."""
    system_prompt_file: str | None = None
    """The same read from a file, relative to gate.yaml's directory and inside the repository."""
    tool_choice: Literal["auto", "none", "required"] | NamedTool | None = None
    """Sent whenever tools are offered. A forced choice (required, or a named tool) holds until the
    model has called a tool, then the server's default takes over, so the model can still answer."""

    @model_validator(mode="after")
    def _one_system_prompt(self) -> OpenAIAgent:
        if self.system_prompt is not None and self.system_prompt_file is not None:
            raise ValueError("set system_prompt or system_prompt_file, not both")
        return self


ADAPTERS: dict[str, type[_Agent]] = {"command": CommandAgent, "http": HttpAgent, "python": PythonAgent,
                                     "replay": ReplayAgent, "openai": OpenAIAgent}
"""Each adapter's settings model, by the name gate.yaml gives it."""
_SHARED = frozenset(_Agent.model_fields) | {"adapter"}


def _own_keys(name: str) -> frozenset[str]:
    return frozenset(ADAPTERS[name].model_fields) - _SHARED


def _checked_keys(data: Any) -> Any:
    """The adapter named (``command`` when left out), and no key that adapter does not read."""
    if isinstance(data, _Agent):
        return data
    if not isinstance(data, dict):
        raise ValueError("must be a mapping of the agent's settings (adapter, command or url, …)")
    data = {"adapter": "command", **data}
    name = data["adapter"]
    if not isinstance(name, str) or name not in ADAPTERS:
        return data  # the union says which adapters there are
    owners = {key: [a for a in ADAPTERS if key in _own_keys(a)] for key in set(data) - _SHARED - _own_keys(name)}
    foreign = sorted(key for key, adapters in owners.items() if adapters)  # no one's key: a typo, said below
    if foreign:  # a key the chosen adapter never reads is a mistake, not a setting: say whose it is
        said = "; ".join(f"'{key}' is a setting of adapter {' / '.join(owners[key])}" for key in foreign)
        raise ValueError(f"adapter '{name}' does not read {', '.join(map(repr, foreign))} ({said}); "
                         f"its own settings: {', '.join(sorted(_own_keys(name)))}")
    return data


def _adapter_of(data: Any) -> str | None:
    name = data.get("adapter", "command") if isinstance(data, dict) else getattr(data, "adapter", None)
    return f"union:{name}" if isinstance(name, str) and name in ADAPTERS else None


AgentConfig = Annotated[
    Annotated[CommandAgent, Tag("union:command")] | Annotated[HttpAgent, Tag("union:http")]
    | Annotated[PythonAgent, Tag("union:python")] | Annotated[ReplayAgent, Tag("union:replay")]
    | Annotated[OpenAIAgent, Tag("union:openai")],
    Discriminator(_adapter_of, custom_error_type="adapter",
                  custom_error_message="adapter must be one of: command, http, python, openai, replay"),
    BeforeValidator(_checked_keys),
]
"""The agent section: the settings model of the adapter it names. Error locations drop the
``union:…`` tag (gate.files.yamlio), so a message reads ``agent.url``, as the file does."""

@cache
def _agent_adapter() -> TypeAdapter[AgentConfig]:
    return TypeAdapter(AgentConfig)  # built when first asked for: gate.yaml's model validates its own agent


def agent_config(settings: dict[str, Any]) -> CommandAgent | HttpAgent | PythonAgent | ReplayAgent | OpenAIAgent:
    """The agent section read from a mapping (raises pydantic's ValidationError)."""
    return _agent_adapter().validate_python(settings)
