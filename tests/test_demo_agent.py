"""The bundled demo agent: the contract on stdin/stdout, its regression knob, its verdict mix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from gate.case import Case
from gate.cases.loader import CaseSet
from gate.config.gate_yaml import load_config
from gate.judging.evaluate import evaluate
from gate.policy.thresholds import at_least
from gate.runs.jobs import Job, build_request
from gate.runs.records import read_trajectories
from gate.scoring.consistency import compute_all
from gate.scoring.metrics import Attribution, Metrics, compute
from gate.trajectory import Trajectory
from gate.verdict import Status
from tests.casefiles import repo_cases
from tests.demo_inprocess import answer as demo_answer
from tests.demo_inprocess import load_script

ROOT = Path(__file__).resolve().parent.parent
AGENT = ROOT / "examples" / "demo_agent.py"
RECORDER = ROOT / "examples" / "record_demo.py"
RECORDING = ROOT / "examples" / "trajectories.jsonl"

WEATHER = {
    "city": "北京",
    "date": "2026-04-08",
    "condition": "小雨",
    "temp_low": 3,
    "temp_high": 9,
    "wind": "北风 3 级",
    "humidity": 80,
    "aqi": 40,
}


def run_agent(stdin: str | bytes, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k != "GATE_DEMO_BREAK"}
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run(
        [sys.executable, str(AGENT)], input=data, capture_output=True, env={**clean, **env}, timeout=60, check=False
    )
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    )


def ask_through_stdin(request: dict[str, Any], **env: str) -> Trajectory:
    proc = run_agent(json.dumps(request, ensure_ascii=False), **env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return Trajectory.model_validate(json.loads(proc.stdout))


def ask(request: dict[str, Any], **env: str) -> Trajectory:
    """The demo's answer to ``request`` under ``env``, called in this process: the bytes its stdout would
    carry (tests/demo_inprocess.py); the stdin contract itself is tested through the script."""
    clean = {k: v for k, v in os.environ.items() if k != "GATE_DEMO_BREAK"}
    with mock.patch.dict(os.environ, {**clean, **env}, clear=True):
        return Trajectory.model_validate(demo_answer(request))


def user(text: str, **extra: Any) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}], **extra}


@pytest.fixture(scope="module")
def case_set() -> CaseSet:
    return repo_cases()


def request_for(case_set: CaseSet, case_id: str, group: str, run: int = 0) -> dict[str, Any]:
    return build_request(Job(case_set.cases[case_id], group, run))


# ---------------------------------------------------------------- the contract


def test_answers_a_contract_request_with_a_trajectory(case_set: CaseSet) -> None:
    request = request_for(case_set, "B3-QC-05", "B")
    trajectory = ask_through_stdin(request)
    assert (trajectory.case_id, trajectory.group, trajectory.run) == ("B3-QC-05", "B", 0)
    assert trajectory.error is None
    call = trajectory.tool_calls[0]
    assert call.name == "search_restaurants"
    assert call.args["city"] == "三亚"
    assert call.result is not None
    assert call.result == request["tool_intercepts"][0]["result"]  # answered from the intercept
    restaurants = json.loads(call.result)["results"]
    assert all(r["name"] in trajectory.final_answer for r in restaurants)
    assert evaluate(case_set.cases["B3-QC-05"], trajectory).status is Status.PASS


def test_answers_by_the_message_not_by_the_case_id(case_set: CaseSet) -> None:
    request = request_for(case_set, "B3-QC-01", "B")
    renamed = {**request, "case_id": "my-own-case"}
    assert ask(renamed).final_answer == ask(request).final_answer
    assert ask(renamed).case_id == "my-own-case"


def test_skills_change_the_answer_only_when_enabled_and_active() -> None:
    message = "推荐 3 款降噪耳机"
    plain = ask(user(message, skill_enabled=False))
    skilled = ask(user(message, skill_enabled=True, active_skills=["product_recommendation_skill"]))
    unrelated = ask(user(message, skill_enabled=True, active_skills=["travel_guide_skill"]))
    assert skilled.final_answer != plain.final_answer
    assert unrelated.final_answer == plain.final_answer
    assert skilled.metadata["skills_used"] == ["product_recommendation_skill"]


def test_weather_temperatures_come_from_the_intercept() -> None:
    intercepts = [{"tool": "maps_weather", "result": json.dumps(WEATHER, ensure_ascii=False), "is_error": False}]
    for run in range(5):
        trajectory = ask(user("查一下明天北京的天气", run=run, tool_intercepts=intercepts))
        assert trajectory.tool_names() == ["maps_weather"]
        assert "小雨" in trajectory.final_answer
        assert "3" in trajectory.final_answer and "9" in trajectory.final_answer
        assert "15" not in trajectory.final_answer and "25" not in trajectory.final_answer


def test_a_failing_tool_is_reported_not_papered_over() -> None:
    intercepts = [{"tool": "search_flights", "result": '{"error":"upstream timeout","code":504}', "is_error": True}]
    trajectory = ask(user("帮我查一下 5 月 20 号上海到成都的机票", tool_intercepts=intercepts))
    assert trajectory.tool_calls[0].is_error
    assert "抱歉" in trajectory.final_answer and "504" not in trajectory.final_answer


def test_follows_the_conversation_history() -> None:
    history = [
        {"role": "user", "content": "推荐几款笔记本电脑"},
        {"role": "assistant", "content": "好的，给您推荐以下 5 款……"},
        {"role": "user", "content": "不要苹果的"},
        {"role": "assistant", "content": "好的，去掉苹果后……"},
        {"role": "user", "content": "价格不要超过 8000"},
    ]
    answer = ask(
        {"messages": history, "skill_enabled": True, "active_skills": ["product_recommendation_skill"]}
    ).final_answer
    assert "荣耀 MagicBook Pro 16" in answer and "MacBook Air" not in answer


def test_an_unknown_message_gets_a_polite_generic_answer() -> None:
    trajectory = ask(user("帮我写一首关于火星的十四行诗"))
    assert trajectory.tool_calls == ()
    assert trajectory.metadata["topic"] is None
    assert trajectory.final_answer.startswith("抱歉") and "生活助手" in trajectory.final_answer


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "stdin is empty"),
        ("  \n", "stdin is empty"),
        ("推荐 3 款降噪耳机", "stdin is not valid JSON"),
        ('{"messages": "推荐"}'.encode("gbk"), "stdin is not UTF-8"),
        ("[1, 2]", "the agent request must be a JSON object, got list"),
        ('{"case_id": "x"}', "request.messages must be a non-empty list"),
        ('{"messages": [{"role": "user"}]}', "request.messages[0] must be an object with a role"),
        ('{"messages": [{"role": "assistant", "content": "hi"}]}', "request.messages has no user message"),
        ('{"messages": [{"role": "user", "content": "hi"}], "run": -1}', "request.run must be a whole number"),
        (
            '{"messages": [{"role": "user", "content": "hi"}], "tool_intercepts": {}}',
            "request.tool_intercepts must be a list",
        ),
    ],
    ids=[
        "empty",
        "blank",
        "prose",
        "not-utf8",
        "array",
        "no-messages",
        "no-content",
        "no-user-turn",
        "negative-run",
        "bad-intercepts",
    ],
)
def test_unusable_stdin_exits_2_with_a_message(stdin: str | bytes, message: str) -> None:
    proc = run_agent(stdin)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"demo_agent: error: {message}")


# ---------------------------------------------------------------- the regression knob


@pytest.mark.parametrize("group", ["A", "B"])
def test_gate_demo_break_turns_a_passing_case_into_a_failing_one(case_set: CaseSet, group: str) -> None:
    case = case_set.cases["B3-FC-02"]
    request = request_for(case_set, "B3-FC-02", group)
    assert evaluate(case, ask(request)).status is Status.PASS
    broken = evaluate(case, ask(request, GATE_DEMO_BREAK="B3-PC-01, B3-FC-02"))
    assert broken.status is Status.FAIL
    assert [c.id for c in broken.failing()] == ["markdown_table"]


def test_gate_demo_break_leaves_other_cases_alone(case_set: CaseSet) -> None:
    request = request_for(case_set, "B3-QC-02", "A")
    assert ask(request, GATE_DEMO_BREAK="B3-FC-02").final_answer == ask(request).final_answer


def test_every_golden_case_can_be_broken(case_set: CaseSet, monkeypatch: pytest.MonkeyPatch) -> None:
    for case in case_set.select(tags=["golden"]):
        monkeypatch.setenv("GATE_DEMO_BREAK", case.id)
        for group in case.groups:
            trajectory = Trajectory.model_validate(demo_answer(request_for(case_set, case.id, group)))
            status = evaluate(case, trajectory).status
            if status is Status.SKIPPED:
                continue  # no rule constraint applies to this group
            assert status is Status.FAIL, f"{case.id} {group}: the broken answer still {status}"


# ---------------------------------------------------------------- the verdict mix


@pytest.fixture(scope="module")
def recorded() -> list[Trajectory]:
    return read_trajectories(RECORDING)


@pytest.fixture(scope="module")
def metrics(case_set: CaseSet, recorded: list[Trajectory]) -> Metrics:
    return compute(case_set.cases, [evaluate(case_set.cases[t.case_id], t) for t in recorded])


def test_the_recording_covers_every_golden_job(case_set: CaseSet, recorded: list[Trajectory]) -> None:
    config = load_config(ROOT / "gate.yaml")
    golden: list[Case] = case_set.select(tags=config.cases.tags)
    expected = {
        (c.id, g, r) for c in golden if c.runnable for g in config.groups if g in c.groups for r in range(c.repeats)
    }
    assert {(t.case_id, t.group, t.run) for t in recorded} == expected
    assert all("latency_ms" not in t.metadata for t in recorded)


def test_the_demo_meets_every_threshold(metrics: Metrics) -> None:
    thresholds = load_config(ROOT / "gate.yaml").thresholds
    for dimension, groups in metrics.dimensions.items():
        a = groups.get("A")
        if a is not None and a.judged:
            assert at_least(a.case_pass_rate, thresholds.min_a_for(dimension)), (dimension, a.case_pass_rate)
        delta = metrics.delta(dimension)
        if delta is not None:
            assert at_least(delta, thresholds.min_delta_for(dimension)), (dimension, delta)
    explicit = metrics.skill_explicit["B"]
    assert explicit.judged > 0
    assert at_least(explicit.case_pass_rate, thresholds.skill_explicit_min_b)


def test_the_demo_is_honestly_imperfect(metrics: Metrics) -> None:
    blamed = {o.case_id: o.attribution for o in metrics.cases.values() if o.attribution}
    assert Attribution.AGENT in blamed.values()
    assert Attribution.SKILL in blamed.values()
    # The skill-attributed failure is balanced inside its own dimension, not hidden elsewhere.
    assert blamed.get("B3-MC-04") is Attribution.SKILL
    assert blamed.get("B3-MC-05") is Attribution.AGENT
    assert metrics.delta("B3/MC") == 0


def test_skills_make_repeated_runs_more_consistent(case_set: CaseSet, recorded: list[Trajectory]) -> None:
    report = compute_all(case_set.cases, recorded)
    gains = {c.case_id: c for c in report.cases if c.gain_status is not None}
    assert gains and all(c.gain_status == "pass" for c in gains.values())
    for case in report.cases:
        for group in case.groups.values():
            assert group.status in (None, "pass"), (case.case_id, group.group, group.overall)
    weather = next(c for c in report.cases if c.case_id == "X-OC-01")
    assert all(g.overall == 1.0 for g in weather.groups.values())  # wording varies, data does not


def _recorder() -> Any:
    return load_script(RECORDER, "record_demo_under_test")


def test_the_recording_matches_a_fresh_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The recorder's jobs answered in process; its own subprocess call is checked on one job."""
    recorder = _recorder()
    monkeypatch.setenv("GATE_DEMO_BREAK", "B3-FC-02")
    assert "GATE_DEMO_BREAK" not in recorder._agent_env()  # a regression knob left set does not leak in
    monkeypatch.delenv("GATE_DEMO_BREAK")
    real = recorder.run_job

    def in_process(job: Any) -> Trajectory:
        record = demo_answer(recorder.build_request(job))
        record.get("metadata", {}).pop("latency_ms", None)
        return Trajectory.model_validate(record)

    monkeypatch.setattr(recorder, "run_job", in_process)
    assert recorder.main(["--out", str(tmp_path / "fresh.jsonl")]) == 0
    assert (tmp_path / "fresh.jsonl").read_bytes() == RECORDING.read_bytes()
    assert recorder.main(["--check", "--out", str(RECORDING)]) == 0
    job = recorder.plan(recorder.load_cases(ROOT / "cases").select(tags=["golden"]), ["B"], 1)[0]
    assert real(job) == in_process(job)


