"""Every performance budget of the gate in one run, each figure beside its budget.

    python benchmarks/bench_all.py [--quick]

- `gate eval` on the demo recording grown to 1k, 10k and 100k records, judged on one core (the
  process pinned to one CPU): trajectories/s, peak RSS, growth; also 1k and 10k with every answer
  distinct, which has no budget — it is what a random agent's answers cost (bench_gate_eval.py);
- `gate validate` and `gate check` (replay agent) at 60, 600 and 6,000 cases: wall, peak RSS,
  growth (bench_scale.py);
- the whole `gate check` process against a local agent answering after 200 ms, concurrency 8, at
  80 and 800 calls, against the ideal calls × 200 ms ÷ 8, beside a bare thread-pool client making
  the same calls; the same check rerun from the cache (bench_runner.py);
- `gate --help` against `python -c pass`, and the heavy modules it imports (bench_startup.py).

A pure-Python loop is timed first: on a shared machine every figure moves with it. ``--quick``
stops at 10k records, 600 cases and 80 calls (about 20 s instead of about 3 minutes).
Nothing here fails a build: the last column only says whether the figure is within its budget.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench_gate_eval import grow as grow_recording
from bench_gate_eval import timed_eval
from bench_runner import agent_server, bare_client, project, whole_check
from bench_scale import COMMANDS as SCALE_COMMANDS
from bench_scale import grow as grow_cases
from bench_scale import timed
from bench_startup import BARE, HEAVY, HELP, imported_modules, median_seconds
from bytecode import compile_package

REPO = Path(__file__).resolve().parent.parent
LATENCY_S = 0.2
CONCURRENCY = 8
EVAL_RATE = {10_000: 5000}
"""Budgets of `gate eval` by records: the least trajectories/s on one core…"""
EVAL_PEAK_MIB = {100_000: 250}
"""…and the most peak RSS."""
GROWTH_BUDGET = 10.5
"""The most a wall time may grow for ten times the input (`gate eval`, `gate validate`)."""


@dataclass(frozen=True)
class Row:
    measure: str
    seen: str
    budget: str = "—"
    within: bool | None = None  # None: a figure with no budget of its own

    def line(self) -> str:
        verdict = {True: "within", False: "**over**", None: ""}[self.within]
        return f"| {self.measure} | {self.seen} | {self.budget} | {verdict} |"


def calibration_s() -> float:
    """CPU seconds of a fixed pure-Python loop: how fast this machine is right now."""
    started = time.process_time()
    total = 0
    for index in range(20_000_000):
        total += index & 7
    return time.process_time() - started


@contextmanager
def one_core() -> Iterator[None]:
    """This process and the processes it starts on one CPU (where the platform allows pinning)."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


def eval_rows(sizes: list[int], distinct_sizes: list[int], tmp: Path) -> Iterator[Row]:
    def timed_at(size: int, distinct: bool) -> tuple[float, float]:
        path = tmp / f"eval-{size}-{distinct}.jsonl"
        grow_recording(size, distinct, path)
        try:
            return timed_eval(path, REPO / "cases", tmp / "results.json")
        finally:
            path.unlink()

    walls: dict[int, float] = {}
    with one_core():
        for size in sizes:
            walls[size], peak = timed_at(size, distinct=False)
            rate = size / walls[size]
            least_rate, most_peak = EVAL_RATE.get(size), EVAL_PEAK_MIB.get(size)
            yield Row(f"`gate eval`, {size:,} records as recorded, one core",
                      f"{rate:,.0f} trajectories/s ({walls[size]:.2f} s)",
                      f"≥ {least_rate:,} /s" if least_rate else "—", rate >= least_rate if least_rate else None)
            yield Row(f"`gate eval`, {size:,} records, peak RSS", f"{peak:.0f} MiB",
                      f"≤ {most_peak} MiB" if most_peak else "—", peak <= most_peak if most_peak else None)
        yield from growth_rows("`gate eval`", "records", walls, budgeted=(10_000, 100_000))
        for size in distinct_sizes:
            wall, peak = timed_at(size, distinct=True)
            yield Row(f"`gate eval`, {size:,} records, every answer distinct",
                      f"{size / wall:,.0f} trajectories/s ({wall:.2f} s), peak {peak:.0f} MiB")


