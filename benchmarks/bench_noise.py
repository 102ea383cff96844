"""False alarms and detection on a random agent: the gate's decisions over simulated PRs.

    python benchmarks/bench_noise.py [--prs 100] [--scenarios all] [--mode confidence]

Each simulated PR records a baseline the way the gate says to (``gate baseline update``: fresh
runs, ``decision.baseline_runs`` = 5 per case, on main) from the demo agent in its seeded noise
mode, then runs ``gate check`` against it with another seed — the agent unchanged, or with a real
regression. Everything runs in process (``function: examples.demo_agent:run``), through the same
pipeline as the CLI, confirm reruns included. Prints, per scenario, how often the gate failed, how
often it ended inconclusive instead of passed (exit 0 with ``fail_on_inconclusive: false``), and
the extra agent calls relative to the first round: confirm reruns and the more rounds of a drifting
dimension (``decision.budget``; ``--budget`` for another).

The demo's bad answer to a never-rule case (a forbidden brand, a write tool) breaks the never-rule,
which fails the gate on one run by design; the rate-noise scenarios keep those cases out of the
noise (``GATE_DEMO_KEEP``) so their false alarms measure the rate decisions, and one scenario breaks
a never-rule in a third of the runs instead.
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

from gate.baseline import store as baseline_mod  # noqa: E402
from gate.commands.baseline import record  # noqa: E402
from gate.commands.check import run_check  # noqa: E402
from gate.config.gate_yaml import GateConfig  # noqa: E402
from gate.pipeline.stages import CheckSettings  # noqa: E402


@dataclass(frozen=True)
class Scenario:
    name: str
    env: dict[str, str]
    """The demo agent's noise settings during the check (the baseline has the same noise, no break)."""
    baseline_env: dict[str, str]
    regression: bool


QC = "B3-QC-01,B3-QC-02,B3-QC-03,B3-QC-04,B3-QC-05,B3-QC-06"
NEVER = "B3-AC-12,B3-MC-03,B3-MC-05,B3-PC-01,B3-PC-05,feedback-001"
"""The cases with a never-rule (zero_tolerance): every bad answer of the demo's breaks one."""
KEEP = {"GATE_DEMO_KEEP": NEVER}
SCENARIOS = [
    Scenario("unchanged, 95% per run", {"GATE_DEMO_NOISE": "0.05", **KEEP}, {"GATE_DEMO_NOISE": "0.05", **KEEP}, False),
    Scenario("unchanged, 99% per run", {"GATE_DEMO_NOISE": "0.01", **KEEP}, {"GATE_DEMO_NOISE": "0.01", **KEEP}, False),
    Scenario("unchanged, 10% of cases flaky at 30%", {"GATE_DEMO_FLAKY": "0.1:0.3", **KEEP},
             {"GATE_DEMO_FLAKY": "0.1:0.3", **KEEP}, False),
    Scenario("2 QC golden cases broken, 95%",
             {"GATE_DEMO_NOISE": "0.05", "GATE_DEMO_BREAK": "B3-QC-01,B3-QC-02", **KEEP},
             {"GATE_DEMO_NOISE": "0.05", **KEEP}, True),
    Scenario("QC dimension down 20 pts, 95%", {"GATE_DEMO_NOISE": "0.05", "GATE_DEMO_WORSE": f"{QC}:0.2", **KEEP},
             {"GATE_DEMO_NOISE": "0.05", **KEEP}, True),
    Scenario("a write tool called in a third of feedback-001's runs",
             {"GATE_DEMO_WORSE": "feedback-001:0.33"}, {}, True),
]
ACCEPTED = baseline_mod.load(REPO / "baselines" / "main.json").accepted  # type: ignore[union-attr]
"""The committed baseline's acceptances (the demo's known Redmi answer in B3-MC-05 without the skill)."""
NOISE_KEYS = ("GATE_DEMO_NOISE", "GATE_DEMO_FLAKY", "GATE_DEMO_BREAK", "GATE_DEMO_WORSE", "GATE_DEMO_SEED",
              "GATE_DEMO_KEEP")


def config(mode: str, repeats: int | None = None, budget: float | None = None) -> GateConfig:
    decision: dict[str, object] = {"mode": mode} if budget is None else {"mode": mode, "budget": budget}
    return GateConfig.validated({
        "cases": {"path": "cases", "tags": ["golden", "consistency"]},
        "agent": {"adapter": "python", "function": "examples.demo_agent:run", "cache": False, "concurrency": 8},
        "decision": decision,
        "repeats": repeats,
    }, root=REPO, read=False)


