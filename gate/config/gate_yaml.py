"""gate.yaml (contract keys: cases, agent, baseline, out_dir), validated with places in errors."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)

from gate.case import MAX_REPEATS, NAME_PATTERN
from gate.config.agent_config import AgentConfig, ChatOptions, CommandAgent
from gate.config.decision import DecisionConfig
from gate.errors import GateError
from gate.files import yamlio
from gate.files.strictvalues import StrictConfig as _Strict
from gate.net.headers import HEADER_VARIABLE
from gate.process.budget import DEFAULT_BUDGET_S
from gate.redaction.secrets import remember, secret_headers

DEFAULT_CONFIG = "gate.yaml"


class CasesConfig(_Strict):
    """Which cases run: a directory, and tags of which a selected case carries at least one."""

    path: str = "cases"
    tags: tuple[str, ...] = ("golden",)
    ids: tuple[str, ...] = ()


DimensionLine = Literal["min_a", "min_delta"]


class Thresholds(_Strict):
    """Policy numbers, seed defaults; ``per_dimension`` overrides by dimension key (``SUITE/DIM``)."""

    min_a: float = Field(0.70, ge=0, le=1)
    min_delta: float = Field(0.0, ge=-1, le=1)
    skill_explicit_min_b: float = Field(0.85, ge=0, le=1)
    red_line_delta: float = Field(-0.15, ge=-1, le=0)
    red_line_skill_explicit_b: float = Field(0.75, ge=0, le=1)
    per_dimension: dict[str, dict[DimensionLine, float]] = Field(default_factory=dict)

    def min_a_for(self, dimension: str) -> float:
        return self.per_dimension.get(dimension, {}).get("min_a", self.min_a)

    def min_delta_for(self, dimension: str) -> float:
        return self.per_dimension.get(dimension, {}).get("min_delta", self.min_delta)


class JudgingConfig(_Strict):
    """Bounds on judging one trajectory."""

    budget_s: float | None = Field(DEFAULT_BUDGET_S, gt=0, le=3600)
    """Seconds one trajectory's constraints may take together; a constraint still running then is
    recorded as an error naming it and the budget. ``null``: no limit."""


class JudgePrice(_Strict):
    """What the judge endpoint charges, per million tokens, for the cost line of the report."""

    prompt_per_mtok: float = Field(ge=0, allow_inf_nan=False)
    completion_per_mtok: float = Field(ge=0, allow_inf_nan=False)
    currency: str = Field("USD", max_length=8)


class JudgeConfig(ChatOptions):
    """The semantic tier: an OpenAI-compatible chat endpoint that judges the ``judge:`` rubrics;
    ``max_tokens``, ``stop`` and ``extra_body`` as the openai agent's (it offers no tools: no tool_choice)."""

    url: str
    """The endpoint's base URL (…/v1) or its chat-completions URL: OpenAI, vLLM, Ollama, LM Studio."""
    model: str = Field(min_length=1)
    api_key_env: str = "GATE_JUDGE_API_KEY"
    """The environment variable holding the API key (sent as a bearer token when set)."""
    headers: dict[str, str] = Field(default_factory=dict)
    """Extra HTTP headers; ${ENV} is expanded at call time and values are never printed."""
    samples: int = Field(3, ge=1, le=15)
    """Independent samples per verdict; the majority decides and a split vote goes to review."""
    temperature: float = Field(0.0, ge=0, le=2)
    sample_temperature: float = Field(0.3, gt=0, le=2)
    """With samples > 1 and temperature 0, the temperature each sample is asked at: at 0 the samples repeat one vote."""
    seed: int | None = 0
    """Sample i is asked with seed ``seed + i`` (so samples are independent yet reproducible); null: none sent."""
    concurrency: int = Field(4, ge=1, le=64)
    timeout_s: float = Field(60.0, gt=0, le=86_400)
    retries: int = Field(3, ge=0, le=10)
    """Retries of a failed request (timeouts, 429 with Retry-After, 5xx)."""
    format_retries: int = Field(2, ge=0, le=5)
    """Times a reply that is not the asked-for JSON is sent back to be corrected."""
    max_answer_chars: int = Field(12_000, ge=200)
    max_tool_chars: int = Field(4_000, ge=0)
    max_example_chars: int = Field(1_500, ge=0)
    cache: str | Literal[False] = ".gate-cache/judge"
    """A directory for the judge's replies (an unchanged prompt is not asked again), or false. Entries
    are signed with $GATE_JUDGE_CACHE_KEY when it is set and only signed ones are read; without it the
    cache is not used in CI, where a pull request could commit entries."""
    price: JudgePrice | None = None
    gate: bool = False
    """Let the judge's verdicts count in `gate check` (the PR gate) on the rubrics its calibration trusts."""
    min_agreement: float = Field(0.8, ge=0, le=1)
    """The calibration floor: `--calibrate` exits 1 under it, and a rubric below it stays advisory."""
    calibration: str = ".gate/calibration.json"
    """The calibration record `gate judge --calibrate` writes (commit it) and ``gate: true`` reads."""

    def sampling_temperature(self) -> float:
        """Each sample's temperature: independent votes need some when several are asked."""
        return self.sample_temperature if self.samples > 1 and self.temperature == 0 else self.temperature

    @field_validator("url")
    @classmethod
    def _url_scheme(cls, url: str) -> str:
        if not url.lower().startswith(("http://", "https://")):
            raise ValueError("url must start with http:// or https://")
        return url


