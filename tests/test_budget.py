"""The judging budget: a constraint still running when a trajectory's budget is spent is recorded as
an error naming it and the budget, the constraints after it are not started, and the run goes on."""

from __future__ import annotations

import contextlib
import gc
import json
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.case import Case
from gate.checkers import REGISTRY
from gate.checkers.base import Checker
from gate.cli.app import main
from gate.judging.evaluate import evaluate
from gate.process import budget as budget_mod
from gate.process.budget import Budget, BudgetExceeded
from gate.subject import Subject
from gate.trajectory import Trajectory
from gate.verdict import Outcome, Status


def _case(*constraints: dict[str, Any]) -> Case:
    return Case.model_validate({
        "id": "B3-QC-01", "suite": "B3", "dimension": "QC", "title": "t", "difficulty": "easy",
        "scoring": "auto", "input": {"messages": [{"role": "user", "content": "推荐 3 款"}]},
        "groups": {"A": {"skill_enabled": False}}, "constraints": list(constraints),
        "examples": {"pass": [{"final_answer": "1. a"}], "fail": [{"final_answer": "", "fails": ["three"]}]},
    })


def _run(answer: str = "1. a\n2. b\n3. c") -> Trajectory:
    return Trajectory(case_id="B3-QC-01", group="A", run=0, final_answer=answer)