def set_env(values: dict[str, str], seed: int) -> None:
    for key in NOISE_KEYS:
        os.environ.pop(key, None)
    os.environ.update(values)
    os.environ["GATE_DEMO_SEED"] = str(seed)


@dataclass
class Tally:
    """What ``prs`` simulated PRs ended in."""

    failed: int = 0
    inconclusive: int = 0
    never_broken: int = 0
    """PRs in which a run broke a never-rule (each must fail)."""
    never_missed: int = 0
    """Of those, PRs that did not fail: must stay 0."""
    extra: float = 0.0
    rules: dict[str, int] | None = None


def simulate(scenario: Scenario, prs: int, mode: str, work: Path, repeats: int | None = None,
             budget: float | None = None, baseline_runs: int | None = None) -> Tally:
    """Gate failures and inconclusive ends over ``prs`` PRs, never-rule breaks, the mean extra calls,
    and which rules failed how often."""
    from gate.policy.never import violations

    gate_config = config(mode, repeats, budget)
    tally = Tally(rules={})
    rules = tally.rules
    assert rules is not None
    for pr in range(prs):
        set_env(scenario.baseline_env, seed=2 * pr)
        recorded = record(gate_config, baseline_runs or gate_config.decision.baseline_runs)
        assert recorded is not None, "the baseline's runs were interrupted"
        base = recorded[0]
        base = base.model_copy(update={"accepted": ACCEPTED})  # as `gate baseline update` keeps them
        base_path = work / "baseline.json"
        baseline_mod.write(base_path, base)
        set_env(scenario.env, seed=2 * pr + 1)
        settings = CheckSettings(config=gate_config, baseline=base_path, out_dir=work / "out")
        report, _ = run_check(settings)
        planned = len(report.verdicts) - report.reruns
        tally.extra += report.reruns / planned / prs
        accepted = {(a.case_id, a.constraint) for a in ACCEPTED}
        broke = any((case_id, constraint) not in accepted for case_id, constraint, _ in violations(report.cases, report.verdicts))
        tally.never_broken += broke
        tally.never_missed += broke and report.passed
        tally.inconclusive += report.verdict == "inconclusive"
        if not report.passed:
            tally.failed += 1
            for rule in sorted({f.rule for f in report.findings if f.level.value in ("error", "red-line")}):
                rules[rule] = rules.get(rule, 0) + 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prs", type=int, default=100, help="simulated PRs per scenario")
    parser.add_argument("--mode", choices=["confidence", "point"], default="confidence")
    parser.add_argument("--scenarios", default="all", help="comma-separated indexes (0-based) or 'all'")
    parser.add_argument("--repeats", type=int, default=None, help="runs of every case in the check (gate.yaml repeats)")
    parser.add_argument("--baseline-runs", type=int, default=None,
                        help="runs per case of each simulated baseline (default: decision.baseline_runs, 5)")
    parser.add_argument("--budget", type=float, default=None,
                        help="decision.budget: calls of a check as a multiple of its first round's (default: the gate's)")
    args = parser.parse_args()
    chosen = SCENARIOS if args.scenarios == "all" else [SCENARIOS[int(i)] for i in args.scenarios.split(",")]
    for key in ("CI", "GITHUB_ACTIONS"):  # no progress lines between the table's rows
        os.environ.pop(key, None)
    print(f"decision mode: {args.mode} · {args.prs} simulated PRs per scenario · baseline from "
          f"{args.baseline_runs or 5} runs per case"
          + (f" · repeats {args.repeats}" if args.repeats else "")
          + f" · budget {args.budget if args.budget is not None else GateConfig().decision.budget:g}× the first round")
    print("| scenario | gate failed | rate | inconclusive | never-rule broken / missed | extra calls | rules that failed |")
    print("|---|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in chosen:
            started = time.perf_counter()
            tally = simulate(scenario, args.prs, args.mode, Path(tmp), args.repeats, args.budget, args.baseline_runs)
            kind = "detection" if scenario.regression else "false alarms"
            shown = ", ".join(f"{r} {n}" for r, n in sorted((tally.rules or {}).items())) or "—"
            print(f"| {scenario.name} | {tally.failed}/{args.prs} | {kind} {tally.failed / args.prs:.0%} | "
                  f"{tally.inconclusive}/{args.prs} | {tally.never_broken} / {tally.never_missed} | +{tally.extra:.1%} | "
                  f"{shown} | <!-- {time.perf_counter() - started:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
