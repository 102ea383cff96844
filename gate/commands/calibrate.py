"""`gate judge --calibrate`: the judge over every case's own labelled examples, whose verdict on each
rubric is known. Each example is judged with itself left out of the examples the prompt shows, so
the judge is not handed the answer it is asked about."""

from __future__ import annotations

from collections import defaultdict

import click

from gate.atomic import dump_json, write_set
from gate.commands.judge import JudgeSettings, Loaded, load
from gate.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_UNAVAILABLE
from gate.percent import percent
from gate.sanitize import xml_safe
from gate.semantic.asks import judge_info, limits_of, unavailable
from gate.semantic.assemble import rate, settle, usage
from gate.semantic.document import CalibrationDocument, CalibrationItem, CalibrationRubric
from gate.semantic.engine import Answers, Ask, ask_all
from gate.semantic.markdown import render_calibration
from gate.semantic.prompt import build_messages
from gate.semantic.rubrics import example_trajectory, expected_status, rubrics_of
from gate.verdict import Status


def run_calibrate(settings: JudgeSettings) -> int:
    """Judge the examples, report agreement per rubric and overall; the exit code (``--fail-under``
    reads the overall agreement)."""
    loaded = load(settings)
    limits = limits_of(loaded.judge)
    asks: list[Ask] = []
    labels: list[tuple[str, str | None, Status]] = []  # example name, note, expected
    undetermined: dict[tuple[str, str], int] = defaultdict(int)
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
                asks.append(Ask(rubric, trajectory, build_messages(rubric, trajectory, limits, exclude=example)))
                labels.append((name, example.note, expected))
    answers = ask_all(asks, loaded.judge, loaded.config.resolve("."), use_cache=not settings.no_cache,
                      progress=settings.progress)
    return _report(settings, loaded, asks, labels, undetermined, answers)


def _report(settings: JudgeSettings, loaded: Loaded, asks: list[Ask], labels: list[tuple[str, str | None, Status]],
            undetermined: dict[tuple[str, str], int], answers: Answers) -> int:
    """Compare the judge's verdicts with the labels, write the calibration reports; the exit code."""
    items = []
    for ask, (name, note, expected), settled in zip(asks, labels, settle(asks, answers, loaded.judge.samples), strict=True):
        if settled is None:
            continue
        items.append(CalibrationItem(
            case_id=ask.rubric.case.id, constraint=ask.rubric.constraint_id, rubric=ask.rubric.key, example=name,
            note=note, expected=expected.value, judge=settled.tally.status.value,
            agrees=settled.tally.status is expected, detail=xml_safe(settled.tally.detail)))
    per_rubric: dict[tuple[str, str], list[CalibrationItem]] = defaultdict(list)
    for item in items:
        per_rubric[(item.case_id, item.rubric)].append(item)
    rubrics = [CalibrationRubric(case_id=case_id, rubric=key, agreed=sum(i.agrees for i in found), examples=len(found),
                                 undetermined=undetermined.get((case_id, key), 0),
                                 flagged=not all(i.agrees for i in found))
               for (case_id, key), found in sorted(per_rubric.items())]
    confidence = 1 - loaded.config.decision.alpha
    document = CalibrationDocument(
        cases_digest=loaded.case_set.digest, judge=judge_info(loaded.judge, answers),
        agreement=rate((Status.PASS if i.agrees else Status.FAIL for i in items), confidence),
        rubrics=tuple(rubrics), disagreements=tuple(i for i in items if not i.agrees), items=tuple(items),
        usage=usage(answers, loaded.judge.price), interrupted=answers.interrupted,
    )
    out = loaded.out_dir
    write_set({out / "judge-calibration.json": dump_json(document.model_dump(mode="json", by_alias=True)),
               out / "judge-calibration.md": render_calibration(document)})
    flagged = sum(r.flagged for r in rubrics)
    agreement = document.agreement
    shown = percent(agreement.rate)
    click.echo(f"calibration: the judge agrees with {agreement.passed} of {len(items)} example labels ({shown}) · "
               f"{flagged} of {len(rubrics)} rubrics flagged → {out / 'judge-calibration.json'}")
    for found in rubrics:
        if found.flagged:
            click.echo(f"  flagged: {found.case_id} {found.rubric}: {found.agreed}/{found.examples} examples agree")
    if answers.interrupted:
        click.echo("gate: interrupted: the calibration is partial", err=True)
        return EXIT_INTERRUPTED
    if unavailable(answers):
        click.echo("gate: error: the judge endpoint was unavailable — every sample failed", err=True)
        return EXIT_UNAVAILABLE
    if settings.fail_under is not None and (agreement.rate is None or agreement.rate < settings.fail_under):
        click.echo(f"gate: the judge's agreement {shown} is under --fail-under {percent(settings.fail_under)}", err=True)
        return EXIT_FAILED
    return EXIT_PASSED
