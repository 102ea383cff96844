"""Record the demo agent over the golden cases into examples/trajectories.jsonl.

Runs exactly the jobs `gate check` would run with the repository's gate.yaml (selected cases ×
groups × repeats), each as its own ``python examples/demo_agent.py`` process fed the contract's
agent request, and writes the records sorted by (case, group, run). Nothing that changes between
runs is kept (no timings), so the file only changes when the cases or the demo agent do.

    python examples/record_demo.py            # rewrite examples/trajectories.jsonl
    python examples/record_demo.py --check    # exit 1 if the recording is out of date
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gate.cases.loader import load_cases
from gate.config.gate_yaml import load_config
from gate.runs.jobs import Job, build_request, plan
from gate.runs.records import write_trajectories
from gate.trajectory import Trajectory

ROOT = Path(__file__).resolve().parent.parent
AGENT = ROOT / "examples" / "demo_agent.py"
RECORDING = ROOT / "examples" / "trajectories.jsonl"
BREAK_ENV = "GATE_DEMO_BREAK"


def _agent_env() -> dict[str, str]:
    # The recording shows the agent as shipped: a regression knob left set must not leak in.
    return {key: value for key, value in os.environ.items() if key != BREAK_ENV}


def run_job(job: Job, env: dict[str, str] | None = None) -> Trajectory:
    """One demo agent call for ``job``, as the command adapter makes it."""
    request = json.dumps(build_request(job), ensure_ascii=False)
    proc = subprocess.run(
        [sys.executable, str(AGENT)],
        input=request,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env if env is not None else _agent_env(),
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"demo agent failed on {job.key} (exit {proc.returncode}): {proc.stderr.strip()}")
    record = json.loads(proc.stdout)
    record.get("metadata", {}).pop("latency_ms", None)
    return Trajectory.model_validate(record)


def record(config_path: Path = ROOT / "gate.yaml", cases_dir: Path | None = None) -> list[Trajectory]:
    """Trajectories of every job of the configured golden run, in key order."""
    config = load_config(config_path)
    case_set = load_cases(cases_dir or config.resolve(config.cases.path))
    selected = case_set.select(tags=config.cases.tags, ids=config.cases.ids)
    jobs = plan(selected, config.groups, config.repeats)
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(run_job, jobs))


def write(path: Path, records: list[Trajectory]) -> None:
    write_trajectories(path, records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", type=Path, default=ROOT / "gate.yaml", help="gate.yaml to follow")
    parser.add_argument("--cases", type=Path, default=None, help="case directory (default: from the config)")
    parser.add_argument("--out", type=Path, default=RECORDING, help="where to write the recording")
    parser.add_argument("--check", action="store_true", help="do not write; exit 1 if --out is out of date")
    args = parser.parse_args(argv)
    records = record(args.config, args.cases)
    if not args.check:
        write(args.out, records)
        print(f"wrote {len(records)} trajectories to {args.out}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.jsonl"
        write(fresh, records)
        current = args.out.read_bytes() if args.out.exists() else b""
        if fresh.read_bytes() != current:
            print(f"{args.out} is out of date: run python examples/record_demo.py", file=sys.stderr)
            return 1
    print(f"{args.out} is up to date ({len(records)} trajectories)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
