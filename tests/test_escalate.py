"""More rounds end to end: a dimension the first round put in doubt is run again and decided on the
fresh runs; the report replays which runs those were; a shard makes none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_confirm import IDS, calls, invoke, write_project

BUDGET = 3.0
"""Three times the first round's 6 calls: 12 more, two rounds of the dimension's 6 pairs."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    write_project(tmp_path, monkeypatch, {"confirm_runs": 0, "budget": BUDGET})
    assert invoke("baseline", "update", "--runs")[0] == 0
    calls()
    return tmp_path


def _power(project: Path) -> dict:
    document = json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8"))
    assert document["decision"]["budget"] == BUDGET
    return document["decision"]["power"]


def _check_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, decision: dict[str, object],
                bad: str) -> tuple[int, str, list[tuple[str, str, int]], dict]:
    """A project with ``decision``, its baseline recorded, then a check whose ``bad`` runs fail:
    the exit code, the output, the calls it made and results.json's ``decision.power``."""
    write_project(tmp_path, monkeypatch, decision)
    assert invoke("baseline", "update", "--runs")[0] == 0
    calls()
    monkeypatch.setenv("BAD", bad)
    code, out = invoke("check")
    power = json.loads((tmp_path / "gate-results" / "results.json").read_text(encoding="utf-8"))["decision"]["power"]
    return code, out, calls(), power


FIRST_ROUND_DOUBT = "B3-QC-01:A:0,B3-QC-02:B:0"
"""Two of the six first-round runs fail: enough doubt for more rounds."""


