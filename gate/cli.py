"""The `gate` command line. Commands stay thin: options in, a runner called, an exit code out.
Heavy modules are imported inside the commands so `gate --help` starts fast."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from gate.cli_group import GateGroup
from gate.errors import GateError

if TYPE_CHECKING:
    from gate.pipeline import CheckSettings
    from gate.report.model import GateReport


@click.group(cls=GateGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="agent-gate", prog_name="gate")
def main() -> None:
    """agent-gate: gate pull requests on how faithfully an LLM agent follows instructions."""


def _existing(path: str, what: str) -> Path:
    p = Path(path)
    if not p.exists():
        raise GateError(f"{what} not found", where=path)
    return p


@main.command("eval")
@click.option("--cases", "cases_dir", default="cases", show_default=True, help="Case directory.")
@click.option("--trajectories", "trajectories", required=True, help="Trajectory file (JSON Lines).")
@click.option("--json", "json_out", default=None, help="Write results.json here.")
@click.option("--budget", "budget_s", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds each record's judging may take (default: judging.budget_s of gate.yaml, 5).")
@click.option("--reviews", "reviews_path", default="reviews/reviews.yaml", show_default=True,
              help="Human verdicts that override those of the trajectories they name (used when present).")
@click.option("--config", "config_path", default=None,
              help="gate.yaml whose thresholds and suites apply (default: ./gate.yaml when present).")
def eval_command(cases_dir: str, trajectories: str, json_out: str | None, budget_s: float | None,
                 reviews_path: str, config_path: str | None) -> None:
    """Judge recorded trajectories (no agent call); print a per-case verdict table and the findings
    gate.yaml's thresholds give (no baseline is compared).

    Exits 0 once every record is judged, whatever the verdicts; 2 on unusable input; 130 when
    interrupted (what was judged by then is still reported).
    """
    from gate.commands.eval import run_eval
    from gate.config import load_config

    config = load_config(config_path)
    budget = config.judging.budget_s if budget_s is None else budget_s
    sys.exit(run_eval(Path(cases_dir), _existing(trajectories, "trajectory file"), json_out, budget,
                      Path(reviews_path), config))


@main.command("validate")
@click.option("--cases", "cases_dir", default=None, help="Case directory (default: cases.path of gate.yaml, cases).")
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml, when present).")
@click.option("--full", is_flag=True, help="Judge every case's examples, also those unchanged since they last passed.")
def validate_command(cases_dir: str | None, config_path: str | None, full: bool) -> None:
    """Validate gate.yaml, every case file (suites and dimensions as gate.yaml declares them) and the
    reviews file, and self-test each case's checkers on its pass/fail examples. Every problem in
    every file is reported in one run. Outside CI, the examples of a case file unchanged since they
    last passed (under the same gate and libraries) are not judged again: .gate-cache/validated.json.

    Exits 0 when all is well, 1 when an example does not behave as its case says, 2 on a bad file.
    """
    from gate.commands.validate import run_validate

    sys.exit(run_validate(cases_dir, config_path, full=full))


def _gate_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options `check` and `merge` share: config, baseline, report directory, fail level."""
    for option in reversed([
        click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml)."),
        click.option("--baseline", "baseline_path", default=None, help="Baseline file (default: from gate.yaml)."),
        click.option("--out-dir", default=None, help="Report directory (default: from gate.yaml, gate-results)."),
        click.option("--fail-on", type=click.Choice(["error", "warning", "red-line"]), default=None,
                     help="Lowest finding level that fails the gate (default: from gate.yaml, error)."),
        click.option("--baseline-ref", default=None,
                     help="Compare with the baseline at this git revision (default: a pull request's base)."),
    ]):
        command = option(command)
    return command