def scale_rows(sizes: list[int], tmp: Path) -> Iterator[Row]:
    walls: dict[tuple[str, int], float] = {}
    for size in sizes:
        root = tmp / f"scale-{size}"
        grow_cases(size, root)
        for name, command in SCALE_COMMANDS:
            wall, peak = timed(command, root)
            walls[name, size] = wall
            budget, within = "—", None
            if name == "gate check (replay)" and size == 6000:
                budget, within = "≤ 15 s, ≤ 150 MiB", wall <= 15 and peak <= 150
            yield Row(f"`{name}`, {size:,} cases", f"{wall:.2f} s, peak {peak:.0f} MiB", budget, within)
    for name in ("gate validate", "gate check (replay)"):
        by_size = {size: wall for (command, size), wall in walls.items() if command == name}
        yield from growth_rows(f"`{name}`", "cases", by_size, budgeted=(600, 6000) if name == "gate validate" else None)


def growth_rows(what: str, unit: str, walls: dict[int, float], budgeted: tuple[int, int] | None) -> Iterator[Row]:
    """The wall time's growth from each size to the next (×10 the input: ×10 is linear); the pair
    ``budgeted`` may grow at most GROWTH_BUDGET times."""
    sizes = sorted(walls)
    for small, large in itertools.pairwise(sizes):
        growth = walls[large] / walls[small]
        budget, within = (f"≤ ×{GROWTH_BUDGET}", growth <= GROWTH_BUDGET) if (small, large) == budgeted else ("—", None)
        yield Row(f"{what} growth, {small:,} → {large:,} {unit}", f"×{growth:.1f}", budget, within)


def runner_rows(calls_sizes: list[int], tmp: Path) -> Iterator[Row]:
    budgets = {80: 1.15, 800: 1.05}
    with agent_server(LATENCY_S) as url:
        for calls in calls_sizes:
            root = tmp / f"calls-{calls}"
            project(calls, url, CONCURRENCY, REPO / "cases", root)
            ideal = calls * LATENCY_S / CONCURRENCY
            gate_s = whole_check(root)
            rerun_s = whole_check(root)  # every answer, and its verdict, from the cache
            floor_s = bare_client(url, calls, CONCURRENCY)
            budget = budgets.get(calls)
            yield Row(f"`gate check`, {calls} calls to a 200 ms agent, concurrency {CONCURRENCY}",
                      f"{gate_s:.2f} s vs ideal {ideal:.2f} s: ×{gate_s / ideal:.2f}",
                      f"≤ ×{budget:.2f}" if budget else "—", gate_s / ideal <= budget if budget else None)
            yield Row(f"bare thread-pool client, {calls} calls (the floor)",
                      f"{floor_s:.2f} s: ×{floor_s / ideal:.2f}")
            yield Row(f"`gate check` rerun from the cache, {calls} calls", f"{rerun_s:.2f} s",
                      "≤ 0.4 s" if calls == 80 else "—", rerun_s <= 0.4 if calls == 80 else None)


def startup_rows() -> Iterator[Row]:
    bare, help_s = median_seconds(BARE, 15), median_seconds(HELP, 15)
    heavy = sorted({m for m in imported_modules() for h in HEAVY if m == h or m.startswith(h + ".")})
    yield Row("`gate --help` (median of 15) vs `python -c pass`",
              f"{help_s * 1000:.0f} ms vs {bare * 1000:.0f} ms: ×{help_s / bare:.1f}")
    yield Row("heavy modules `gate --help` imports", ", ".join(heavy) or "none", "none", not heavy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="stop at 10k records, 600 cases and 80 calls")
    args = parser.parse_args()
    compile_package()  # what an installed package has: no compiling counted as the gate's time
    eval_sizes = [1000, 10_000] if args.quick else [1000, 10_000, 100_000]
    case_sizes = [60, 600] if args.quick else [60, 600, 6000]
    calls = [80] if args.quick else [80, 800]
    print(f"a fixed pure-Python loop: {calibration_s():.2f} s of CPU (every figure below moves with it)")
    print("\n| measure | seen | budget | |\n|---|---|---|---|")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        sections: list[Callable[[], Iterator[Row]]] = [
            lambda: eval_rows(eval_sizes, [1000, 10_000], Path(tmp)),
            lambda: scale_rows(case_sizes, Path(tmp)),
            lambda: runner_rows(calls, Path(tmp)),
            startup_rows,
        ]
        for section in sections:
            for row in section():
                print(row.line(), flush=True)
    print(f"\n{time.perf_counter() - started:.0f} s in all", file=sys.stderr)


if __name__ == "__main__":
    main()
