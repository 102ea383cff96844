"""What `gate check` refuses before its first agent call, in the one function `gate validate` runs
too, so the pre-commit hook and the gate cannot disagree about an input: the cases selected, the
baseline, the report directory, the reviews file, and the agent's own inputs (its program or
function, the files its adapter reads, its URL, the tools its cases intercept)."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from gate.baseline import store as baseline_mod
from gate.case import Case
from gate.cases.loader import CaseSet
from gate.config.agent_inputs import AgentInputs, check_agent, environment_problems
from gate.config.gate_yaml import GateConfig
from gate.errors import GateError, GateErrors, did_you_mean
from gate.files.atomic import check_writable
from gate.policy.drift_choice import unmatched
from gate.policy.thresholds import Finding
from gate.process.shard import select_shard

if TYPE_CHECKING:
    from gate.semantic.reviews import Reviews


@dataclass(frozen=True)
class CheckSettings:
    """What `gate check` was asked to do, after the CLI options met gate.yaml."""

    config: GateConfig
    baseline: Path
    out_dir: Path
    shard: tuple[int, int] | None = None
    fail_on: str = "error"
    baseline_named: bool = False
    """The baseline was named on the command line: its absence is an error, not a first run."""
    baseline_ref: str | None = None
    """Compare with the baseline and the bar at this git revision (default: a pull request's base commit)."""
    config_file: Path | None = None
    """The gate.yaml read (None: every default), whose copy at the base commit holds the base's bar."""
    accept_lowered_bar: bool = False
    """A maintainer acknowledged that this change lowers the bar: its own settings and acceptances stand."""

    @classmethod
    def of(cls, config: GateConfig) -> CheckSettings:
        """The settings of a plain `gate check` under ``config`` (no option given)."""
        return cls(config=config, baseline=config.resolve(config.baseline), out_dir=config.resolve(config.out_dir),
                   fail_on=config.fail_on)


def select_cases(config: GateConfig, case_set: CaseSet, shard: tuple[int, int] | None) -> list[Case]:
    """Cases with the configured tags/ids, restricted to one shard when sharding.

    Selecting nothing is an error — a tag typo must not pass the gate with zero runs — except for
    a shard, which may legitimately be empty.
    """
    unknown = sorted(set(config.cases.ids) - set(case_set.cases))
    if unknown:
        raise GateError(f"cases.ids: unknown case(s) {unknown}{did_you_mean(unknown[0], case_set.cases)}",
                        where=config.place(("cases", "ids")))
    missing = unmatched(case_set.cases, config.decision.case_groups)
    if missing:
        name, pattern = missing[0]
        raise GateError(f"decision.case_groups.{name}: {pattern!r} names no case (case ids, id patterns such as "
                        f"'B3-QC-*', or 'tag:NAME')", where=config.place(("decision", "case_groups", name)))
    chosen = case_set.select(config.cases.tags, config.cases.ids)
    runnable = [c for c in chosen if c.runnable and any(g in c.groups for g in config.groups)]
    if not runnable:
        tags = ", ".join(config.cases.tags) or "none"
        raise GateError(f"no case selected (tags: {tags}; ids: {len(config.cases.ids)} given; "
                        f"groups: {', '.join(config.groups) or 'none'})", where=str(case_set.root))
    if shard is not None:
        keep = set(select_shard([c.id for c in chosen], shard))
        chosen = [c for c in chosen if c.id in keep]
    return chosen


def load_baseline(settings: CheckSettings) -> baseline_mod.Baseline | None:
    """The baseline, read before any agent call so a corrupt or misnamed one costs nothing."""
    return reference_baseline(settings)[0]


def reference_baseline(settings: CheckSettings) -> tuple[baseline_mod.Baseline | None, list[Finding]]:
    """The baseline to compare with (the base branch's in a pull request) and notes about it."""
    from gate.pipeline.baseline_ref import reference

    if settings.baseline_named and not settings.baseline.exists():
        raise GateError("baseline file not found (named by --baseline)", where=str(settings.baseline))
    return reference(settings.baseline, settings.baseline_ref, lowered_level=settings.config.baseline_lowered,
                     acknowledged=settings.accept_lowered_bar)


def check_report_directory(out_dir: Path, *, create: bool = True) -> None:
    """The reports can land in ``out_dir``: a run whose reports cannot be written is lost. Without
    ``create``, a directory not there yet is not made; what is in its way is still found."""
    if out_dir.exists() and not out_dir.is_dir():
        raise GateError("the report directory is a file", where=str(out_dir))
    if create or out_dir.is_dir():
        check_writable(out_dir)
        return
    above = next((p for p in out_dir.absolute().parents if p.exists()), None)
    if above is not None and not above.is_dir():  # mkdir would fail: a file where a directory must be
        raise GateError(f"the report directory cannot be written: {os.strerror(errno.ENOTDIR)}", where=str(out_dir))


@dataclass
class Ready:
    """What the checks read, for the run that follows; ``agent`` holds the replay file's records
    until closed (the run closes it)."""

    selected: list[Case]
    base: baseline_mod.Baseline | None
    notes: list[Finding]
    reviews: Reviews
    agent: AgentInputs
    warnings: list[str] = field(default_factory=list)
    """Said, not refused: reviews of cases changed since, and (for `gate validate`) what the
    environment of the run must provide that this one does not."""


def preflight(settings: CheckSettings, case_set: CaseSet, *, run: bool = True) -> Ready:
    """Every input `gate check` reads before its first agent call, checked; the problems of every
    stage are raised together (a GateErrors when there are several).

    ``run``: the agent run follows, so the report directory is made, the variables the agent's
    headers name must be set here and the replay file's records are kept. Without it (`gate
    validate`, run where the gate will not be) the same is checked, nothing is made or kept, and an
    unset variable is a warning.
    """
    from gate.semantic.reviews import load_reviews

    config = settings.config
    problems: list[GateError] = []
    warnings: list[str] = []
    selected: list[Case] = []
    base: baseline_mod.Baseline | None = None
    notes: list[Finding] = []
    reviews: Reviews | None = None
    try:
        selected = select_cases(config, case_set, settings.shard)
        planned = True
    except GateError as exc:
        problems += exc.problems
        planned = False
    try:
        base, notes = reference_baseline(settings)
    except GateError as exc:
        problems += exc.problems
    try:
        check_report_directory(settings.out_dir, create=run)
    except GateError as exc:
        problems += exc.problems
    try:
        reviews = load_reviews(config.resolve(config.reviews))  # a malformed reviews file costs no agent call
        warnings += reviews.stale(case_set.cases)
    except GateError as exc:
        problems += exc.problems
    if config.judge is not None and config.judge.gate:
        from gate.semantic.trust import load_record

        try:  # the record judge.gate trusts: a malformed one is refused before any agent call
            load_record(config.resolve(config.judge.calibration))
        except GateError as exc:
            problems += exc.problems
    if not run:
        warnings += [f"{problem} (`gate check` refuses to start without it)"
                     for problem in environment_problems(config.agent, config.place)]
    agent: AgentInputs | None = None
    if planned:  # the agent's inputs are those of the cases and groups it will run
        pairs = [(case, group) for case in selected if case.runnable for group in config.groups if group in case.groups]
        try:  # last: what it holds (the replay file's records) is let go of if anything else failed
            agent = check_agent(config.agent, config.resolve("."), pairs, place=config.place, run=run)
        except GateError as exc:
            problems += exc.problems
    if problems:
        if agent is not None:
            agent.close()
        raise problems[0] if len(problems) == 1 else GateErrors(problems)
    assert agent is not None and reviews is not None
    return Ready(selected, base, notes, reviews, agent, warnings)
