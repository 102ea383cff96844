"""`gate baseline update` never records a partial run — an interrupted check, cases left out, agent
errors — unless told to (--accept-partial), and then says what it accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.commands.baseline_partial import gaps
from tests.commands import stub_agent
from tests.commands.cli import invoke
from tests.commands.test_check import project

__all__ = ["project"]  # the fixture, used by name

LEFT_OUT = "B3-QC-02"


def _without_a_case(project: Path, **fields: Any) -> None:
    """The latest results.json as a run that never reached LEFT_OUT would have written it."""
    path = project / "gate-results" / "results.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["results"] = [r for r in document["results"] if r["case_id"] != LEFT_OUT]
    del document["metrics"]["cases"][LEFT_OUT]
    path.write_text(json.dumps({**document, **fields}), encoding="utf-8")


def _stored(project: Path) -> dict[str, Any]:
    return json.loads((project / "baselines" / "main.json").read_text(encoding="utf-8"))["cases"]


def test_results_that_left_a_passing_case_out_are_refused_and_the_baseline_kept(project: Path) -> None:
    assert invoke("baseline", "update", "--runs", "1")[0] == 0
    assert invoke("check")[0] == 0
    _without_a_case(project)
    code, out, err = invoke("baseline", "update", "--results")
    assert code == 1, out + err
    assert ("gate: refused: a partial run is no baseline — runs missing for 2 (case, group) pair(s): "
            f"{LEFT_OUT} (A) 1 of 1 runs, {LEFT_OUT} (B) 1 of 1 runs; rerun, or record it with --accept-partial "
            "(nothing written to ") in err
    assert LEFT_OUT in _stored(project)


def test_accepting_a_partial_run_says_what_was_accepted(project: Path) -> None:
    assert invoke("check")[0] == 0
    _without_a_case(project, interrupted=True)
    code, _, err = invoke("baseline", "update", "--results")
    assert code == 2 and "record them with --accept-partial" in err
    code, out, err = invoke("baseline", "update", "--results", "--accept-partial")
    assert code == 0, out + err
    assert ("gate: warning: recorded from a partial run (--accept-partial): the run was interrupted; runs missing for "
            f"2 (case, group) pair(s): {LEFT_OUT} (A) 1 of 1 runs, {LEFT_OUT} (B) 1 of 1 runs") in err
    assert LEFT_OUT not in _stored(project) and "B3-QC-01" in _stored(project)


def test_fresh_runs_with_agent_errors_are_refused(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    answer = stub_agent.answer

    def down_for_one_case(request: dict[str, Any]) -> dict[str, Any]:
        found = answer(request)
        return {**found, "final_answer": "", "error": "503 Service Unavailable"} \
            if request["case_id"] == LEFT_OUT and request["group"] == "B" else found

    monkeypatch.setattr(stub_agent, "answer", down_for_one_case)
    code, out, err = invoke("baseline", "update", "--runs", "2")
    assert code == 1, out + err
    assert f"agent errors in 1 (case, group) pair(s): {LEFT_OUT} (B) 2 of 2 runs; rerun" in err
    assert not (project / "baselines" / "main.json").exists()


def test_the_gaps_of_a_recording() -> None:
    planned = [("c", "A", 0), ("c", "A", 1), ("c", "B", 0), ("d", "A", 0)]
    found = gaps(planned, [(("c", "A", 0), None), (("c", "A", 1), "timed out"), (("c", "B", 0), None),
                           (("c", "B", 1), None)])
    assert found.missing == {("d", "A"): (1, 1)} and found.erred == {("c", "A"): (1, 2)} and found
    assert not gaps(planned[:1], [(("c", "A", 0), None)])