def _settings(config_path: str | None, baseline_path: str | None, out_dir: str | None, fail_on: str | None,
              baseline_ref: str | None, shard: str | None = None, no_cache: bool = False) -> CheckSettings:
    from gate.config import load_config, without_cache
    from gate.pipeline import CheckSettings
    from gate.shard import parse_shard

    config = load_config(config_path)
    config = without_cache(config) if no_cache else config
    return CheckSettings(
        config=config,
        baseline=Path(baseline_path) if baseline_path else config.resolve(config.baseline),
        out_dir=Path(out_dir) if out_dir else config.resolve(config.out_dir),
        shard=parse_shard(shard) if shard else None,
        fail_on=fail_on or config.fail_on,
        baseline_named=baseline_path is not None,
        baseline_ref=baseline_ref,
    )


def _finish(report: GateReport, paths: dict[str, Path]) -> NoReturn:
    from gate.commands.check import exit_code
    from gate.report.terminal import summary

    click.echo(summary(report, paths))
    sys.exit(exit_code(report))


@main.command("check")
@_gate_options
@click.option("--shard", default=None, help="Run only shard K of N (K/N); merge with `gate merge`.")
@click.option("--no-cache", is_flag=True, help="Ask the agent afresh for every answer, whatever agent.cache says.")
def check_command(config_path: str | None, baseline_path: str | None, out_dir: str | None,
                  fail_on: str | None, baseline_ref: str | None, shard: str | None, no_cache: bool) -> None:
    """Run the agent on the selected cases, judge, compare with the baseline, enforce, report.

    Exits 0 when the gate passes, 1 when it fails, 2 on unusable input, 3 on an internal error, 4
    when the agent could not be reached, 130 when stopped (SIGINT, SIGTERM) with the reports of what
    finished written and marked interrupted.
    """
    from gate.interrupts import stop_requests

    with stop_requests() as stops:  # a stop from here on ends with the reports, marked interrupted
        from gate.commands.check import run_check

        _finish(*run_check(_settings(config_path, baseline_path, out_dir, fail_on, baseline_ref, shard, no_cache),
                           stops))


@main.group("baseline")
def baseline_group() -> None:
    """Manage the committed baseline."""


@baseline_group.command("update")
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml).")
@click.option("--results", "results_path", default=None, help="results.json to record (default: <out_dir>/results.json).")
@click.option("--out", "out_path", default=None, help="Baseline file to write (default: from gate.yaml).")
@click.option("--runs", type=click.IntRange(min=0), is_flag=False, flag_value=0, default=None,
              help="Record from N fresh runs of every case instead of the latest results "
                   "(--runs alone: decision.baseline_runs of gate.yaml, 5 by default).")
@click.option("--accept-regressions", is_flag=True,
              help="Record it even where it lowers the bar (cases that passed and now fail).")
def baseline_update_command(config_path: str | None, results_path: str | None, out_path: str | None,
                            runs: int | None, accept_regressions: bool) -> None:
    """Write the baseline (atomically) from the latest results, or from N fresh runs.

    Prints what it changes; refuses (exit 1) to lower the bar for a case unless
    --accept-regressions is given.
    """
    from gate.commands.baseline import update

    sys.exit(update(config_path, results_path, out_path, runs, accept_regressions))


@main.command("merge")
@click.argument("files", nargs=-1, required=True)
@_gate_options
def merge_command(files: tuple[str, ...], config_path: str | None, baseline_path: str | None,
                  out_dir: str | None, fail_on: str | None, baseline_ref: str | None) -> None:
    """Merge shard results (results.json files) into one result set and one report."""
    from gate.commands.merge import merge_shards

    _finish(*merge_shards([Path(f) for f in files],
                          _settings(config_path, baseline_path, out_dir, fail_on, baseline_ref)))


@main.command("checkers")
@click.option("--markdown", is_flag=True, help="Print the README's checker table.")
def checkers_command(markdown: bool) -> None:
    """List the registered checkers and their parameters."""
    from gate.commands.checkers import checker_table

    click.echo(checker_table(markdown=markdown))


