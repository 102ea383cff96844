"""The semantic tier's commands, `gate judge` and `gate review`; registered by gate.cli.app. Options
in, a runner called, an exit code out; heavy modules are imported inside the commands."""

from __future__ import annotations

import sys

import click


@click.command("judge")
@click.option("--config", "config_path", default=None, help="gate.yaml with a judge: section (default: ./gate.yaml).")
@click.option("--trajectories", default=None, help="Judge these recorded runs (JSON Lines from `gate check`/`gate run`).")
@click.option("--results", default=None,
              help="Judge the runs of this results.json (reads the trajectories.jsonl beside it).")
@click.option("--out", "out_dir", default=None, help="Report directory (default: out_dir of gate.yaml).")
@click.option("--case", "case_ids", multiple=True, help="Only this case (repeatable).")
@click.option("--tag", "tags", multiple=True,
              help="Collecting runs: cases with this tag (repeatable; default: cases.tags of gate.yaml).")
@click.option("--all-cases", is_flag=True, help="Collecting runs: every case with a rubric, whatever its tags.")
@click.option("--url", default=None, help="The judge endpoint (default: judge.url of gate.yaml).")
@click.option("--model", default=None, help="The judge model (default: judge.model of gate.yaml).")
@click.option("--samples", type=click.IntRange(1, 15), default=None, help="Samples per verdict (default: judge.samples).")
@click.option("--calibrate", is_flag=True,
              help="Judge every case's labelled examples and the reviewed runs (of --trajectories, --results or the "
              "latest check); report agreement per rubric; write the calibration record.")
@click.option("--fail-under", type=click.FloatRange(0, 1), default=None,
              help="Exit 1 when the judge's pass rate (with --calibrate: its agreement) is under this.")
@click.option("--min-agreement", type=click.FloatRange(0, 1), default=None,
              help="With --calibrate: exit 1 when the agreement is under this (default: judge.min_agreement).")
@click.option("--no-cache", is_flag=True, help="Ask afresh, whatever judge.cache (and agent.cache) say.")
def judge_command(config_path: str | None, trajectories: str | None, results: str | None, out_dir: str | None,
                  case_ids: tuple[str, ...], tags: tuple[str, ...], all_cases: bool, url: str | None,
                  model: str | None, samples: int | None, calibrate: bool, fail_under: float | None,
                  min_agreement: float | None, no_cache: bool) -> None:
    """The semantic tier: judge the rubrics of the selected cases with an LLM (OpenAI-compatible endpoint).

    Runs come from --trajectories or --results, or are collected from the agent like `gate check`.
    Writes judge.json, judge.md and review-queue.jsonl (with --calibrate: judge-calibration.json and
    .md, and the calibration record judge.gate reads). The PR gate's verdict is untouched unless
    gate.yaml sets judge.gate. Exits 0 when done, 1 under --fail-under (with --calibrate, or under
    --min-agreement), 2 on unusable input, 4 when the judge decided nothing (the endpoint answered
    no sample, or every verdict is an error), 130 when interrupted (the reports so far are written).
    """
    from gate.commands.judge import JudgeSettings

    if trajectories and results:
        raise click.UsageError("give --trajectories or --results, not both")
    if calibrate and (tags or all_cases):
        raise click.UsageError("--calibrate judges the case examples and reviewed runs: --tag and --all-cases "
                               "do not apply")
    if min_agreement is not None and not calibrate:
        raise click.UsageError("--min-agreement is the calibration's floor: give it with --calibrate")
    if (trajectories or results) and (tags or all_cases):
        raise click.UsageError("--tag and --all-cases choose the cases to collect runs of, not recorded runs")
    settings = JudgeSettings(config=config_path, trajectories=trajectories, results=results, out_dir=out_dir,
                             case_ids=case_ids, tags=tags, all_cases=all_cases, url=url, model=model,
                             samples=samples, fail_under=fail_under, min_agreement=min_agreement,
                             no_cache=no_cache)
    if calibrate:
        from gate.commands.calibrate import run_calibrate

        sys.exit(run_calibrate(settings))
    from gate.commands.judge import run_judge

    sys.exit(run_judge(settings))


@click.group("review", invoke_without_command=True)
@click.option("--config", "config_path", default=None, help="gate.yaml (default: ./gate.yaml).")
@click.option("--queue", "queue_path", default=None, help="The queue (default: <out_dir>/review-queue.jsonl).")
@click.option("--reviewer", default=None, help="Your name (default: $GATE_REVIEWER, git's user.name, the login).")
@click.option("--results", "results_path", default=None,
              help="The check whose uncertain runs to list first (default: <out_dir>/results.json; "
              "trajectories.jsonl beside it).")
@click.pass_context
def review_group(ctx: click.Context, config_path: str | None, queue_path: str | None, reviewer: str | None,
                 results_path: str | None) -> None:
    """Walk what a human should settle, one at a time — p pass, f fail, s skip, q quit: first the
    uncertain constraints of the latest check (both readings shown), then the judge's review queue.
    Verdicts are appended to the reviews file at once, so a walk resumes where it stopped; each
    overrides the rule or judge verdict on that exact trajectory from then on."""
    ctx.obj = {"config": config_path, "queue": queue_path, "reviewer": reviewer, "results": results_path}
    if ctx.invoked_subcommand is None:
        from gate.commands.review import walk

        sys.exit(walk(config_path, queue_path, reviewer, results_path))


@review_group.command("set")
@click.option("--trajectory", required=True, help="The trajectory's digest (sha256:…, as judge.json and the queue give it).")
@click.option("--case", "case_id", required=True, help="Case id.")
@click.option("--constraint", required=True, help="Constraint id.")
@click.option("--verdict", type=click.Choice(["pass", "fail"]), required=True, help="The human verdict.")
@click.option("--note", default="", help="Why (kept with the verdict).")
@click.pass_context
def review_set_command(ctx: click.Context, trajectory: str, case_id: str, constraint: str, verdict: str,
                       note: str) -> None:
    """Record one human verdict without the walk (the queue fills in the rule and judge verdicts)."""
    from gate.commands.review import record_one

    options = ctx.obj or {}
    sys.exit(record_one(options.get("config"), options.get("queue"), options.get("reviewer"),
                        trajectory=trajectory, case_id=case_id, constraint=constraint, verdict=verdict, note=note,
                        results_path=options.get("results")))
