"""`gate eval` end to end: trajectories per second and peak memory on the demo recording grown.

    python benchmarks/bench_gate_eval.py [--sizes 1000 10000] [--cases cases]

The demo recording (examples/trajectories.jsonl) is repeated, run numbers shifted, to each size,
twice: as is — repeats answer the same, as a deterministic agent's do, and each distinct answer is
judged once — and with every answer made distinct (a line naming its run appended), so that every
record is parsed and judged. Each `gate eval --json` runs in its own process; the figure is its wall
time and the peak RSS the operating system reports for it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bytecode import compile_package

REPO = Path(__file__).resolve().parent.parent
RECORDING = REPO / "examples" / "trajectories.jsonl"


def grow(size: int, distinct: bool, out: Path) -> None:
    """The recording repeated to ``size`` records; ``distinct``: every answer its own."""
    records = [json.loads(line) for line in RECORDING.read_text(encoding="utf-8").splitlines() if line]
    with out.open("w", encoding="utf-8") as handle:
        for index in range(size):
            record = dict(records[index % len(records)])
            record["run"] = record["run"] + 1000 * (index // len(records))
            if distinct and record.get("final_answer"):
                record["final_answer"] += f"\n\n（记录 {index}）"
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")


# Runs the CLI and, at exit, writes its own peak RSS (KiB on Linux) to the file named by argv[1].
MEASURED = (
    "import atexit, resource, runpy, sys\n"
    "report = sys.argv.pop(1)\n"
    "atexit.register(lambda: open(report, 'w').write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))\n"
    "sys.argv[0] = 'gate'\n"
    "runpy.run_module('gate', run_name='__main__')\n"
)


def timed_eval(trajectories: Path, cases: Path, out: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one `gate eval` process."""
    peak = out.with_suffix(".rss")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", MEASURED, str(peak), "eval", "--cases", str(cases),
                    "--trajectories", str(trajectories), "--json", str(out)], check=True, stdout=subprocess.DEVNULL, cwd=REPO)
    wall = time.perf_counter() - started
    return wall, int(peak.read_text(encoding="utf-8")) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--cases", type=Path, default=REPO / "cases")
    args = parser.parse_args()
    compile_package()  # what an installed package has: no compiling counted as the gate's time
    print("| records | answers | wall | trajectories/s | peak RSS |")
    print("|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for distinct in (False, True):
            for size in args.sizes:
                path = Path(tmp) / f"{size}-{distinct}.jsonl"
                grow(size, distinct, path)
                wall, peak = timed_eval(path, args.cases, Path(tmp) / "results.json")
                kind = "all distinct" if distinct else "as recorded (repeats answer the same)"
                print(f"| {size:,} | {kind} | {wall:.2f} s | {size / wall:,.0f} | {peak:.0f} MiB |")


if __name__ == "__main__":
    main()
