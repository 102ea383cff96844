"""False alarms and detection on a random agent: the gate's decisions over simulated PRs.

    python benchmarks/bench_noise.py [--prs 100] [--scenarios all] [--mode confidence]

Each simulated PR records a baseline the way the README says (``gate baseline update --runs 5``,
on main) from the demo agent in its seeded noise mode, then runs ``gate check`` against it with
another seed — the agent unchanged, or with a real regression. Everything runs in process
(``function: examples.demo_agent:run``), through the same pipeline as the CLI, confirm reruns
included. Prints, per scenario, how often the gate failed and the extra agent calls the
confirm reruns cost relative to a plain run.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from gate import baseline as baseline_mod  # noqa: E402
from gate.commands.baseline import record  # noqa: E402
from gate.commands.check import run_check  # noqa: E402
from gate.config import GateConfig  # noqa: E402
from gate.pipeline import CheckSettings  # noqa: E402


@dataclass(frozen=True)
class Scenario:
    name: str
    env: dict[str, str]
    """The demo agent's noise settings during the check (the baseline has the same noise, no break)."""
    baseline_env: dict[str, str]
    regression: bool


QC = "B3-QC-01,B3-QC-02,B3-QC-03,B3-QC-04,B3-QC-05,B3-QC-06"
SCENARIOS = [
    Scenario("unchanged, 95% per run", {"GATE_DEMO_NOISE": "0.05"}, {"GATE_DEMO_NOISE": "0.05"}, False),
    Scenario("unchanged, 99% per run", {"GATE_DEMO_NOISE": "0.01"}, {"GATE_DEMO_NOISE": "0.01"}, False),
    Scenario("unchanged, 10% of cases flaky at 30%", {"GATE_DEMO_FLAKY": "0.1:0.3"}, {"GATE_DEMO_FLAKY": "0.1:0.3"},
             False),
    Scenario("2 QC golden cases broken, 95%", {"GATE_DEMO_NOISE": "0.05", "GATE_DEMO_BREAK": "B3-QC-01,B3-QC-02"},
             {"GATE_DEMO_NOISE": "0.05"}, True),
    Scenario("QC dimension down 20 pts, 95%", {"GATE_DEMO_NOISE": "0.05", "GATE_DEMO_WORSE": f"{QC}:0.2"},
             {"GATE_DEMO_NOISE": "0.05"}, True),
]
NOISE_KEYS = ("GATE_DEMO_NOISE", "GATE_DEMO_FLAKY", "GATE_DEMO_BREAK", "GATE_DEMO_WORSE", "GATE_DEMO_SEED")


def config(mode: str, repeats: int | None = None) -> GateConfig:
    made = GateConfig.model_validate({
        "cases": {"path": "cases", "tags": ["golden", "consistency"]},
        "agent": {"adapter": "python", "function": "examples.demo_agent:run", "cache": False, "concurrency": 8},
        "decision": {"mode": mode},
        "repeats": repeats,
    })
    made.__pydantic_private__["_root"] = REPO  # type: ignore[index]
    return made


def set_env(values: dict[str, str], seed: int) -> None:
    for key in NOISE_KEYS:
        os.environ.pop(key, None)
    os.environ.update(values)
    os.environ["GATE_DEMO_SEED"] = str(seed)


def simulate(scenario: Scenario, prs: int, mode: str, work: Path,
             repeats: int | None = None) -> tuple[int, float, dict[str, int]]:
    """Gate failures over ``prs`` PRs, the mean extra calls, and which rules failed how often."""
    gate_config = config(mode, repeats)
    failures, extra, rules = 0, 0.0, {}
    for pr in range(prs):
        set_env(scenario.baseline_env, seed=2 * pr)
        base, _ = record(gate_config, gate_config.decision.baseline_runs)
        base_path = work / "baseline.json"
        baseline_mod.write(base_path, base)
        set_env(scenario.env, seed=2 * pr + 1)
        settings = CheckSettings(config=gate_config, baseline=base_path, out_dir=work / "out")
        report, _ = run_check(settings)
        planned = len(report.verdicts) - report.reruns
        extra += report.reruns / planned
        if not report.passed:
            failures += 1
            for rule in sorted({f.rule for f in report.findings if f.level.value in ("error", "red-line")}):
                rules[rule] = rules.get(rule, 0) + 1
    return failures, extra / prs, rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prs", type=int, default=100, help="simulated PRs per scenario")
    parser.add_argument("--mode", choices=["confidence", "point"], default="confidence")
    parser.add_argument("--scenarios", default="all", help="comma-separated indexes (0-based) or 'all'")
    parser.add_argument("--repeats", type=int, default=None, help="runs of every case in the check (gate.yaml repeats)")
    args = parser.parse_args()
    chosen = SCENARIOS if args.scenarios == "all" else [SCENARIOS[int(i)] for i in args.scenarios.split(",")]
    for key in ("CI", "GITHUB_ACTIONS"):  # no progress lines between the table's rows
        os.environ.pop(key, None)
    print(f"decision mode: {args.mode} · {args.prs} simulated PRs per scenario · baseline from 5 runs per case"
          + (f" · repeats {args.repeats}" if args.repeats else ""))
    print("| scenario | gate failed | rate | extra calls | rules that failed |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in chosen:
            started = time.perf_counter()
            failed, extra, rules = simulate(scenario, args.prs, args.mode, Path(tmp), args.repeats)
            kind = "detection" if scenario.regression else "false alarms"
            shown = ", ".join(f"{r} {n}" for r, n in sorted(rules.items())) or "—"
            print(f"| {scenario.name} | {failed}/{args.prs} | {kind} {failed / args.prs:.0%} | +{extra:.1%} | {shown} |"
                  f" <!-- {time.perf_counter() - started:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