class JunitConfig(_Strict):
    """How junit.xml maps runs to testcases."""

    testcase: Literal["run", "case"] = "run"
    """``run``: one testcase per case run (the contract) · ``case``: one per case, its groups and
    runs inside, so one broken case is one failing testcase."""
    known_failures: Literal["skipped", "passed", "failure"] = "skipped"
    """A failure the baseline has too (or a flaky run of a case passing by majority): skipped with
    the reason (no JUnit consumer turns it red) · passed, the reason as output · failure, as a new one."""


class AnnotationsConfig(_Strict):
    """What the Action's annotations show."""

    known_failures: Literal["notice", "none"] = "notice"
    """Known and flaky failures as ``::notice`` lines, or not at all (new failures are always ``::error``)."""


class ReportsConfig(_Strict):
    junit: JunitConfig = Field(default_factory=JunitConfig)
    annotations: AnnotationsConfig = Field(default_factory=AnnotationsConfig)


Suites = dict[Annotated[str, StringConstraints(pattern=NAME_PATTERN)],
              tuple[Annotated[str, StringConstraints(pattern=NAME_PATTERN)], ...] | None]


class GateConfig(_Strict):
    """The whole gate.yaml. Relative paths are relative to the file's directory."""

    suites: Suites | None = None
    """The suites the cases may name, each with its dimensions (none listed: any dimension);
    unset: any suite. The library names none of its own."""
    cases: CasesConfig = Field(default_factory=CasesConfig)
    agent: AgentConfig = Field(default_factory=lambda: CommandAgent(command=("python", "examples/demo_agent.py")))
    groups: tuple[Literal["A", "B"], ...] = ("A", "B")
    repeats: int | None = Field(None, ge=1, le=MAX_REPEATS)
    """Override every case's repeats (e.g. 1 for a quick local run)."""
    baseline: str = "baselines/main.json"
    out_dir: str = "gate-results"
    thresholds: Thresholds = Field(default_factory=Thresholds)
    fail_on: Literal["error", "warning", "red-line"] = "error"
    """Lowest finding level that fails the gate."""
    decision: DecisionConfig = Field(default_factory=DecisionConfig)
    baseline_lowered: Literal["error", "warning"] = "error"
    """A pull request whose own baseline lowers the bar for a case: this level of finding."""
    judging: JudgingConfig = Field(default_factory=JudgingConfig)
    judge: JudgeConfig | None = None
    """The semantic tier (`gate judge`); unset: rubrics are recorded, not judged."""
    reviews: str = "reviews/reviews.yaml"
    """Human verdicts (`gate review`); each overrides the rule or judge verdict on its trajectory."""
    reports: ReportsConfig = Field(default_factory=ReportsConfig)

    _root: Path = Path(".")
    _read: bool = False  # from a gate.yaml (else every default)
    _file: Path | None = None  # that file, as named

    @classmethod
    def validated(cls, data: Any, *, root: Path, read: bool = True, file: Path | None = None) -> GateConfig:
        """``data`` validated, its relative paths resolved from ``root`` (gate.yaml's directory);
        ``read``: it came from a gate.yaml; ``file``: that file as named, for places in errors."""
        config = cls.model_validate(data)
        config._root, config._read, config._file = root, read, file
        return config

    def place(self, loc: Sequence[int | str]) -> str | None:
        """``gate.yaml:line`` of a setting (``("agent", "command")``), for an error about its value;
        None when no gate.yaml was read."""
        return yamlio.place_in(self._file, loc) if self._file is not None else None

    def resolve(self, path: str) -> Path:
        """``path`` relative to the config file's directory."""
        p = Path(path)
        return p if p.is_absolute() else self._root / p

    def derived_cache(self) -> Path | None:
        """``.gate-cache`` beside gate.yaml, where the caches of derived results live (validation
        stamps, parsed case files); None when no gate.yaml was read — a command run outside a
        project leaves no files behind."""
        return self._root / ".gate-cache" if self._read else None