@pytest.fixture
def endless(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A checker (in place of text:sentences) that never returns and swallows every Exception."""
    def spin(subject: Subject, params: Any) -> Outcome:
        while True:
            try:
                sum(range(1000))
            except Exception:  # a checker's own broad except must not swallow the budget
                continue

    original = REGISTRY["text:sentences"]
    monkeypatch.setitem(REGISTRY, "text:sentences", Checker(original.id, original.params, spin, original.summary))
    yield "text:sentences"


COUNT = {"id": "three", "check": "items:count", "params": {"exact": 3}}
RUBRIC = {"id": "tone", "judge": "语气自然"}


def test_a_constraint_that_never_ends_is_an_error_naming_the_budget(endless: str) -> None:
    case = _case(COUNT, {"id": "spin", "check": endless, "params": {"exact": 1}}, COUNT | {"id": "after"}, RUBRIC)
    evaluate(_case(COUNT), _run(), budget_s=None)  # what judging imports, imported before the budget runs
    # The count before the spin costs milliseconds; a second is far from it on any machine (0.3 s
    # was not, with the analysers' first import inside it). The spin never ends: only the budget does.
    verdict = evaluate(case, _run(), budget_s=1.0)
    by_id = {c.id: c for c in verdict.constraints}
    assert by_id["three"].status is Status.PASS  # judged before the budget ran out
    assert by_id["spin"].status is Status.ERROR
    assert by_id["spin"].detail.startswith("judging budget (1 s) exceeded while checking this constraint")
    assert by_id["after"].status is Status.ERROR
    assert by_id["after"].detail == "not judged: the judging budget (1 s) was spent before this constraint"
    assert by_id["tone"].status is Status.SKIPPED  # a rubric is never run by the rules anyway
    assert verdict.status is Status.ERROR


def test_the_timer_and_the_previous_alarm_handler_are_restored(endless: str) -> None:
    def mine(signum: int, frame: Any) -> None:
        raise AssertionError("must not be called")

    evaluate(_case({"id": "spin", "check": endless, "params": {"exact": 1}}), _run(), budget_s=0.1)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
    previous = signal.signal(signal.SIGALRM, mine)
    try:  # someone else owns SIGALRM: the budget does not take it over, and only checks between constraints
        verdict = evaluate(_case(COUNT), _run(), budget_s=60)  # ample, so the count starts in it on any machine
        assert signal.getsignal(signal.SIGALRM) is mine
        assert verdict.status is Status.PASS
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_off_the_main_thread_the_budget_is_checked_between_constraints(monkeypatch: pytest.MonkeyPatch) -> None:
    # the budget's clock is the test's: the first constraint starts with the budget whole and spends
    # it, however long the thread waited for a CPU (a real 0.1 s budget could be gone before it starts)
    now = [1000.0]
    monkeypatch.setattr(budget_mod, "time", SimpleNamespace(monotonic=lambda: now[0]))

    def slow(subject: Subject, params: Any) -> Outcome:
        now[0] += 0.3
        return Outcome.passed("slow but done")

    original = REGISTRY["text:sentences"]
    monkeypatch.setitem(REGISTRY, "text:sentences", Checker(original.id, original.params, slow, original.summary))
    found: list[Any] = []
    case = _case({"id": "slow", "check": "text:sentences", "params": {"exact": 1}}, COUNT)
    worker = threading.Thread(target=lambda: found.append(evaluate(case, _run(), budget_s=0.1)))
    worker.start()
    worker.join(60)
    (verdict,) = found
    assert [c.status for c in verdict.constraints] == [Status.PASS, Status.ERROR]
    assert "was spent before this constraint" in verdict.constraints[1].detail


def test_a_timer_that_fires_where_its_exception_is_swallowed_still_ends_the_checker() -> None:
    """The alarm can land in a gc callback or a __del__, where Python ignores what is raised: the
    checker then returns normally, and the spent budget must still make it an error."""
    budget = Budget(60)

    def checker_whose_alarm_lands_in_a_gc_callback() -> str:
        with contextlib.suppress(BudgetExceeded):  # what Python does with an exception in a gc callback
            budget._alarm(signal.SIGALRM, None)
        return "verdict"

    with pytest.raises(BudgetExceeded):
        budget.run(checker_whose_alarm_lands_in_a_gc_callback)
    assert budget.spent


def _spin(seconds: float) -> None:
    """Busy Python code the timer can interrupt (a sleep would be cut short by the signal)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


def test_an_alarm_due_inside_a_garbage_collection_waits_for_it_to_end_and_nothing_is_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another library's gc callback (Hypothesis installs one) can be what runs when the timer is
    due; raised there, the exception would be printed as ignored and the checker would run on."""
    unraisable: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)

    def slow_gc_callback(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            _spin(0.05)

    def checker_that_collects() -> None:
        gc.collect()  # the budget is spent inside the slow callback
        _spin(1.0)

    gc.callbacks.append(slow_gc_callback)
    try:
        with budget_mod.enforced(0.01) as budget, pytest.raises(BudgetExceeded):
            budget.run(checker_that_collects)
    finally:
        gc.callbacks.remove(slow_gc_callback)
    assert unraisable == []
    assert slow_gc_callback not in gc.callbacks and not any(
        getattr(callback, "__self__", None) is budget for callback in gc.callbacks
    )


def test_an_alarm_due_in_a_finalizer_waits_for_it_to_return(monkeypatch: pytest.MonkeyPatch) -> None:
    unraisable: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)

    class SlowToFinalize:
        def __del__(self) -> None:
            _spin(0.05)

    def checker_that_drops_an_object() -> None:
        SlowToFinalize()  # dropped at once: __del__ runs while the budget runs out
        _spin(1.0)

    with budget_mod.enforced(0.01) as budget, pytest.raises(BudgetExceeded):
        budget.run(checker_that_drops_an_object)
    assert unraisable == []


def test_no_budget_means_no_limit() -> None:
    with budget_mod.enforced(None) as budget:
        assert not budget.spent
        assert budget.run(lambda: 7) == 7
    assert budget.describe() == "no limit"


def test_a_megabyte_of_dense_markup_ends_within_its_budget() -> None:
    case = _case(COUNT, {"id": "table", "check": "markdown:table", "params": {"min_rows": 2}})
    # CPU time, which a loaded machine does not stretch: judged whole, this answer costs ~7 s of it
    started = time.process_time()
    verdict = evaluate(case, _run("[" * 1_000_000), budget_s=0.5)
    assert time.process_time() - started < 2.5
    assert {c.status for c in verdict.constraints} == {Status.ERROR}
    assert "(answer of 1,000,000 bytes)" in verdict.constraints[0].detail


CASE_FILE = case_yaml(["{id: three, check: items:count, params: {exact: 3}}",
                       "{id: no_sony, check: terms:forbidden, params: {groups: [sony]}}"],
                      ["1. a\n2. b\n3. c"], [("1. a", ["three"])], extra="repeats: 3")

# Answers with 1.5 MB of nested brackets: seconds of Markdown parsing, whatever the request.
HOSTILE_AGENT = textwrap.dedent('''\
    import json, sys
    request = json.load(sys.stdin)
    print(json.dumps({"case_id": request["case_id"], "group": request["group"], "run": request["run"],
                      "final_answer": "[" * 1_500_000 + " " + str(request["run"])}))  # each run its own answer
''')


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE_FILE, encoding="utf-8")
    (tmp_path / "agent.py").write_text(HOSTILE_AGENT, encoding="utf-8")
    return tmp_path


def _config(project: Path, **extra: Any) -> None:
    config = {"agent": {"adapter": "command", "command": [sys.executable, "agent.py"], "cache": False, "retries": 0},
              "groups": ["A"], "baseline": "none.json", "out_dir": "out", **extra}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")


def test_gate_check_on_hostile_answers_ends_within_the_budget_with_every_report(project: Path) -> None:
    _config(project, judging={"budget_s": 0.5})
    started = time.process_time()  # the gate's CPU time: judged whole, the three answers cost ~30 s of it
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    assert time.process_time() - started < 10
    assert result.exit_code == 1, result.output
    document = json.loads((project / "out" / "results.json").read_text(encoding="utf-8"))
    assert len(document["results"]) == 3
    for run in document["results"]:
        (three, no_sony) = run["constraints"]
        assert three["status"] == "error"
        assert three["detail"].startswith("judging budget (0.5 s) exceeded while checking this constraint")
        assert no_sony["detail"] == "not judged: the judging budget (0.5 s) was spent before this constraint"
    for name in ("junit.xml", "comment.md", "trajectories.jsonl"):
        assert (project / "out" / name).is_file()


@pytest.mark.parametrize(("value", "message"), [
    (0, "judging.budget_s: Input should be greater than 0"),
    (-1, "judging.budget_s: Input should be greater than 0"),
    (True, "judging.budget_s"),
    ("fast", "judging.budget_s"),
])
def test_a_bad_budget_is_a_config_error(project: Path, value: Any, message: str) -> None:
    _config(project, judging={"budget_s": value})
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (project / "out").exists()
