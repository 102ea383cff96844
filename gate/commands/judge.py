"""`gate judge`: the LLM judge over recorded (or freshly collected) runs, and `--calibrate` over the
case examples. Writes judge.json, judge.md and review-queue.jsonl (or the calibration pair) together."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click
from pydantic import ValidationError

from gate.case import Case
from gate.cases.loader import CaseSet, load_cases
from gate.config.gate_yaml import GateConfig, JudgeConfig, load_config, replaced
from gate.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_UNAVAILABLE, GateError, did_you_mean
from gate.files.atomic import dump_json, write_set
from gate.files.yamlio import first_problem
from gate.formats.percent import percent
from gate.redaction.sanitize import one_line
from gate.semantic.asks import QUEUE_FILE, asks_for, judge_info, unavailable
from gate.semantic.engine import Answers, Ask, ask_all
from gate.semantic.reviews import Reviews, load_reviews
from gate.semantic.rubrics import has_rubrics
from gate.trajectory import Trajectory


@dataclass(frozen=True)
class JudgeSettings:
    """The options of `gate judge`."""

    config: str | None = None
    trajectories: str | None = None
    results: str | None = None
    out_dir: str | None = None
    case_ids: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    all_cases: bool = False
    url: str | None = None
    model: str | None = None
    samples: int | None = None
    fail_under: float | None = None
    min_agreement: float | None = None
    no_cache: bool = False
    progress: bool | None = None


@dataclass(frozen=True)
class Loaded:
    config: GateConfig
    judge: JudgeConfig
    case_set: CaseSet
    reviews: Reviews
    out_dir: Path
    chosen: dict[str, Case]


def _judge_config(config: GateConfig, settings: JudgeSettings) -> JudgeConfig:
    """gate.yaml's judge section with the command line's --url, --model and --samples over it."""
    given = {key: value for key, value in (("url", settings.url), ("model", settings.model),
                                             ("samples", settings.samples)) if value is not None}
    if config.judge is None and not {"url", "model"} <= given.keys():
        raise GateError("gate.yaml has no judge: section — give judge.url and judge.model (an OpenAI-compatible "
                        "endpoint: OpenAI, vLLM, Ollama, LM Studio), or --url and --model",
                        where=settings.config or "gate.yaml")
    base = config.judge.model_dump() if config.judge is not None else {}
    try:
        return JudgeConfig.model_validate({**base, **given})
    except ValidationError as exc:
        raise GateError(f"judge: {first_problem(exc)}") from None


def load(settings: JudgeSettings) -> Loaded:
    """gate.yaml with its judge section, the cases with rubrics (``--case`` picks some), the reviews."""
    config = load_config(settings.config)
    judge = _judge_config(config, settings)
    case_set = load_cases(config.resolve(config.cases.path), config.suites)
    unknown = [i for i in settings.case_ids if i not in case_set.cases]
    if unknown:
        raise GateError(f"--case: unknown case {unknown[0]}{did_you_mean(unknown[0], case_set.cases)}")
    chosen = {cid: c for cid, c in case_set.cases.items()
              if has_rubrics(c) and (not settings.case_ids or cid in settings.case_ids)}
    if not chosen:
        raise GateError("none of the chosen cases has a judge: rubric", where=str(case_set.root))
    reviews = load_reviews(config.resolve(config.reviews))
    for warning in reviews.stale(case_set.cases):
        click.echo(f"gate: warning: {warning}", err=True)
    out_dir = Path(settings.out_dir) if settings.out_dir else config.resolve(config.out_dir)
    return Loaded(config, judge, case_set, reviews, out_dir, chosen)


def recorded(settings: JudgeSettings, loaded: Loaded) -> list[Trajectory]:
    from gate.runs.records import read_trajectories

    if settings.results:
        results = Path(settings.results)
        if not results.is_file():
            raise GateError("results file not found", where=str(results))
        path = results.parent / "trajectories.jsonl"
        if not path.is_file():
            raise GateError("results.json holds verdicts, not answers: the judge needs the trajectories.jsonl that "
                            "`gate check` writes beside it", where=str(path))
    else:
        path = Path(settings.trajectories or "")
        if not path.is_file():
            raise GateError("trajectory file not found", where=str(path))
    return read_trajectories(path, loaded.case_set.cases)


def _collected(settings: JudgeSettings, loaded: Loaded) -> tuple[list[Trajectory], bool]:
    """Run the agent on the chosen cases with rubrics (selected by tags like `gate check`)."""
    from gate.config.gate_yaml import without_cache
    from gate.pipeline.stages import select_cases
    from gate.runner import RunnerSettings, run_jobs
    from gate.runs.jobs import plan

    config = loaded.config
    if settings.tags:
        config = replaced(config, cases=config.cases.model_copy(update={"tags": settings.tags}))
    config = without_cache(config) if settings.no_cache else config
    if settings.all_cases:
        selected = [c for c in loaded.chosen.values() if c.runnable and any(g in c.groups for g in config.groups)]
    else:
        selected = [c for c in select_cases(config, loaded.case_set, None) if c.id in loaded.chosen]
    if not selected:
        raise GateError(f"no selected case has a judge: rubric (tags: {', '.join(config.cases.tags) or 'none'}); "
                        "choose others with --tag or --case", where=str(loaded.case_set.root))
    outcome = run_jobs(plan(selected, config.groups, config.repeats), config.agent, root=config.resolve("."),
                       settings=RunnerSettings(progress=settings.progress,
                                               give_up_unreachable=config.decision.outage_on_unreachable))
    return [t.whole() for t in outcome.trajectories], outcome.interrupted


def run_judge(settings: JudgeSettings) -> int:
    """Judge every rubric of the chosen runs; write the reports; the exit code."""
    loaded = load(settings)
    from gate.files.atomic import check_writable

    check_writable(loaded.out_dir)
    interrupted = False
    if settings.trajectories or settings.results:
        trajectories = recorded(settings, loaded)
    else:
        trajectories, interrupted = _collected(settings, loaded)
    asks = asks_for(loaded.chosen, trajectories, loaded.judge)
    if not asks:
        raise GateError(f"nothing to judge: none of the {len(trajectories)} runs is a successful run of a chosen case "
                        "with a judge: rubric")
    answers = ask_all(asks, loaded.judge, loaded.config.resolve("."), use_cache=not settings.no_cache,
                      progress=settings.progress)
    return _report(settings, loaded, trajectories, asks, answers, interrupted or answers.interrupted)


def _report(settings: JudgeSettings, loaded: Loaded, trajectories: list[Trajectory], asks: list[Ask],
            answers: Answers, interrupted: bool) -> int:
    """Settle the answers, write judge.json, judge.md and the queue; the exit code."""
    from gate.semantic.assemble import dimension_rates, judge_runs, rate, review_queue, settle, usage
    from gate.semantic.document import JudgeDocument
    from gate.semantic.markdown import render_judge

    judge = loaded.judge
    confidence = 1 - loaded.config.decision.alpha
    judged = judge_runs(loaded.case_set.cases, trajectories, asks, settle(asks, answers, judge.samples),
                        loaded.reviews, loaded.config.judging.budget_s)
    queue = review_queue(judged, trajectories, loaded.reviews)
    document = JudgeDocument(
        cases_digest=loaded.case_set.digest, judge=judge_info(judge, answers),
        constraints=tuple(judged.records), dimensions=tuple(dimension_rates(loaded.case_set.cases, judged, confidence)),
        overall=rate((r.final for r in judged.records), confidence),
        unjudged_runs=sum(1 for t in trajectories if t.error is not None and t.case_id in loaded.chosen),
        queued=len(queue), usage=usage(answers, judge.price), interrupted=interrupted,
    )
    out = loaded.out_dir
    write_set({out / "judge.json": dump_json(document.model_dump(mode="json", by_alias=True)),
               out / "judge.md": render_judge(document, queue),
               out / QUEUE_FILE: "".join(e.model_dump_json(by_alias=True) + "\n" for e in queue)})
    counts = {s: sum(1 for r in judged.records if r.final == s) for s in ("pass", "fail", "error")}
    click.echo(f"judge: {len(judged.records)} rubric verdicts ({counts['pass']} pass · {counts['fail']} fail · "
               f"{counts['error']} error) on {len(judged.full_verdicts)} runs · {len(queue)} queued for review · "
               f"{document.usage.requests} samples asked, {document.usage.cached} cached → {out / 'judge.json'}")
    if interrupted:
        click.echo("gate: interrupted: the judge's reports are partial", err=True)
        return EXIT_INTERRUPTED
    if unavailable(answers):
        first = next(s.error for s in answers.samples.values() if s.error)
        click.echo(f"gate: error: the judge endpoint was unavailable — every sample failed; first: {one_line(first)}",
                   err=True)
        return EXIT_UNAVAILABLE
    if not any(r.status in ("pass", "fail") for record in judged.records for r in record.rubrics):
        first = next((r.detail for record in judged.records for r in record.rubrics), "no verdict was settled")
        click.echo(f"gate: error: the judge decided none of its {len(asks)} rubric verdicts; first: "
                   f"{one_line(first)}", err=True)
        return EXIT_UNAVAILABLE
    overall = document.overall.rate
    if settings.fail_under is not None and (overall is None or overall < settings.fail_under):
        shown = percent(overall)
        click.echo(f"gate: the judge's pass rate {shown} is under --fail-under {percent(settings.fail_under)}", err=True)
        return EXIT_FAILED
    return EXIT_PASSED