def replaced(config: GateConfig, **parts: Any) -> GateConfig:
    """``config`` with some top-level parts replaced, still resolving paths from its file's directory."""
    return config.model_copy(update=parts)  # a copy keeps the private attributes: _root, _read, _file


def without_cache(config: GateConfig) -> GateConfig:
    """``config`` with the answer cache off (``--no-cache``): every answer is asked afresh."""
    return replaced(config, agent=config.agent.model_copy(update={"cache": False}))


def salvage_config(path: str | Path | None) -> GateConfig:
    """What can still be used of a gate.yaml that does not validate: its ``suites`` and ``cases``
    when those parts are valid on their own (so `gate validate` checks the case files against
    them), else the defaults."""
    chosen = Path(path or DEFAULT_CONFIG)
    try:
        data = yamlio.load(chosen, yamlio.read_text(chosen))
    except (GateError, OSError):
        return GateConfig()
    parts = {key: data[key] for key in ("suites", "cases") if isinstance(data, dict) and key in data}
    for keep in (parts, {k: v for k, v in parts.items() if k == "suites"}, {k: v for k, v in parts.items() if k == "cases"}):
        try:
            return GateConfig.validated(keep, root=chosen.resolve().parent)
        except ValidationError:
            continue
    return GateConfig()


def load_config(path: str | Path | None) -> GateConfig:
    """Read gate.yaml; a missing default file means all defaults, a missing named file is an error."""
    chosen = Path(path or DEFAULT_CONFIG)
    if not chosen.exists():
        if path is None:
            return GateConfig()
        raise GateError("config file not found", where=str(chosen))
    text = yamlio.read_text(chosen)
    data: Any = yamlio.load(chosen, text) or {}
    if not isinstance(data, dict):
        raise GateError("gate.yaml must be a mapping (cases, agent, baseline, …)", where=str(chosen))
    try:
        config = GateConfig.validated(data, root=chosen.resolve().parent, file=chosen)
    except ValidationError as exc:
        raise yamlio.validation_error(chosen, text, exc, keys=yamlio.model_keys(GateConfig)) from None
    remember(configured_secrets(config, os.environ))
    return config


def configured_secrets(config: GateConfig, environ: Mapping[str, str]) -> list[str]:
    """The header values (their ${VARIABLES} as set now) and API keys gate.yaml points at: hidden from
    every report from the start, a cached answer that echoes one included."""
    found = []
    for part in (config.agent, config.judge):
        raw = getattr(part, "headers", None) or {}
        expanded = {name: HEADER_VARIABLE.sub(lambda match: environ.get(match.group(1), ""), value)
                    for name, value in raw.items()}
        found += secret_headers(raw, expanded, HEADER_VARIABLE)
        key_variable = getattr(part, "api_key_env", None)
        if key_variable and environ.get(key_variable):
            found.append(environ[key_variable])
    return found