def test_a_dimension_in_doubt_that_passes_its_fresh_round_stops_there(project: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAD", FIRST_ROUND_DOUBT)
    code, out = invoke("check")
    assert code == 0, out
    made = calls()
    assert len(made) == 12 and {run for _, _, run in made[6:]} == {1}  # one more round of all six pairs
    power = _power(project)
    assert power["power_calls"] == 6 and power["runs"] == sorted([c, g, 1] for c, g, _ in made[6:])
    [decision] = power["dimensions"]
    assert decision["dimension"] == "B3/QC" and decision["outcome"] == "like-baseline"
    assert decision["fresh"] == {"passed": 6, "judged": 6, "uncertain": 0}
    assert decision["baseline"] == {"passed": 30, "judged": 30, "uncertain": 0}
    assert decision["test"].startswith("stratified exact test") and decision["p_value"] == 1.0
    assert decision["level"] > 0 and decision["detectable_drop"] is not None
    assert "6 on more rounds (B3/QC 1 round(s))" in out and "pilot" not in out  # a pilot would not fit a third of 12


def test_a_pilot_run_chooses_and_only_the_runs_after_it_are_tested(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """One first-round failure earns the dimension a pilot run of each pair; a second failure there
    chooses it; its test reads the rounds after the pilot only."""
    # 54 more calls: a pilot of 6 leaves 8 rounds
    code, out, made, power = _check_with(tmp_path, monkeypatch, {"confirm_runs": 0, "budget": 10.0},
                                         "B3-QC-01:A:0,B3-QC-02:B:1")
    assert code == 0, out
    assert len(made) == 18 and [run for _, _, run in made[6:]] == [1] * 6 + [2] * 6
    assert (power["pilot_calls"], power["power_calls"]) == (6, 12)
    [decision] = power["dimensions"]
    assert decision["outcome"] == "like-baseline" and decision["rounds"] == 1 and decision["planned_rounds"] == 8
    assert decision["fresh"] == {"passed": 6, "judged": 6, "uncertain": 0}  # the pilot's failure is not tested
    assert decision["first_round"] == {"passed": 10, "judged": 12, "uncertain": 0}  # the selection runs
    assert "6 on a pilot run of the doubtful dimensions, 6 on more rounds (B3/QC 1 round(s))" in out


def test_a_dimension_that_keeps_failing_its_fresh_rounds_fails_the_gate(project: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = [f"{cid}:A:1" for cid in IDS] + [f"{cid}:B:2" for cid in IDS]  # half of the 12 fresh runs fail
    monkeypatch.setenv("BAD", ",".join([FIRST_ROUND_DOUBT, *fresh]))
    code, out = invoke("check")
    assert code == 1, out
    assert len(calls()) == 18
    [decision] = _power(project)["dimensions"]
    assert (decision["outcome"], decision["rounds"], decision["fresh"]["passed"]) == ("regressed", 2, 6)
    assert decision["p_value"] <= decision["level"]
    assert "[error] B3/QC drifted below its baseline: 6 of 12 fresh runs pass" in out
    document = json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8"))
    drift = [f for f in document["findings"] if f["rule"] == "dimension-drift"]
    assert drift and drift[0]["p_value"] == decision["p_value"]
    # the (case, group) decisions read only the runs made before the more rounds
    assert all(d["now"]["judged"] == 1 for d in document["decision"]["regressions"])


def test_one_failure_is_no_doubt_and_a_budget_of_one_buys_nothing(project: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAD", "B3-QC-01:A:0")
    assert invoke("check")[0] == 0
    assert len(calls()) == 6 and _power(project)["power_calls"] == 0
    monkeypatch.setenv("BAD", FIRST_ROUND_DOUBT)
    config = json.loads((project / "gate.yaml").read_text(encoding="utf-8"))
    (project / "gate.yaml").write_text(json.dumps({**config, "decision": {"confirm_runs": 0, "budget": 1}}),
                                       encoding="utf-8")
    invoke("check")
    assert len(calls()) == 6


def test_a_shard_makes_no_more_rounds(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAD", FIRST_ROUND_DOUBT)
    invoke("check", "--shard", "1/1")
    assert len(calls()) == 6


def test_no_more_rounds_once_a_pair_is_found_regressed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate fails on the regressed pair already: no pilot, no more rounds, only its confirm reruns."""
    code, out, made, power = _check_with(tmp_path, monkeypatch, {"confirm_runs": 4, "budget": 5.0},
                                         "B3-QC-01:A:*,B3-QC-02:B:0")
    assert code == 1, out
    assert {(c, g) for c, g, run in made if run > 0} == {("B3-QC-01", "A"), ("B3-QC-02", "B")}  # confirm reruns only
    assert (power["pilot_calls"], power["power_calls"], power["dimensions"]) == (0, 0, [])


def test_a_declared_group_is_watched_like_a_dimension_and_shares_its_pairs_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group of two QC cases fails more often than its dimension: it is tested first; the
    dimension after it runs its shared pairs on runs after the group's."""
    write_project(tmp_path, monkeypatch, {"confirm_runs": 0, "budget": 10.0,
                                          "case_groups": {"pair": ["B3-QC-01", "tag:no-such-tag", "B3-QC-02"]}})
    code, out = invoke("validate")
    assert code == 2 and "decision.case_groups.pair: 'tag:no-such-tag' names no case" in out  # it would watch nothing
    config = json.loads((tmp_path / "gate.yaml").read_text(encoding="utf-8"))
    config["decision"]["case_groups"] = {"pair": ["B3-QC-0[12]"]}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    assert invoke("baseline", "update", "--runs")[0] == 0
    calls()
    monkeypatch.setenv("BAD", FIRST_ROUND_DOUBT)
    code, out = invoke("check")
    assert code == 0, out
    made = calls()
    pilot, group_round, dimension_round = made[6:12], made[12:16], made[16:]
    assert {run for _, _, run in pilot} == {1} and len(pilot) == 6  # every pair once, shared or not
    assert sorted((c, run) for c, _, run in group_round) == [(c, 2) for c in ("B3-QC-01", "B3-QC-02") for _ in "AB"]
    assert sorted((c, run) for c, _, run in dimension_round) == [("B3-QC-01", 3), ("B3-QC-01", 3), ("B3-QC-02", 3),
                                                                 ("B3-QC-02", 3), ("B3-QC-03", 2), ("B3-QC-03", 2)]
    power = json.loads((tmp_path / "gate-results" / "results.json").read_text(encoding="utf-8"))["decision"]["power"]
    first, second = power["dimensions"]
    assert (first["dimension"], first["outcome"], second["dimension"], second["outcome"]) == (
        "group pair", "like-baseline", "B3/QC", "like-baseline")
    assert first["fresh"]["judged"] == 4 and second["fresh"]["judged"] == 6