# ---------------------------------------------------------------- noise: a random agent, seeded


def _demo_module() -> Any:
    return load_script(AGENT, "demo_agent_under_test")


def _bad_runs(module: Any, case_ids: list[str], runs: int = 20) -> set[tuple[str, str, int]]:
    return {(cid, g, r) for cid in case_ids for g in "AB" for r in range(runs)
            if module.breaks({"case_id": cid, "group": g, "run": r})}


def test_noise_breaks_runs_at_its_rate_reproducibly(case_set: CaseSet, monkeypatch: pytest.MonkeyPatch) -> None:
    demo = _demo_module()
    ids = sorted(c.id for c in case_set.select(tags=["golden"]))
    monkeypatch.setenv("GATE_DEMO_NOISE", "0.05")
    monkeypatch.setenv("GATE_DEMO_SEED", "7")
    first = _bad_runs(demo, ids)
    assert first == _bad_runs(demo, ids)  # the same seed draws the same runs
    total = len(ids) * 2 * 20
    assert 0.03 * total < len(first) < 0.07 * total
    monkeypatch.setenv("GATE_DEMO_SEED", "8")
    assert _bad_runs(demo, ids) != first
    monkeypatch.setenv("GATE_DEMO_NOISE", "0")
    assert _bad_runs(demo, ids) == set()


