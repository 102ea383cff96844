"""Checker throughput: trajectories judged per second by gate.judging.evaluate.

    python benchmarks/bench_eval.py [--records 20000] [--cases cases]

Generates a JSONL file of ``--records`` trajectories over every runnable case in the case
directory (cycling through each case's own pass and fail examples, so every checker runs on
realistic answers), then times reading it and judging every record.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from pathlib import Path

from gate.cases.loader import load_cases
from gate.judging.evaluate import evaluate
from gate.runs.records import read_trajectories, write_trajectories
from gate.trajectory import Trajectory

REPO = Path(__file__).resolve().parent.parent


def generate(cases_dir: Path, count: int) -> list[Trajectory]:
    """``count`` records spread round-robin over the cases, answers taken from their examples."""
    case_set = load_cases(cases_dir)
    sources = []
    for case in case_set.cases.values():
        if not case.runnable or case.examples is None:
            continue
        for example in (*case.examples.pass_, *case.examples.fail):
            sources.append((case.id, example))
    runs: dict[tuple[str, str], int] = {}
    records = []
    for case_id, example in itertools.islice(itertools.cycle(sources), count):
        run = runs.get((case_id, example.group), 0)
        runs[case_id, example.group] = run + 1
        records.append(Trajectory(case_id=case_id, group=example.group, run=run, final_answer=example.final_answer,
                                  tool_calls=example.tool_calls, metadata={"latency_ms": 100}))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=20_000, help="trajectories to generate (20000)")
    parser.add_argument("--cases", default=str(REPO / "cases"), help="case directory (cases/)")
    args = parser.parse_args()

    cases_dir = Path(args.cases)
    started = time.perf_counter()
    case_set = load_cases(cases_dir)
    load_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trajectories.jsonl"
        write_trajectories(path, generate(cases_dir, args.records))
        size_mb = path.stat().st_size / 1e6
        started = time.perf_counter()
        records = read_trajectories(path, case_set.cases)
        read_s = time.perf_counter() - started
    started = time.perf_counter()
    verdicts = [evaluate(case_set.cases[r.case_id], r) for r in records]
    judge_s = time.perf_counter() - started
    counts: dict[str, int] = {}
    for verdict in verdicts:
        counts[verdict.status.value] = counts.get(verdict.status.value, 0) + 1
    statuses = ", ".join(f"{status} {n}" for status, n in sorted(counts.items()))
    print(f"cases: {len(case_set.cases)} loaded in {load_s:.2f} s")
    print(f"records: {len(records)} ({size_mb:.1f} MB JSONL), verdicts: {statuses}")
    print(f"read+validate: {read_s:.2f} s = {len(records) / read_s:,.0f} trajectories/s")
    print(f"evaluate:      {judge_s:.2f} s = {len(records) / judge_s:,.0f} trajectories/s")
    print(f"both:          {len(records) / (read_s + judge_s):,.0f} trajectories/s")


if __name__ == "__main__":
    main()