@main.command("comment")
@click.option("--body-file", default=None, help="Markdown to post (default: comment.md in gate.yaml's out_dir).")
@click.option("--config", "config_path", default=None, help="gate.yaml naming the out_dir (default: ./gate.yaml).")
@click.option("--pr", type=click.IntRange(min=1), default=None,
              help="Pull request number (default: from the event in GITHUB_EVENT_PATH).")
@click.option("--author", default="github-actions[bot]", show_default=True,
              help="Login whose marked comment is updated; another login's copy of the marker is ignored.")
@click.option("--head-sha", default=None,
              help="Post only while the pull request's head is this commit (for workflow_run).")
def comment_command(body_file: str | None, config_path: str | None, pr: int | None, author: str,
                    head_sha: str | None) -> None:
    """Post or update the sticky PR comment (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL).

    Exits 0 when posted, and also — with a ::warning:: — when it cannot be (no token, repository or
    pull request; a fork's read-only token; a lasting rate limit); 2 on a misconfiguration.
    """
    from gate.commands.comment import run_comment

    sys.exit(run_comment(body_file, config_path, pr, author, head_sha))


@main.command("init")
@click.option("--adapter", type=click.Choice(["command", "python", "http", "openai"]), default="command",
              show_default=True, help="How the gate will call your agent.")
@click.option("--dir", "directory", default=".", show_default=True, help="Where to write the scaffold.")
def init_command(adapter: str, directory: str) -> None:
    """Write a starting point: gate.yaml (commented), one case with pass/fail examples, a starter
    agent for the adapter, a workflow, schemas for editors, .gitignore entries. Refuses to
    overwrite an existing file (exit 2, nothing written)."""
    from gate.commands.init import init

    target = Path(directory)
    for path in init(target, adapter):
        click.echo(f"wrote {path}")
    start = {"http": "python agent_server.py &  # then: ", "openai": "export OPENAI_API_KEY=…  # then: "}.get(adapter, "")
    click.echo(f"next: {start}gate validate && gate check   (in {target})")


SCHEMA_NAMES = ("case", "config", "results", "judge", "calibration", "reviews")
"""gate.schemas.NAMES, repeated so that `gate --help` does not import pydantic (a test keeps them equal)."""


@main.command("schema")
@click.argument("name", type=click.Choice(SCHEMA_NAMES))
def schema_command(name: str) -> None:
    """Print the JSON Schema of a case file, gate.yaml, results.json, judge.json, the judge's
    calibration or the reviews file (generated from the models; the case schema types each
    checker's params). The repository keeps copies under schemas/."""
    import json

    from gate.schemas import schema

    click.echo(json.dumps(schema(name), indent=2, ensure_ascii=False, sort_keys=True))


@main.command("run")
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml).")
@click.option("--out", "out_path", default=None, help="Trajectory file to write (default: <out_dir>/trajectories.jsonl).")
@click.option("--shard", default=None, help="Run only shard K of N (K/N).")
@click.option("--cases", "cases_dir", default=None, help="Case directory (default: cases.path of gate.yaml).")
@click.option("--no-cache", is_flag=True, help="Ask the agent afresh for every answer, whatever agent.cache says.")
def run_command(config_path: str | None, out_path: str | None, shard: str | None, cases_dir: str | None,
                no_cache: bool) -> None:
    """Only collect trajectories (JSON Lines) of the selected cases, for a later `gate eval`.

    Exits 0 once written (failed agent calls are recorded as errors); 130 when interrupted, after
    writing what finished; 2 on unusable input.
    """
    from gate.commands.run import RunSettings, run_collect
    from gate.shard import parse_shard

    settings = RunSettings(config=config_path, out=out_path, shard=parse_shard(shard) if shard else None,
                           cases=cases_dir, no_cache=no_cache)
    sys.exit(run_collect(settings))


def _register_semantic_tier() -> None:
    from gate.cli_semantic import judge_command, review_group

    main.add_command(judge_command)
    main.add_command(review_group)


_register_semantic_tier()


if __name__ == "__main__":  # pragma: no cover
    main()
