"""The drop a decision could have detected, and the baseline runs that would narrow it."""

from __future__ import annotations

from gate.commands.baseline_power import TARGET_DROP, describe_dimensions, dimension_calibration
from gate.config.gate_yaml import GateConfig
from gate.scoring.metrics import compute
from gate.scoring.power import baseline_runs_for, detectable_drop
from gate.verdict import RunVerdict, Status
from tests.casefiles import repo_cases


def test_more_runs_on_either_side_detect_a_smaller_drop() -> None:
    one_run = detectable_drop(57, 60, 12, 0.0225, 0.8)
    four_rounds = detectable_drop(57, 60, 48, 0.0225, 0.8)
    nightly = detectable_drop(228, 240, 48, 0.0225, 0.8)
    assert one_run is not None and four_rounds is not None and nightly is not None
    assert one_run > four_rounds > nightly
    assert 0.15 <= four_rounds <= 0.25  # simulated: the exact test finds 20 points 75 % of the time there
    assert detectable_drop(2, 2, 1, 0.001, 0.8) is None  # one run against two: no drop is detectable
    assert detectable_drop(5, 5, 0, 0.05, 0.8) is None


def test_the_baseline_runs_for_a_drop_bring_it_there() -> None:
    runs = baseline_runs_for(0.95, 12, 48, 0.0225, 0.8, 0.18)
    assert runs is not None and runs > 5
    found = detectable_drop(round(0.95 * runs * 12), runs * 12, 48, 0.0225, 0.8)
    assert found is not None and found <= 0.18
    assert baseline_runs_for(0.95, 12, 48, 0.0225, 0.8, 0.15) is None  # 48 runs now cannot see 15 points
    assert baseline_runs_for(0.95, 2, 2, 0.0225, 0.8, 0.1) is None  # two runs now: no baseline is enough


def test_the_calibration_says_per_dimension_what_more_baseline_runs_buy() -> None:
    cases = repo_cases().cases
    qc = sorted(c for c in cases if c.startswith("B3-QC"))
    verdicts = [RunVerdict(case_id=c, group=g, run=r, status=Status.FAIL if (i + r) % 20 == 0 else Status.PASS)
                for i, c in enumerate(qc) for g in ("A", "B") for r in range(5)]
    config = GateConfig.model_validate({"decision": {"budget": 3}})
    [entry] = dimension_calibration(compute(cases, verdicts), config, 5)
    assert (entry["dimension"], entry["pairs"], entry["runs_per_case"]) == ("B3/QC", 12, 5)
    assert entry["rounds"] == 2  # its first round is 12 calls: a budget of 3 buys 24 more, two rounds
    lines = describe_dimensions([entry], 0.8)
    assert lines[1].startswith("  B3/QC (12 pairs, 2 more rounds): ")
    assert entry["detectable_drop"] > TARGET_DROP and entry["baseline_runs_for_target"] is None
    assert "no baseline brings it to 20 pts: the check's own runs are too few" in lines[1]
    config = GateConfig.model_validate({"decision": {"budget": 5}})  # 48 more calls: four rounds
    [entry] = dimension_calibration(compute(cases, verdicts), config, 5)
    needed = entry["baseline_runs_for_target"]
    assert entry["rounds"] == 4 and needed is not None
    line = describe_dimensions([entry], 0.8)[1]
    assert (f"{needed} baseline runs per case would bring it to 20 pts" in line) == (entry["detectable_drop"] > 0.2)
