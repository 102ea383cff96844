"""The `gate` command line. Commands stay thin: options in, a runner called, an exit code out.
Heavy modules are imported inside the commands so `gate --help` starts fast."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from gate.cli.group import GateGroup
from gate.errors import GateError

if TYPE_CHECKING:
    from gate.pipeline.stages import CheckSettings
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
    from gate.config.gate_yaml import load_config

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
        click.option("--baseline-ref", "--base-ref", "baseline_ref", default=None,
                     help="Compare with the baseline and the bar (cases, thresholds, fail_on, decision settings) at "
                          "this git revision (default: a pull request's base)."),
        click.option("--accept-lowered-bar", is_flag=True, envvar="GATE_ACCEPT_LOWERED_BAR",
                     help="Acknowledge that this change lowers the bar (removes or relaxes a case, constraint, line or "
                          "setting of the base): listed as warnings instead of failing [env GATE_ACCEPT_LOWERED_BAR]."),
    ]):
        command = option(command)
    return command


def _settings(config_path: str | None, baseline_path: str | None, out_dir: str | None, fail_on: str | None,
              baseline_ref: str | None, accept_lowered_bar: bool, shard: str | None = None,
              no_cache: bool = False) -> CheckSettings:
    from gate.config.gate_yaml import DEFAULT_CONFIG, load_config, without_cache
    from gate.pipeline.stages import CheckSettings
    from gate.process.shard import parse_shard

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
        config_file=config_file if (config_file := Path(config_path or DEFAULT_CONFIG)).is_file() else None,
        accept_lowered_bar=accept_lowered_bar,
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
                  fail_on: str | None, baseline_ref: str | None, accept_lowered_bar: bool, shard: str | None,
                  no_cache: bool) -> None:
    """Run the agent on the selected cases, judge, compare with the baseline, enforce, report.

    Exits 0 when the gate passes, 1 when it fails, 2 on unusable input, 3 on an internal error, 4
    when the agent could not be reached, 130 when stopped (SIGINT, SIGTERM) with the reports of what
    finished written and marked interrupted.
    """
    from gate.process.interrupts import stop_requests

    with stop_requests() as stops:  # a stop from here on ends with the reports, marked interrupted
        from gate.commands.check import run_check

        _finish(*run_check(_settings(config_path, baseline_path, out_dir, fail_on, baseline_ref, accept_lowered_bar,
                                     shard, no_cache), stops))


@main.command("merge")
@click.argument("files", nargs=-1, required=True)
@_gate_options
def merge_command(files: tuple[str, ...], config_path: str | None, baseline_path: str | None,
                  out_dir: str | None, fail_on: str | None, baseline_ref: str | None, accept_lowered_bar: bool) -> None:
    """Merge shard results (results.json files) into one result set and one report."""
    from gate.commands.merge import merge_shards

    _finish(*merge_shards([Path(f) for f in files],
                          _settings(config_path, baseline_path, out_dir, fail_on, baseline_ref, accept_lowered_bar)))


@main.command("checkers")
@click.option("--markdown", is_flag=True, help="Print the checker table of docs/checkers.md.")
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
    agent for the adapter (openai: its tools and a system prompt), a pull-request workflow and the
    requirements-gate.txt it installs (this agent-gate, pinned), schemas for editors, .gitignore
    entries. Refuses to overwrite an existing file (exit 2, nothing written)."""
    from gate.commands.init import init
    from gate.commands.init_workflow import REQUIREMENTS, installed_pin

    target = Path(directory)
    pin = installed_pin()
    for path in init(target, adapter, pin):
        click.echo(f"wrote {path}")
    if not pin.installable:
        click.echo(f"gate: warning: this agent-gate {pin.version} runs from a local directory, which CI cannot "
                   f"install: put the repository and full commit SHA of this version in {REQUIREMENTS} "
                   "(see \"Pinning agent-gate\" in docs/github-actions.md)", err=True)
    start = {"http": "python agent_server.py &  # then: ", "openai": "export OPENAI_API_KEY=…  # then: "}.get(adapter, "")
    click.echo(f"next: {start}gate validate && gate check   (in {target})")


SCHEMA_NAMES = ("case", "config", "results", "judge", "calibration", "reviews")
"""gate.commands.schemas.NAMES, repeated so that `gate --help` does not import pydantic (a test keeps them equal)."""


@main.command("schema")
@click.argument("name", type=click.Choice(SCHEMA_NAMES))
def schema_command(name: str) -> None:
    """Print the JSON Schema of a case file, gate.yaml, results.json, judge.json, the judge's
    calibration or the reviews file (generated from the models; the case schema types each
    checker's params). The repository keeps copies under schemas/."""
    import json

    from gate.commands.schemas import schema

    click.echo(json.dumps(schema(name), indent=2, ensure_ascii=False, sort_keys=True))


@main.command("run")
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml).")
@click.option("--out", "out_path", default=None, help="Trajectory file to write (default: <out_dir>/trajectories.jsonl).")
@click.option("--shard", default=None, help="Run only shard K of N (K/N).")
@click.option("--cases", "cases_dir", default=None, help="Case directory (default: cases.path of gate.yaml).")
@click.option("--no-cache", is_flag=True, help="Ask the agent afresh for every answer, whatever agent.cache says.")
@click.option("--record-tools", "record_tools", default=None,
              help="Also write each case's tool calls and results as replay intercepts: DIR/<case>.tools.yaml.")
def run_command(config_path: str | None, out_path: str | None, shard: str | None, cases_dir: str | None,
                no_cache: bool, record_tools: str | None) -> None:
    """Only collect trajectories (JSON Lines) of the selected cases, for a later `gate eval`.

    Exits 0 once written (failed agent calls are recorded as errors); 130 when interrupted, after
    writing what finished; 2 on unusable input.
    """
    from gate.commands.run import RunSettings, run_collect
    from gate.process.shard import parse_shard

    settings = RunSettings(config=config_path, out=out_path, shard=parse_shard(shard) if shard else None,
                           cases=cases_dir, no_cache=no_cache, record_tools=record_tools)
    sys.exit(run_collect(settings))


def _register_groups() -> None:
    from gate.cli.baseline import baseline_group
    from gate.cli.semantic import judge_command, review_group

    main.add_command(baseline_group)
    main.add_command(judge_command)
    main.add_command(review_group)


_register_groups()


if __name__ == "__main__":  # pragma: no cover
    main()
