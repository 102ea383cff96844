"""`gate baseline`: record the committed baseline from fresh runs, and accept never-rule violations
on the record; registered by gate.cli.app. Options in, a runner called, an exit code out."""

from __future__ import annotations

import sys

import click


@click.group("baseline")
def baseline_group() -> None:
    """Manage the committed baseline."""


@baseline_group.command("update")
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml).")
@click.option("--runs", type=click.IntRange(min=0, max=100), is_flag=False, flag_value=0, default=None,
              help="Fresh runs of every case to record, at most 100 (default, and --runs alone: "
                   "decision.baseline_runs of gate.yaml, 5).")
@click.option("--results", "results_path", is_flag=False, flag_value="", default=None,
              help="Record a results.json instead of fresh runs (--results alone: <out_dir>/results.json); "
                   "warns when it holds fewer runs than decision.baseline_runs.")
@click.option("--out", "out_path", default=None, help="Baseline file to write (default: from gate.yaml).")
@click.option("--accept-regressions", is_flag=True,
              help="Record it even where it lowers the bar (cases that passed and now fail).")
@click.option("--accept-partial", is_flag=True,
              help="Record it even from a partial run (interrupted, runs missing, agent errors); says what it lacked.")
def baseline_update_command(config_path: str | None, runs: int | None, results_path: str | None,
                            out_path: str | None, accept_regressions: bool, accept_partial: bool) -> None:
    """Write the baseline (atomically) from fresh runs of every case, or from a results file.

    Prints the calibration and what it changes; refuses (exit 1) to lower the bar for a case unless
    --accept-regressions is given, and to record a partial run unless --accept-partial is.
    """
    from gate.commands.baseline import update

    sys.exit(update(config_path, results_path, out_path, runs, accept_regressions, accept_partial))


@baseline_group.command("accept")
@click.argument("case_id")
@click.argument("constraint_id")
@click.option("--reason", default=None, help="Why the violation is tolerated (required; stored with the day).")
@click.option("--revoke", is_flag=True, help="Withdraw the acceptance: a violation fails the gate again.")
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml).")
@click.option("--out", "out_path", default=None, help="Baseline file (default: from gate.yaml).")
def baseline_accept_command(case_id: str, constraint_id: str, reason: str | None, revoke: bool,
                            config_path: str | None, out_path: str | None) -> None:
    """Accept, on the record, a known violation of a never-rule (a zero_tolerance constraint).

    While the acceptance stands the violation is a warning, not a red line, and every report lists
    it. In a pull request the base branch's baseline counts: an acceptance the pull request adds is
    a lowered bar until acknowledged.
    """
    from gate.commands.baseline import accept

    sys.exit(accept(config_path, case_id, constraint_id, reason, revoke, out_path))
