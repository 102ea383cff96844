"""`gate validate` and `gate check` as the case set grows: wall time, peak RSS and growth ratios.

    python benchmarks/bench_scale.py [--sizes 60 600 6000]

The repository's case files are copied, each under a new id, to each size (the aggregate case of the
degradation curve, which names its members, is left out), and so is the demo recording for the
replay agent, so `gate check` judges real answers with no agent call. `gate validate` runs twice:
the second run finds every case file unchanged since its examples passed. Each command runs in its own
process; the figures are its wall time and the peak RSS the operating system reports for it, and
the growth of each size over the one before (10× the cases: 10× is linear).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_gate_eval import MEASURED  # the CLI run that reports its own peak RSS
from bytecode import compile_package

REPO = Path(__file__).resolve().parent.parent
RECORDING = REPO / "examples" / "trajectories.jsonl"
_ID = re.compile(r"^id:\s*(\S+)", re.M)
COMMANDS = (("gate validate", ["validate"]), ("gate validate, again (unchanged)", ["validate"]),
            ("gate check (replay)", ["check"]))
"""What runs at each size, in order: the second validation finds every case file unchanged."""

def grow(size: int, out: Path) -> Path:
    """``size`` case files under ``out``/cases, the replay file for them, and a gate.yaml."""
    sources = [p for p in sorted((REPO / "cases").rglob("*.yaml")) if "aggregate:" not in p.read_text(encoding="utf-8")]
    recorded: dict[str, list[dict[str, object]]] = {}
    for line in RECORDING.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        recorded.setdefault(str(record["case_id"]), []).append(record)
    (out / "cases").mkdir(parents=True)
    with (out / "replay.jsonl").open("w", encoding="utf-8") as replay:
        for index in range(size):
            source = sources[index % len(sources)]
            text = source.read_text(encoding="utf-8")
            match = _ID.search(text)
            assert match is not None, source
            new = f"{match.group(1)}-{index:05d}"
            (out / "cases" / f"{new}.yaml").write_text(_ID.sub(f"id: {new}", text, count=1), encoding="utf-8")
            for record in recorded.get(match.group(1), []):
                replay.write(json.dumps({**record, "case_id": new}, ensure_ascii=False) + "\n")
    config = out / "gate.yaml"
    suites = "suites:\n  B3: [FC, QC, PC, LC, MC, AC, MM]\n  X: [OC, SD, SA, FC, CD]\n  ARTICLE: [TC]\n"
    config.write_text(f"{suites}cases: {{path: cases, tags: [golden, consistency]}}\n"
                      "agent: {adapter: replay, trajectories: replay.jsonl}\n"
                      "baseline: none.json\nout_dir: out\n", encoding="utf-8")
    return config


def timed(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one `gate` process (its exit code is not the point)."""
    peak = cwd / "peak.rss"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", MEASURED, str(peak), *args], cwd=cwd, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, int(peak.read_text(encoding="utf-8")) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[60, 600, 6000])
    args = parser.parse_args()
    compile_package()  # what an installed package has: no compiling counted as the gate's time
    print("| cases | command | wall | growth | peak RSS |")
    print("|---:|---|---:|---:|---:|")
    before: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            root = Path(tmp) / str(size)
            grow(size, root)
            for name, command in COMMANDS:
                wall, peak = timed(command, root)
                growth = f"×{wall / before[name]:.1f}" if name in before else "—"
                before[name] = wall
                print(f"| {size:,} | `{name}` | {wall:.2f} s | {growth} | {peak:.0f} MiB |")


if __name__ == "__main__":
    main()
