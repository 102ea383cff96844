"""A small case set, a baseline and trajectories whose verdicts exercise every report path."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from gate.cases.loader import load_cases
from gate.config.gate_yaml import GateConfig
from gate.pipeline.stages import CheckSettings, build_report, load_baseline
from gate.report.model import GateReport
from gate.trajectory import Trajectory

_CASE = """\
id: {id}
suite: B3
dimension: {dim}
title: {title}
difficulty: easy
scoring: auto
tags: [golden]
input:
  messages: [{{role: user, content: "推荐 3 款降噪耳机"}}]
groups:
  A: {{skill_enabled: false}}
  B: {{skill_enabled: true, active_skills: [product_recommendation_skill]}}
constraints:
  - id: exactly_3_items
    check: items:count
    params: {{exact: 3}}
  - id: no_sony
    check: terms:forbidden
    params: {{groups: [sony]}}
examples:
  pass:
    - final_answer: "1. Bose\\n2. Apple\\n3. 华为"
  fail:
    - final_answer: "1. Bose\\n2. Apple"
      fails: [exactly_3_items]
    - final_answer: "1. Bose\\n2. Apple\\n3. 索尼"
      fails: [no_sony]
"""

GOOD = "1. **Bose QC Ultra**：约 2999 元\n2. **AirPods Max**：3999 元\n3. **华为 FreeBuds Pro 4**：1299 元"
FOUR = GOOD + "\n4. **森海塞尔 Momentum 4**：2499 元"
HOSTILE = "1. <script>alert(1)</script> @octocat | x\n2. \x1b[31mred\x1b[0m \x07 bell\n3. ＳＯＮＹ WH-1000XM5 ```code```"


@pytest.fixture
def case_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Relative paths, so reports name "cases/b3/…" and golden files do not depend on tmp_path.
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "cases" / "b3"
    root.mkdir(parents=True)
    for cid, dim, title in [("B3-QC-01", "QC", "精确数量"), ("B3-QC-02", "QC", "上限"), ("B3-PC-01", "PC", "禁止品牌")]:
        (root / f"{cid}.yaml").write_text(textwrap.dedent(_CASE.format(id=cid, dim=dim, title=title)), encoding="utf-8")
    return Path("cases")


def trajectories(answers: dict[tuple[str, str], str], runs: int = 1,
                 reruns: dict[tuple[str, str], int] | None = None) -> list[Trajectory]:
    """``runs`` runs of every answer, and more (confirm reruns) for the pairs in ``reruns``."""
    return [Trajectory(case_id=c, group=g, run=r, final_answer=a, metadata={"latency_ms": 1234})
            for (c, g), a in sorted(answers.items()) for r in range(runs + (reruns or {}).get((c, g), 0))]


def make_report(case_dir: Path, answers: dict[tuple[str, str], str], tmp_path: Path,
                baseline: dict | None = None, runs: int = 1,
                reruns: dict[tuple[str, str], int] | None = None) -> GateReport:
    case_set = load_cases(case_dir)
    base_path = tmp_path / "baseline.json"
    if baseline is not None:
        base_path.write_text(json.dumps(baseline), encoding="utf-8")
    settings = CheckSettings(config=GateConfig(), baseline=base_path, out_dir=tmp_path / "out")
    return build_report(settings, case_set, trajectories(answers, runs, reruns), base=load_baseline(settings))


@pytest.fixture
def report_factory(case_dir: Path, tmp_path: Path) -> Callable[..., GateReport]:
    def build(answers: dict[tuple[str, str], str], baseline: dict | None = None, runs: int = 1) -> GateReport:
        return make_report(case_dir, answers, tmp_path, baseline, runs)

    return build


@pytest.fixture
def mixed_report(case_dir: Path, tmp_path: Path) -> GateReport:
    """QC-01 regressed in B (the skill; its reruns fail too), PC-01 fails in both groups with hostile
    agent output, as it did in the baseline."""
    answers = {
        ("B3-PC-01", "A"): HOSTILE, ("B3-PC-01", "B"): HOSTILE,
        ("B3-QC-01", "A"): GOOD, ("B3-QC-01", "B"): FOUR,
        ("B3-QC-02", "A"): GOOD, ("B3-QC-02", "B"): GOOD,
    }
    case_set = load_cases(case_dir)
    baseline = {
        "schema": "gate.baseline/v2", "cases_digest": case_set.digest, "identity": {},
        "dimensions": {"B3/PC": {"A": 0.0, "B": 0.0}, "B3/QC": {"A": 1.0, "B": 1.0}},
        "cases": {cid: {g: {"passed": 0 if cid == "B3-PC-01" else 5, "runs": 5} for g in "AB"}
                  for cid in ("B3-PC-01", "B3-QC-01", "B3-QC-02")},
    }
    return make_report(case_dir, answers, tmp_path, baseline, reruns={("B3-QC-01", "B"): 3})
