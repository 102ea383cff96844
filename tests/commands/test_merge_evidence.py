"""`gate merge` takes a shard's files as evidence: each must hold exactly the runs its configuration
implies — the planned runs of its cases and the confirm reruns the decision settings make — each
with the trajectory results.json records. Shards come from real `gate check --shard` runs, tampered
as someone hiding a failure would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.trajectory import Trajectory
from tests.commands.cli import invoke
from tests.commands.test_check import point_mode, project

__all__ = ["project"]  # the fixture, used by name

BROKEN = "B3-FC-02"


def _shards(project: Path, monkeypatch: pytest.MonkeyPatch, count: int = 4) -> Path:
    """Shards of a check where BROKEN fails in group B; the directory of the shard that holds it."""
    monkeypatch.setenv("BREAK", BROKEN)
    monkeypatch.setenv("BREAK_GROUPS", "B")
    holder = None
    for k in range(1, count + 1):
        invoke("check", "--shard", f"{k}/{count}", "--out-dir", f"shard-{k}")
        if any(r["case_id"] == BROKEN for r in _results(project / f"shard-{k}")["results"]):
            holder = project / f"shard-{k}"
    assert holder is not None
    return holder


def _results(shard: Path) -> dict[str, Any]:
    return json.loads((shard / "results.json").read_text(encoding="utf-8"))


def _records(shard: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (shard / "trajectories.jsonl").read_text(encoding="utf-8").splitlines()]


def _rewrite(shard: Path, results: dict[str, Any], records: list[dict[str, Any]]) -> None:
    (shard / "results.json").write_text(json.dumps(results), encoding="utf-8")
    (shard / "trajectories.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def _merge(count: int = 4) -> tuple[int, str]:
    code, out, err = invoke("merge", *[f"shard-{k}/results.json" for k in range(1, count + 1)], "--out-dir", "merged")
    return code, out + err


def _passing_copies(shard: Path, runs: list[int]) -> None:
    """BROKEN's group B gains passing runs: group A's answer under B's name, recorded consistently."""
    results, records = _results(shard), _records(shard)
    good = next(r for r in records if r["case_id"] == BROKEN and r["group"] == "A")
    verdict = next(r for r in results["results"] if r["case_id"] == BROKEN and r["group"] == "A")
    for run in runs:
        records.append({**good, "group": "B", "run": run})
        results["results"].append({**verdict, "group": "B", "run": run,
                                   "trajectory": Trajectory.model_validate(good).digest})
    _rewrite(shard, results, records)


def test_an_untouched_shard_set_merges_and_fails_on_the_broken_case(project: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    _shards(project, monkeypatch)
    code, said = _merge()
    assert code == 1, said
    runs = _results(project / "merged")["results"]
    assert all(r["trajectory"].startswith("sha256:") for r in runs) and len(runs) == 8


def test_a_failing_run_dropped_from_both_files_is_refused_naming_the_shard_and_the_run(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    holder = _shards(project, monkeypatch)
    results, records = _results(holder), _records(holder)
    results["results"] = [r for r in results["results"] if (r["case_id"], r["group"]) != (BROKEN, "B")]
    _rewrite(holder, results, [r for r in records if (r["case_id"], r["group"]) != (BROKEN, "B")])
    code, said = _merge()
    assert code == 2, said
    assert (f"gate: error: {Path(holder.name) / 'results.json'}: case {BROKEN} group B run 0 is missing: shard "
            f"{holder.name[-1]}/4 of this case set runs it; a missing run is never a pass") in said


def test_a_trajectory_swapped_for_a_passing_one_is_refused_by_its_digest(project: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    holder = _shards(project, monkeypatch)
    records = _records(holder)
    good = next(r for r in records if r["case_id"] == BROKEN and r["group"] == "A")
    swapped = [{**r, "final_answer": good["final_answer"]} if (r["case_id"], r["group"]) == (BROKEN, "B") else r
               for r in records]
    _rewrite(holder, _results(holder), swapped)
    code, said = _merge()
    assert code == 2, said
    assert f"case {BROKEN} group B run 0: its trajectory in trajectories.jsonl is not the one recorded here" in said


def test_passing_runs_added_in_point_mode_are_refused_not_counted(project: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    holder = _shards(project, monkeypatch)
    _passing_copies(holder, [1, 2, 3])
    code, said = _merge()
    assert code == 2, said
    assert (f"case {BROKEN} group B run 1 (and 2 more) is not a run this shard makes: it is beyond the planned "
            "repeats and no confirm rerun (point mode makes none)") in said


def test_confirm_reruns_are_accepted_as_the_decision_settings_make_them_and_no_more(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update", "--runs", "5")[0] == 0
    holder = _shards(project, monkeypatch)
    made = sorted(r["run"] for r in _results(holder)["results"] if (r["case_id"], r["group"]) == (BROKEN, "B"))
    assert made == list(range(len(made))) and len(made) > 1  # the failure, and the reruns that confirm it
    code, said = _merge()
    assert code == 1, said
    _passing_copies(holder, [len(made), len(made) + 1, len(made) + 2])
    code, said = _merge()
    assert code == 2, said
    assert f"case {BROKEN} group B run {len(made)} (and 2 more) is not a run this shard makes: it is beyond the " \
           "planned repeats, and no confirm rerun" in said


def test_an_interrupted_shard_may_lack_runs_but_never_hold_others(project: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    holder = _shards(project, monkeypatch)
    results, records = _results(holder), _records(holder)
    results["results"] = [r for r in results["results"] if (r["case_id"], r["group"]) != (BROKEN, "B")]
    _rewrite(holder, {**results, "interrupted": True},
             [r for r in records if (r["case_id"], r["group"]) != (BROKEN, "B")])
    code, said = _merge()
    assert code == 130, said  # interrupted: never a pass
    _passing_copies(holder, [1])
    code, said = _merge()
    assert code == 2 and f"case {BROKEN} group B run 1 is not a run this shard makes" in said


def test_a_case_moved_into_another_shard_is_refused(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    holder = _shards(project, monkeypatch)
    other = project / ("shard-1" if holder.name != "shard-1" else "shard-2")
    results, records = _results(holder), _records(holder)
    moved = [r for r in results["results"] if r["case_id"] == BROKEN]
    _rewrite(holder, {**results, "results": [r for r in results["results"] if r["case_id"] != BROKEN]},
             [r for r in records if r["case_id"] != BROKEN])
    there = _results(other)
    _rewrite(other, {**there, "results": there["results"] + moved},
             _records(other) + [r for r in records if r["case_id"] == BROKEN])
    code, said = _merge()
    assert code == 2, said
    if other.name < holder.name:  # the shards are checked in the order given: the first one wrong is named
        assert (f"{Path(other.name) / 'results.json'}: case {BROKEN} group A run 0 (and 1 more) is not a run this "
                f"shard makes: case {BROKEN} is not among the cases shard {other.name[-1]}/4 runs") in said
    else:
        assert f"{Path(holder.name) / 'results.json'}: case {BROKEN} group A run 0 (and 1 more) is missing" in said
