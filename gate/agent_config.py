"""gate.yaml's agent: section — how the agent is called. Each adapter reads its own keys besides the
shared ones; a key the chosen adapter never reads is an error that names whose setting it is."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from gate.strictvalues import StrictConfig as _Strict


class AgentConfig(_Strict):
    """How the agent is called. Only the keys of the chosen adapter are used."""

    adapter: Literal["command", "http", "python", "openai", "replay"] = "command"
    command: tuple[str, ...] = ()
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    """HTTP headers; ${ENV} is expanded at call time and values are never printed."""
    function: str | None = None
    """python adapter: module:function, sync or async, taking the request dict."""
    trajectories: str | None = None
    """replay adapter: a JSONL file of recorded trajectories."""
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    skills_dir: str = "skills"
    temperature: float = 0.0
    seed: int | None = None
    tools: str | tuple[dict[str, Any], ...] = ()
    """openai adapter: the agent's real tools in OpenAI's format (``{type: function, function: {name,
    description, parameters}}``), inline or as a JSON/YAML file; all are offered to the model."""
    tool_default_result: str = '{"status": "ok"}'
    """openai adapter: what a call to a declared tool that the case does not intercept returns."""
    max_turns: int = Field(8, ge=1)
    concurrency: int = Field(8, ge=1, le=256)
    timeout_s: float = Field(60.0, gt=0)
    retries: int = Field(3, ge=0, le=10)
    cache: str | Literal[False] = False
    """A directory for the answer cache (opt-in: ``.gate-cache``), or false."""
    identity: str | None = None
    """Agent identity (version, prompt hash…) that keys the cache along with each request; by
    default derived from the agent's files and the commit under test (gate/runner/identity.py)."""

    @field_validator("url")
    @classmethod
    def _url_scheme(cls, url: str | None, info: ValidationInfo) -> str | None:
        # without a scheme httpx fails on every call; say so before the first one
        if url and info.data.get("adapter") in ("http", "openai") and not url.lower().startswith(("http://", "https://")):
            raise ValueError("url must start with http:// or https://")
        return url

    @model_validator(mode="after")
    def _adapter_settings(self) -> AgentConfig:
        needs = {"command": "command", "http": "url", "python": "function", "replay": "trajectories", "openai": "url"}
        key = needs[self.adapter]
        if not getattr(self, key):
            raise ValueError(f"adapter '{self.adapter}' needs '{key}'")
        foreign = sorted(self.model_fields_set - _SHARED_SETTINGS - _ADAPTER_SETTINGS[self.adapter])
        if foreign:  # a key the chosen adapter never reads is a mistake, not a setting: say whose it is
            owners = {name: [a for a, keys in _ADAPTER_SETTINGS.items() if name in keys] for name in foreign}
            said = "; ".join(f"'{name}' is a setting of adapter {' / '.join(owners[name])}" for name in foreign)
            raise ValueError(f"adapter '{self.adapter}' does not read {', '.join(map(repr, foreign))} ({said}); "
                             f"its own settings: {', '.join(sorted(_ADAPTER_SETTINGS[self.adapter]))}")
        return self


_SHARED_SETTINGS = frozenset({"adapter", "concurrency", "timeout_s", "retries", "cache", "identity"})


_ADAPTER_SETTINGS: dict[str, frozenset[str]] = {
    "command": frozenset({"command"}),
    "http": frozenset({"url", "headers"}),
    "python": frozenset({"function"}),
    "replay": frozenset({"trajectories"}),
    "openai": frozenset({"url", "headers", "model", "api_key_env", "skills_dir", "temperature", "seed", "tools",
                         "tool_default_result", "max_turns"}),
}
"""The keys each adapter reads, besides the shared ones."""