def test_flaky_cases_are_the_same_whatever_the_seed(case_set: CaseSet, monkeypatch: pytest.MonkeyPatch) -> None:
    demo = _demo_module()
    ids = sorted(c.id for c in case_set.select(tags=["golden"]))
    monkeypatch.setenv("GATE_DEMO_FLAKY", "0.2:0.5")
    flaky = []
    for seed in ("1", "2"):
        monkeypatch.setenv("GATE_DEMO_SEED", seed)
        flaky.append({cid for cid, _, _ in _bad_runs(demo, ids)})
    assert flaky[0] == flaky[1] and 0 < len(flaky[0]) < len(ids) / 2


def test_worse_cases_fail_more_often(case_set: CaseSet, monkeypatch: pytest.MonkeyPatch) -> None:
    demo = _demo_module()
    monkeypatch.setenv("GATE_DEMO_WORSE", "B3-QC-01,B3-QC-02:0.5")
    bad = _bad_runs(demo, ["B3-QC-01", "B3-QC-02", "B3-QC-03"], runs=40)
    assert {cid for cid, _, _ in bad} == {"B3-QC-01", "B3-QC-02"}
    assert 40 < len(bad) < 120  # about half of 2 × 2 × 40


@pytest.mark.parametrize(("env", "message"), [
    ({"GATE_DEMO_NOISE": "lots"}, "GATE_DEMO_NOISE must be a probability such as 0.05"),
    ({"GATE_DEMO_NOISE": "1.5"}, "GATE_DEMO_NOISE must be between 0 and 1, got '1.5'"),
    ({"GATE_DEMO_FLAKY": "0.1:x"}, "GATE_DEMO_FLAKY must be a probability such as 0.05"),
])
def test_bad_noise_settings_exit_2(case_set: CaseSet, env: dict[str, str], message: str) -> None:
    proc = run_agent(json.dumps(request_for(case_set, "B3-QC-01", "A")), **env)
    assert proc.returncode == 2
    assert message in proc.stderr
