"""The stages the commands share: judging a stream keeps nothing of a trajectory once it is judged."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

from gate.pipeline.stages import consistency_report, judge, judge_stream
from gate.process.interrupts import StopRequests
from gate.scoring.readings import Readings
from gate.semantic.reviews import Reviews
from gate.trajectory import Trajectory
from tests.casefiles import repo_cases

ROOT = Path(__file__).resolve().parents[1]
CASES = repo_cases().cases


def stream(alive_at_end: list[int] | None = None) -> Iterator[Trajectory]:
    """Repeats and distinct answers of a case that measures consistency and of one that does not;
    ``alive_at_end``: where to note how many trajectories are alive once the last was judged."""
    for run in range(60):
        for case_id in ("X-SD-01", "B3-QC-01"):
            answer = f"1. Bose\n2. Apple\n3. 华为 {run % 3 if run < 30 else run}"
            trajectory = Trajectory(case_id=case_id, group="A" if run % 2 else "B", run=run, final_answer=answer)
            yield trajectory
    del trajectory
    if alive_at_end is not None:
        alive_at_end.append(trajectories_alive())


def trajectories_alive() -> int:
    gc.collect()
    return sum(isinstance(o, Trajectory) for o in gc.get_objects())


def test_judging_a_stream_keeps_no_trajectory() -> None:
    before = trajectories_alive()
    readings = Readings()
    at_end: list[int] = []
    verdicts, runs = judge_stream(CASES, stream(at_end), 5.0, StopRequests(), readings, Reviews(Path()))
    assert len(verdicts) == 120 and len(runs) == 60  # a reference to each run of the consistency case
    assert at_end[0] <= before + 1  # at most the last one, still named by the judging loop
    assert trajectories_alive() == before
    streamed = consistency_report(CASES, runs, 0.95, 5.0, readings)

    held = list(stream())  # the same runs judged from a list, the consistency fields read from them
    whole = Readings()
    assert judge(CASES, held, 5.0, None, whole) == verdicts
    assert streamed == consistency_report(CASES, held, 0.95, 5.0, whole)
    assert streamed == consistency_report(CASES, held, 0.95, 5.0)  # and read afresh
    assert streamed is not None and streamed.cases[0].case_id == "X-SD-01"
