"""From samples to verdicts: each rubric's majority, each constraint settled with it (and by a human
where one reviewed that trajectory), the rates beside the rules', and the review queue."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from gate.case import Case
from gate.config.gate_yaml import JudgePrice
from gate.judging.evaluate import evaluate
from gate.process.budget import DEFAULT_BUDGET_S
from gate.redaction.sanitize import xml_safe
from gate.scoring.metrics import dimension_key
from gate.scoring.stats import wilson_interval
from gate.semantic.client import Sample
from gate.semantic.document import (
    ConstraintRecord,
    DimensionRecord,
    HumanRecord,
    QueueEntry,
    Rate,
    RubricRecord,
    SampleRecord,
    Usage,
    Votes,
)
from gate.semantic.engine import Answers, Ask
from gate.semantic.reviews import Reviews, apply_reviews
from gate.semantic.vote import Tally, tally
from gate.trajectory import Trajectory
from gate.verdict import Outcome, RunVerdict, Status

EXCERPT_CHARS = 4000
"""How much of the answer a queue entry carries for the reviewer."""


@dataclass(frozen=True)
class Settled:
    """What one (rubric, trajectory) ask came to."""

    ask: Ask
    tally: Tally
    samples: tuple[Sample, ...]

    def record(self) -> RubricRecord:
        votes = Votes(pass_=self.tally.passes, fail=self.tally.fails, error=self.tally.errors)
        samples = tuple(SampleRecord(passed=s.vote.passed if s.vote else None,
                                     reason=xml_safe(s.vote.reason) if s.vote else None,
                                     error=xml_safe(s.error) if s.error else None) for s in self.samples)
        return RubricRecord(key=self.ask.rubric.key, status=self.tally.status.value, votes=votes,
                            split=self.tally.split, detail=xml_safe(self.tally.detail), samples=samples)


@dataclass(frozen=True)
class Judged:
    """Every judged run: its constraints with rubrics, and its verdicts by rules alone and by all."""

    records: list[ConstraintRecord]
    rule_verdicts: list[RunVerdict]
    full_verdicts: list[RunVerdict]
    """Rubrics settled by the judge, reviewed constraints by the human."""


def settle(asks: list[Ask], answers: Answers, samples: int) -> list[Settled | None]:
    """Each ask's majority, or None when a stop left some of its samples unasked."""
    found: list[Settled | None] = []
    for index, ask in enumerate(asks):
        got = answers.of(index, samples)
        found.append(None if got is None else Settled(ask, tally(got), tuple(got)))
    return found


def judge_runs(cases: Mapping[str, Case], trajectories: Iterable[Trajectory], asks: list[Ask],
               settled: list[Settled | None], reviews: Reviews, budget_s: float | None = DEFAULT_BUDGET_S) -> Judged:
    """Settle every run whose rubrics were all answered; a run a stop left half-asked is left out."""
    by_run: dict[tuple[str, str, int], list[Settled | None]] = defaultdict(list)
    for ask, entry in zip(asks, settled, strict=True):
        t = ask.trajectory
        by_run[(t.case_id, t.group, t.run)].append(entry)
    records: list[ConstraintRecord] = []
    rule_verdicts, full_verdicts = [], []
    for trajectory in sorted(trajectories, key=lambda t: (t.case_id, t.group, t.run)):
        key = (trajectory.case_id, trajectory.group, trajectory.run)
        found = by_run.get(key, [])
        entries = [e for e in found if e is not None]
        if trajectory.error is not None or not entries or len(entries) < len(found):
            continue
        case = cases[trajectory.case_id]
        digest = trajectory.digest  # hashed once: the reviews and every record of this run need it
        judged_ids = {e.ask.rubric.constraint_id for e in entries}
        outcomes = {id(e.ask.rubric.node): Outcome(status=e.tally.status, detail=e.tally.detail) for e in entries}
        rules = evaluate(case, trajectory, budget_s=budget_s)
        judged = evaluate(case, trajectory, budget_s=budget_s, rubrics=outcomes)
        judged = judged.model_copy(update={"constraints": tuple(
            c.model_copy(update={"source": "judge"}) if c.id in judged_ids else c for c in judged.constraints)})
        full = apply_reviews([judged], [trajectory], reviews)[0]
        rule_verdicts.append(rules)
        full_verdicts.append(full)
        rule_status = {c.id: c.status for c in rules.constraints}
        judge_status = {c.id: c.status for c in judged.constraints}
        final_status = {c.id: c.status for c in full.constraints}
        for constraint_id in dict.fromkeys(e.ask.rubric.constraint_id for e in entries):
            mine = [e for e in entries if e.ask.rubric.constraint_id == constraint_id]
            review = reviews.lookup(digest, case.id, constraint_id)
            human = None if review is None else HumanRecord(verdict=review.human, reviewer=xml_safe(review.reviewer),
                                                            date=review.date.isoformat(), note=xml_safe(review.note))
            records.append(ConstraintRecord(
                case_id=case.id, group=trajectory.group, run=trajectory.run, dimension=dimension_key(case),
                constraint=constraint_id, trajectory=digest, rule=rule_status[constraint_id].value,
                judge=judge_status[constraint_id].value, rubrics=tuple(e.record() for e in mine), human=human,
                final=final_status[constraint_id].value, source="human" if human else "judge",
            ))
    return Judged(records, rule_verdicts, full_verdicts)


