"""`gate judge --calibrate`: the judge over verdicts known beforehand — every case's own labelled
examples (each judged with itself left out of the examples the prompt shows, so the judge is not
handed the answer it is asked about) and the human verdicts of the reviews file on real runs.
Writes the reports and the calibration record ``judge.gate`` reads."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import click

from gate.commands.judge import JudgeSettings, Loaded, load, recorded
from gate.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_UNAVAILABLE, GateError
from gate.files.atomic import dump_json, write_set
from gate.formats.percent import percent
from gate.semantic.asks import judge_info, limits_of, unavailable
from gate.semantic.assemble import settle, usage
from gate.semantic.calibration import Label, agreement, calibration_items, per_rubric
from gate.semantic.document import CalibrationDocument
from gate.semantic.engine import Answers, Ask, ask_all
from gate.semantic.markdown import render_calibration
from gate.semantic.prompt import Limits, build_messages
from gate.semantic.rubrics import deciding_status, example_trajectory, expected_status, rubrics_of
from gate.semantic.trust import load_record, merged
from gate.trajectory import Trajectory
from gate.verdict import Status

Undetermined = dict[tuple[str, str], int]


def run_calibrate(settings: JudgeSettings) -> int:
    """Judge the labels, report agreement per rubric and overall, write the record; the exit code."""
    loaded = load(settings)
    limits = limits_of(loaded.judge)
    undetermined: Undetermined = defaultdict(int)
    labels = _example_labels(loaded, limits, undetermined)
    labels += _human_labels(loaded, _reviewed_runs(settings, loaded), limits, undetermined)
    if not labels:
        raise GateError("nothing to calibrate on: no example or reviewed run decides a rubric",
                        where=str(loaded.case_set.root))
    answers = ask_all([label.ask for label in labels], loaded.judge, loaded.config.resolve("."),
                      use_cache=not settings.no_cache, progress=settings.progress)
    return _report(settings, loaded, labels, undetermined, answers)


def _example_labels(loaded: Loaded, limits: Limits, undetermined: Undetermined) -> list[Label]:
    labels = []
    for case in loaded.chosen.values():
        if case.examples is None:
            continue
        named = [(f"pass[{i}]", e) for i, e in enumerate(case.examples.pass_)]
        named += [(f"fail[{i}]", e) for i, e in enumerate(case.examples.fail)]
        for name, example in named:
            trajectory = example_trajectory(case, example)
            for rubric in rubrics_of(case, example.group):
                expected = expected_status(rubric, example)
                if expected is None:
                    undetermined[(case.id, rubric.key)] += 1
                    continue
                ask = Ask(rubric, trajectory, build_messages(rubric, trajectory, limits, exclude=example))
                labels.append(Label(ask, name, example.note, expected))
    return labels


def _reviewed_runs(settings: JudgeSettings, loaded: Loaded) -> list[Trajectory]:
    """The runs whose human verdicts calibrate too: --trajectories or --results, else the latest check's."""
    if settings.trajectories or settings.results:
        return recorded(settings, loaded)
    latest = loaded.out_dir / "trajectories.jsonl"
    if not loaded.reviews or not latest.is_file():
        return []
    from gate.runs.records import read_trajectories

    return read_trajectories(latest, loaded.case_set.cases)


def _human_labels(loaded: Loaded, runs: list[Trajectory], limits: Limits, undetermined: Undetermined) -> list[Label]:
    """A label per rubric of a run a human gave its constraint a verdict on (each distinct answer once)."""
    labels, seen = [], set()
    for trajectory in runs:
        case = loaded.chosen.get(trajectory.case_id)
        if case is None or trajectory.error is not None:
            continue
        digest = trajectory.digest
        for rubric in rubrics_of(case, trajectory.group):
            review = loaded.reviews.lookup(digest, case.id, rubric.constraint_id)
            if review is None or (digest, rubric.key) in seen:
                continue
            seen.add((digest, rubric.key))
            expected = deciding_status(rubric, trajectory, Status(review.human))
            if expected is None:
                undetermined[(case.id, rubric.key)] += 1
                continue
            ask = Ask(rubric, trajectory, build_messages(rubric, trajectory, limits))
            labels.append(Label(ask, f"review {digest[:19]}", review.note or None, expected, "human"))
    return labels


