"""What the judge is asked and what its answers come to, shared by `gate judge`, its calibration and
`judge.gate` in `gate check`: one ask per rubric of each run, the judge's description, whether the
endpoint was there at all."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gate.case import Case
from gate.config.gate_yaml import JudgeConfig
from gate.semantic.document import JudgeInfo
from gate.semantic.engine import Answers, Ask
from gate.semantic.prompt import PROMPT_VERSION, Limits, build_messages
from gate.semantic.rubrics import rubrics_of
from gate.trajectory import Trajectory

QUEUE_FILE = "review-queue.jsonl"
"""The review queue `gate judge` writes beside judge.json and `gate review` walks."""


def limits_of(judge: JudgeConfig) -> Limits:
    """How much text the judge's prompts carry, from gate.yaml."""
    return Limits(answer=judge.max_answer_chars, tools=judge.max_tool_chars, example=judge.max_example_chars)


def asks_for(cases: Mapping[str, Case], trajectories: Sequence[Trajectory], judge: JudgeConfig) -> list[Ask]:
    """One ask per rubric of each successful run of the given cases (runs of other cases are skipped)."""
    limits = limits_of(judge)
    return [Ask(rubric, t, build_messages(rubric, t, limits))
            for t in trajectories if t.error is None and t.case_id in cases
            for rubric in rubrics_of(cases[t.case_id], t.group)]


def judge_info(judge: JudgeConfig, answers: Answers) -> JudgeInfo:
    return JudgeInfo(url=answers.url, model=judge.model, samples=judge.samples, temperature=judge.sampling_temperature(),
                     prompt=PROMPT_VERSION)


def unavailable(answers: Answers) -> bool:
    """Every sample asked failed at the endpoint: the judge was not there, which is no verdict."""
    samples = list(answers.samples.values())
    return bool(samples) and all(s.endpoint_failed for s in samples)  # a cached vote is a vote: not all failed
