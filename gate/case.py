"""The case file model: one golden case — its input, group settings, constraints and examples."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from gate.files.strictvalues import StrictValues
from gate.model import SharedFieldNames
from gate.tool_intercept import ToolIntercept, check_state
from gate.trajectory import Group, ToolCall, check_turns

# Suite and dimension names are the user's (gate.yaml ``suites:`` lists them); they name report
# sections, JUnit classes and threshold keys, so they are short identifiers.
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]{0,31}$"
MAX_REPEATS = 100
"""Most runs of one case per group (``repeats``, and gate.yaml's override): as many as
``decision.baseline_runs`` may record; a run plan beyond it is a typo, not a measurement."""
TAG_GOLDEN = "golden"
TAG_SKILL_EXPLICIT = "skill-explicit-constraint"


class _Strict(SharedFieldNames, StrictValues):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Message(_Strict):
    """A chat message of the case input (OpenAI roles)."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str


class Attachment(_Strict):
    """A non-text input (an image). ``path`` is empty while the seed only describes it."""

    type: Literal["image", "file", "audio"]
    description: str
    path: str | None = None


class CaseInput(_Strict):
    """What the agent receives. ``variants``: alternative inputs, run i uses variant i mod n."""

    messages: tuple[Message, ...] = ()
    context: dict[str, Any] = Field(default_factory=dict)
    tool_intercepts: tuple[ToolIntercept, ...] = ()
    tool_state: dict[str, str] = Field(default_factory=dict)
    """The simulated tools' state at the start of a run (gate.tool_intercept)."""
    tool_replay: bool = False
    """Replay recorded calls (``gate run --record-tools``): only intercepts keyed by arguments
    answer, the n-th identical call its n-th match; a call none matches ends the run as an agent error."""
    attachments: tuple[Attachment, ...] = ()
    variants: tuple[CaseInput, ...] = ()

    @model_validator(mode="after")
    def _has_a_user_turn(self) -> CaseInput:
        check_state(self.tool_intercepts, self.tool_state)
        if self.variants:
            return self
        if not self.messages or self.messages[-1].role != "user":
            raise ValueError("messages must end with a user message (or give variants)")
        return self

    def for_run(self, run: int) -> CaseInput:
        """The input of repeat ``run``: a variant when the case has them."""
        return self.variants[run % len(self.variants)] if self.variants else self


class GroupSettings(_Strict):
    """A group's skill setting: A runs with skills off, B with ``active_skills`` on."""

    skill_enabled: bool
    active_skills: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _skills_need_enabling(self) -> GroupSettings:
        if self.active_skills and not self.skill_enabled:
            raise ValueError("active_skills given while skill_enabled is false")
        return self


class Constraint(_Strict):
    """One checkable constraint: a rule (``check`` + ``params``), a combinator, or a judge rubric."""

    id: str | None = None
    says: str | None = None
    """The seed's wording of what this constraint checks."""
    groups: tuple[Group, ...] | None = None
    """Only judged in these groups (a skill's own rule binds group B only); default: all."""
    check: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    judge: str | None = None
    """A rubric for semantic judgement: recorded, never gated by rule checkers."""
    all_of: tuple[Constraint, ...] | None = None
    any_of: tuple[Constraint, ...] | None = None
    not_: Constraint | None = Field(None, alias="not")
    zero_tolerance: bool = False
    """A never-rule: one run that breaks it fails the gate, whatever the rates, the baseline or the
    reruns say (a forbidden write tool: one call is one wrong refund). Rules only, top level only."""

    _parsed: Any = PrivateAttr(None)
    checked_elsewhere: ClassVar[frozenset[str]] = frozenset({"params"})  # by the checker's own model

    def keep_parsed(self, params: BaseModel) -> None:
        """Keep the checker's parameters as the loader validated them: parsed once, before anything runs."""
        self._parsed = params

    @property
    def parsed_params(self) -> BaseModel | None:
        """The checker's parameters as the loader validated them; None for a constraint built in code."""
        return self._parsed  # type: ignore[no-any-return]

    @model_validator(mode="after")
    def _one_kind(self) -> Constraint:
        kinds = [k for k in ("check", "judge", "all_of", "any_of", "not_") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("give exactly one of check, judge, all_of, any_of, not")
        if self.params and self.check is None:
            raise ValueError("params belong to a check")
        for key in ("all_of", "any_of"):
            value = getattr(self, key)
            if value is not None and len(value) < 2:
                raise ValueError(f"{key} needs at least two constraints")
        if self.zero_tolerance and not self.is_rule:
            raise ValueError("zero_tolerance needs a rule: a judge rubric cannot decide a run on its own")
        if any(child.zero_tolerance for child in self.children):
            raise ValueError("zero_tolerance belongs on the top-level constraint, not inside a combinator")
        return self

    @property
    def kind(self) -> str:
        """check, judge, all_of, any_of or not."""
        for key in ("check", "judge", "all_of", "any_of"):
            if getattr(self, key) is not None:
                return key
        return "not"

    @property
    def children(self) -> tuple[Constraint, ...]:
        if self.all_of is not None:
            return self.all_of
        if self.any_of is not None:
            return self.any_of
        return (self.not_,) if self.not_ is not None else ()

    @property
    def is_rule(self) -> bool:
        """True when a rule can decide it (a judge anywhere inside makes it semantic)."""
        if self.judge is not None:
            return False
        return all(child.is_rule for child in self.children)

    @property
    def label(self) -> str:
        """What a report names it by: its check id or combinator."""
        return self.check or self.kind

    def applies_to(self, group: str) -> bool:
        return self.groups is None or group in self.groups


class Example(_Strict):
    """A hand-written trajectory that must pass, or must fail on the constraints in ``fails``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    final_answer: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    group: Group = "A"
    note: str | None = None
    fails: tuple[str, ...] = ()

    @field_validator("tool_calls")
    @classmethod
    def _turns_in_order(cls, value: tuple[ToolCall, ...]) -> tuple[ToolCall, ...]:
        check_turns(value)
        return value


class Examples(_Strict):
    """At least one passing and one failing example per case."""

    pass_: tuple[Example, ...] = Field(alias="pass", min_length=1)
    fail: tuple[Example, ...] = Field(min_length=1)

    @field_validator("fail")
    @classmethod
    def _fail_names_constraints(cls, value: tuple[Example, ...]) -> tuple[Example, ...]:
        for index, example in enumerate(value):
            if not example.fails:
                raise ValueError(f"fail[{index}] must list the constraint ids it fails (fails: [...])")
        return value


class ConsistencyBounds(_Strict):
    """Consistency pass/fail lines; between them a case is a warning."""

    pass_: float = Field(alias="pass", ge=0, le=1)
    fail: float = Field(ge=-1, le=1)


class Consistency(_Strict):
    """How a repeated case's stability is measured (X suite)."""

    fields: tuple[Literal["tool_sequence", "item_count", "numbers", "structure", "answer"], ...] = Field(min_length=1)
    threshold: ConsistencyBounds | None = None
    """Per-group consistency (mode frequency averaged over fields)."""
    gain: ConsistencyBounds | None = None
    """Skill stability gain: B consistency − A consistency."""


class Case(_Strict):
    """One golden case, as read from ``cases/<suite>/<ID>.yaml``."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    suite: str = Field(pattern=NAME_PATTERN)
    dimension: str = Field(pattern=NAME_PATTERN)
    title: str
    difficulty: Literal["easy", "medium", "hard"]
    scoring: Literal["auto", "judge", "auto+judge", "auto+human"]
    tags: tuple[str, ...] = ()
    input: CaseInput | None = None
    groups: dict[Group, GroupSettings]
    repeats: int = Field(1, ge=1, le=MAX_REPEATS)
    consistency: Consistency | None = None
    aggregate: tuple[str, ...] = ()
    """Case ids whose results this case summarises (X-CD-04); such a case is not run itself."""
    constraints: tuple[Constraint, ...] = ()
    examples: Examples | None = None
    notes: str | None = None

    _path: str = PrivateAttr("")
    _line: int = PrivateAttr(1)

    def locate(self, path: str, line: int) -> None:
        """Record the file the case was read from and the line of its ``id:`` (the loader's, once)."""
        self._path, self._line = path, line

    @model_validator(mode="after")
    def _coherent(self) -> Case:
        if not self.groups:
            raise ValueError("groups needs at least group A")
        if self.aggregate:
            return self
        if self.input is None:
            raise ValueError("input is required (unless the case aggregates other cases)")
        if self.examples is None:
            raise ValueError("examples (pass and fail) are required")
        ids = [c.id for c in self.constraints]
        if any(i is None for i in ids):
            raise ValueError("every top-level constraint needs an id")
        duplicates = sorted({i for i in ids if ids.count(i) > 1 and i is not None})
        if duplicates:
            raise ValueError(f"duplicate constraint ids {duplicates}")
        has_rule = any(c.is_rule for c in self.constraints)
        if TAG_GOLDEN in self.tags and not has_rule:
            raise ValueError("a golden case needs at least one rule-checkable constraint")
        return self

    @property
    def path(self) -> str:
        """The file the case was read from."""
        return self._path

    @property
    def line(self) -> int:
        """The line of ``id:`` in that file, where annotations and JUnit point."""
        return self._line

    @property
    def golden(self) -> bool:
        return TAG_GOLDEN in self.tags

    @property
    def skill_explicit(self) -> bool:
        return TAG_SKILL_EXPLICIT in self.tags

    @property
    def runnable(self) -> bool:
        """False for aggregate cases, which summarise others instead of calling the agent."""
        return not self.aggregate

    def constraint(self, constraint_id: str) -> Constraint | None:
        return next((c for c in self.constraints if c.id == constraint_id), None)
