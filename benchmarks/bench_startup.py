"""Start-up cost: `gate --help` against a bare interpreter, and which modules it imports.

    python benchmarks/bench_startup.py [--runs 15]

Times both commands (median of ``--runs`` after two warm-ups) and lists, via ``python -X
importtime``, any heavy module that `gate --help` imports although it does not need it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from bytecode import compile_package

HEAVY = ("httpx", "markdown_it", "pydantic", "pydantic_core", "tabulate", "junit_xml", "yaml", "jsonschema",
         "gate.runner", "gate.checkers", "gate.cases.loader", "gate.lexicon")
"""Modules `gate --help` must not import: they serve commands, not the help text."""

HELP = [sys.executable, "-c", "import sys; sys.argv = ['gate', '--help']; from gate.cli.app import main; main()"]
BARE = [sys.executable, "-c", "pass"]


def median_seconds(argv: list[str], runs: int) -> float:
    for _ in range(2):
        subprocess.run(argv, capture_output=True, check=True)
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def imported_modules() -> list[str]:
    """Top-level names of every module `gate --help` imports (python -X importtime)."""
    result = subprocess.run([sys.executable, "-X", "importtime", *HELP[1:]], capture_output=True, text=True,
                            check=True)
    names = []
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.append(line.rsplit("|", 1)[1].strip())
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command (15)")
    args = parser.parse_args()
    compile_package()  # what an installed package has: no compiling counted as the gate's time

    bare = median_seconds(BARE, args.runs)
    gate = median_seconds(HELP, args.runs)
    modules = imported_modules()
    heavy = sorted({m for m in modules for h in HEAVY if m == h or m.startswith(h + ".")})
    print(f"python -c pass: {bare * 1000:.0f} ms (median of {args.runs})")
    print(f"gate --help:    {gate * 1000:.0f} ms (median of {args.runs}); ratio {gate / bare:.2f}")
    print(f"modules imported by gate --help: {len(modules)}")
    print(f"heavy modules imported: {', '.join(heavy) if heavy else 'none'}")
    if heavy:
        sys.exit(1)


if __name__ == "__main__":
    main()
