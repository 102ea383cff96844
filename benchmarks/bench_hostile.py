"""What hostile answers cost to judge: each text analyser on adversarial input of its own kind, a
whole run (every checker, one shared subject) on long Markdown of one shape, and each class of the
lexicon compiled alone on its own phrases repeated, near misses and CJK noise.

Prints CPU seconds at two sizes and the growth factor (about 4 for four times the input when the
work is linear, 16 when quadratic). Anything a long answer costs beyond what a run can afford is cut
by the judging budget (``judging.budget_s``, default 5 s): the constraint is recorded as an error.

    python benchmarks/bench_hostile.py [--sizes 250000 1000000] [--judging-sizes 16000 64000]
                                       [--lexicon-sizes 20000 80000] [--long-sizes 100000 400000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from bytecode import compile_package

ROOT = Path(__file__).resolve().parents[1]
PROBE = ROOT / "tests" / "text" / "linear_probe.py"


def _probe(mode: str, sizes: list[int]) -> dict[str, dict[str, float]]:
    done = subprocess.run([sys.executable, str(PROBE), mode, *map(str, sizes)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    found: dict[str, dict[str, float]] = json.loads(done.stdout)
    return found


def _table(title: str, found: dict[str, dict[str, float]], sizes: list[int], top: int | None = None) -> None:
    small, large = (str(size) for size in sizes)
    print(f"\n{title}\n| input | {int(small):,} chars | {int(large):,} chars | growth |\n|---|---:|---:|---:|")
    for name, seconds in sorted(found.items(), key=lambda item: -item[1][large])[:top]:
        growth = seconds[large] / max(seconds[small], 1e-6)
        print(f"| `{name}` | {seconds[small]:.3f} s | {seconds[large]:.3f} s | ×{growth:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[250_000, 1_000_000],
                        help="Input sizes for the analysers (characters).")
    parser.add_argument("--judging-sizes", type=int, nargs=2, default=[16_000, 64_000],
                        help="Answer sizes for whole-run judging (characters).")
    parser.add_argument("--lexicon-sizes", type=int, nargs=2, default=[20_000, 80_000],
                        help="Input sizes for each class of the lexicon (characters).")
    parser.add_argument("--long-sizes", type=int, nargs=2, default=[100_000, 400_000],
                        help="Input sizes for the analysers whose worst step was a copy (characters).")
    args = parser.parse_args()
    compile_package()  # what an installed package has: no compiling counted as the gate's time
    _table("Analysers (CPU seconds, best of 2)", _probe("analysers", args.sizes), args.sizes)
    _table("Long lines: analysers whose worst step was a copy per step (CPU seconds, best of 2)",
           _probe("long", args.long_sizes), args.long_sizes)
    _table("Whole run, every checker (CPU seconds, best of 2)", _probe("judging", args.judging_sizes),
           args.judging_sizes)
    lexicon = _probe("lexicon", args.lexicon_sizes)
    small, large = (str(size) for size in args.lexicon_sizes)
    before, after = (sum(seconds[size] for seconds in lexicon.values()) for size in (small, large))
    _table(f"Lexicon classes, the 15 slowest of {len(lexicon)} inputs (CPU seconds; all of them together: "
           f"{before:.2f} s → {after:.2f} s, ×{after / before:.1f})", lexicon, args.lexicon_sizes, top=15)


if __name__ == "__main__":
    main()