def rate(statuses: Iterable[str | Status], confidence: float) -> Rate:
    """Passed of decided, with a Wilson interval; errors counted apart, skipped left out."""
    values = [Status(s) for s in statuses]
    passed = sum(1 for s in values if s is Status.PASS)
    judged = passed + sum(1 for s in values if s is Status.FAIL)
    errors = sum(1 for s in values if s is Status.ERROR)
    if not judged:
        return Rate(passed=0, judged=0, rate=None, errors=errors)
    low, high = wilson_interval(passed, judged, confidence)
    return Rate(passed=passed, judged=judged, rate=round(passed / judged, 6), low=round(low, 6), high=round(high, 6),
                errors=errors)


def dimension_rates(cases: Mapping[str, Case], judged: Judged, confidence: float) -> list[DimensionRecord]:
    """Per dimension and group: the rules' run pass rate, the rubrics' pass rate and runs fully followed."""
    keys = sorted({(dimension_key(cases[v.case_id]), v.group) for v in judged.full_verdicts})
    found = []
    for dimension, group in keys:
        def mine(verdicts: list[RunVerdict], d: str = dimension, g: str = group) -> list[Status]:
            return [v.status for v in verdicts if v.group == g and dimension_key(cases[v.case_id]) == d]

        constraints = [r.final for r in judged.records if r.dimension == dimension and r.group == group]
        found.append(DimensionRecord(dimension=dimension, group=group, rules=rate(mine(judged.rule_verdicts), confidence),
                                     rubrics=rate(constraints, confidence), runs=rate(mine(judged.full_verdicts), confidence)))
    return found


def review_queue(judged: Judged, trajectories: Iterable[Trajectory], reviews: Reviews) -> list[QueueEntry]:
    """What a human should arbitrate, not reviewed yet: a rule and the judge disagreeing on one
    constraint, a split vote, and every verdict of a case no human has reviewed before."""
    answers: dict[tuple[str, str, int], str] = {(t.case_id, t.group, t.run): t.final_answer for t in trajectories}
    reviewed_cases = {r.case_id for r in reviews.entries}
    queue = []
    for record in judged.records:
        if record.human is not None:
            continue
        decided = {Status.PASS.value, Status.FAIL.value}
        reasons: list[Literal["disagreement", "split-vote", "new-case"]] = []
        if record.rule in decided and record.judge in decided and record.rule != record.judge:
            reasons.append("disagreement")
        if any(r.split for r in record.rubrics):
            reasons.append("split-vote")
        if record.case_id not in reviewed_cases:
            reasons.append("new-case")
        if not reasons:
            continue
        votes = Votes(pass_=sum(r.votes.pass_ for r in record.rubrics), fail=sum(r.votes.fail for r in record.rubrics),
                      error=sum(r.votes.error for r in record.rubrics))
        why = tuple(s.reason for r in record.rubrics for s in r.samples if s.reason)
        excerpt = xml_safe(answers.get((record.case_id, record.group, record.run), ""))[:EXCERPT_CHARS]
        queue.append(QueueEntry(reasons=tuple(reasons), trajectory=record.trajectory,
                                case_id=record.case_id, group=record.group, run=record.run,
                                constraint=record.constraint, rule=record.rule, judge=record.judge, votes=votes,
                                judge_reasons=why, excerpt=excerpt))
    return queue


def usage(answers: Answers, price: JudgePrice | None) -> Usage:
    """Requests and tokens of the samples asked in this run, and their cost when prices are given."""
    fresh = [s for s in answers.samples.values() if not s.cached]
    tokens = {name: sum(s.usage.get(name, 0) for s in fresh)
              for name in ("prompt_tokens", "completion_tokens", "total_tokens")}
    if not tokens["total_tokens"]:
        tokens["total_tokens"] = tokens["prompt_tokens"] + tokens["completion_tokens"]
    cost = None
    if price is not None and (tokens["prompt_tokens"] or tokens["completion_tokens"]):
        cost = round((tokens["prompt_tokens"] * price.prompt_per_mtok
                      + tokens["completion_tokens"] * price.completion_per_mtok) / 1_000_000, 6)
    return Usage(requests=len(fresh), cached=len(answers.samples) - len(fresh), **tokens, cost=cost,
                 currency=price.currency if cost is not None and price is not None else None)