def _report(settings: JudgeSettings, loaded: Loaded, labels: list[Label], undetermined: Undetermined,
            answers: Answers) -> int:
    """Compare the judge's verdicts with the labels, write the reports and the record; the exit code."""
    judge = loaded.judge
    confidence = 1 - loaded.config.decision.alpha
    items = calibration_items(labels, settle([label.ask for label in labels], answers, judge.samples))
    rubrics, entries = per_rubric(labels, items, undetermined, judge, confidence)
    overall = agreement(items, confidence)
    floor = settings.min_agreement if settings.min_agreement is not None else judge.min_agreement
    record_path = loaded.config.resolve(judge.calibration)
    trusted = not answers.interrupted and overall.judged > 0  # a partial or empty calibration records nothing
    document = CalibrationDocument(
        cases_digest=loaded.case_set.digest, judge=judge_info(judge, answers), agreement=overall,
        rubrics=tuple(rubrics), disagreements=tuple(i for i in items if i.agrees is False), items=tuple(items),
        usage=usage(answers, judge.price), interrupted=answers.interrupted, min_agreement=floor,
        record=str(record_path) if trusted else None)
    out = loaded.out_dir
    files: dict[Path, str] = {out / "judge-calibration.json": dump_json(document.model_dump(mode="json", by_alias=True)),
                              out / "judge-calibration.md": render_calibration(document)}
    if trusted:
        record = merged(load_record(record_path), judge, loaded.case_set.digest, entries)
        files[record_path] = dump_json(record.model_dump(mode="json", by_alias=True))
        record_path.parent.mkdir(parents=True, exist_ok=True)
    write_set(files)
    _summary(document, out, len(labels))
    return _exit_code(settings, document, answers, floor)


def _summary(document: CalibrationDocument, out: Path, asked: int) -> None:
    rated, rubrics = document.agreement, document.rubrics
    human = sum(r.human for r in rubrics)
    what = "example labels" if not human else f"labels ({human} human verdicts on real runs)"
    flagged = sum(r.flagged for r in rubrics)
    errors = f" · {rated.errors} labels without a verdict (errors)" if rated.errors else ""
    trusted = sum(r.trust == "calibrated" for r in rubrics)
    click.echo(f"calibration: the judge agrees with {rated.passed} of {rated.judged} {what} ({percent(rated.rate)}) · "
               f"{flagged} of {len(rubrics)} rubrics flagged{errors} · {trusted} calibrated at "
               f"≥ {percent(document.min_agreement)} → {out / 'judge-calibration.json'}")
    for found in rubrics:
        if found.flagged:
            click.echo(f"  flagged: {found.case_id} {found.rubric}: {found.agreed}/{found.examples} examples agree"
                       + (f" ({found.errors} errors)" if found.errors else ""))
    if document.record:
        click.echo(f"calibration record → {document.record} (commit it: judge.gate trusts only what it holds)")


def _exit_code(settings: JudgeSettings, document: CalibrationDocument, answers: Answers, floor: float) -> int:
    rated = document.agreement
    if answers.interrupted:
        click.echo("gate: interrupted: the calibration is partial (no record written)", err=True)
        return EXIT_INTERRUPTED
    if unavailable(answers):
        click.echo("gate: error: the judge endpoint was unavailable — every sample failed", err=True)
        return EXIT_UNAVAILABLE
    if not rated.judged:
        click.echo(f"gate: error: the judge decided none of {rated.errors} labels (no record written)", err=True)
        return EXIT_UNAVAILABLE
    shown = percent(rated.rate)
    if rated.rate is None or rated.rate < floor:
        click.echo(f"gate: the judge's agreement {shown} is under the floor {percent(floor)} "
                   "(--min-agreement, judge.min_agreement)", err=True)
        return EXIT_FAILED
    if settings.fail_under is not None and (rated.rate is None or rated.rate < settings.fail_under):
        click.echo(f"gate: the judge's agreement {shown} is under --fail-under {percent(settings.fail_under)}", err=True)
        return EXIT_FAILED
    return EXIT_PASSED
