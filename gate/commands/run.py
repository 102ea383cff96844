"""`gate run`: collect trajectories of the selected cases into a JSONL file, for a later `gate eval`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click

from gate.cases.loader import load_cases
from gate.config.gate_yaml import load_config, without_cache
from gate.errors import EXIT_INTERRUPTED
from gate.files.atomic import check_writable
from gate.pipeline.stages import select_cases
from gate.runner.engine import RunOutcome, run_jobs
from gate.runner.settings import RunnerSettings
from gate.runs.jobs import plan
from gate.runs.records import write_trajectories
from gate.runs.tool_recording import write_recordings


@dataclass(frozen=True)
class RunSettings:
    """The options of `gate run`."""

    config: str | None = None
    out: str | None = None
    shard: tuple[int, int] | None = None
    cases: str | None = None
    progress: bool | None = None
    no_cache: bool = False
    record_tools: str | None = None
    """A directory for the calls each case's agent made, as replay intercepts (gate.runs.tool_recording)."""


def summary(outcome: RunOutcome, out: Path) -> str:
    """The one-line report of a run."""
    done = len(outcome.trajectories)
    ok = done - outcome.errors
    line = (f"{done} trajectories (ok {ok} · err {outcome.errors} · cached {outcome.cache_hits}) "
            f"from {outcome.calls} agent calls")
    if outcome.retries:
        line += f" and {outcome.retries} retries"
    line += f" → {out}"
    return f"interrupted: {line}" if outcome.interrupted else line


def run_collect(settings: RunSettings) -> int:
    """Load, select, run and write; returns the exit code (0, or 130 when interrupted)."""
    config = load_config(settings.config)
    config = without_cache(config) if settings.no_cache else config
    case_dir = Path(settings.cases) if settings.cases else config.resolve(config.cases.path)
    case_set = load_cases(case_dir, config.suites)
    chosen = select_cases(config, case_set, settings.shard)
    jobs = plan(chosen, config.groups, config.repeats)
    out = Path(settings.out) if settings.out else config.resolve(config.out_dir) / "trajectories.jsonl"
    if settings.record_tools:
        check_writable(Path(settings.record_tools))  # before any agent call, not after the whole run
    outcome = run_jobs(jobs, config.agent, root=config.resolve("."),
                       settings=RunnerSettings(progress=settings.progress,
                                               give_up_unreachable=config.decision.outage_on_unreachable))
    write_trajectories(out, outcome.trajectories)
    click.echo(summary(outcome, out))
    if settings.record_tools:
        written = write_recordings(Path(settings.record_tools), outcome.trajectories)
        click.echo(f"recorded the tool calls of {len(written)} case(s) → {settings.record_tools}")
    return EXIT_INTERRUPTED if outcome.interrupted else 0
