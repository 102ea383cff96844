"""Consistency metrics of the X suite: field extraction, mode frequency, gain, degradation curve."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, get_args

import pytest

from gate.case import Case, Consistency, ConsistencyBounds
from gate.cases.loader import load_cases
from gate.scoring.consistency import CurvePolicy, compute_all, degradation_curve
from gate.scoring.fields import ConsistencyField, extract, mode_frequency
from gate.scoring.repeats import CaseConsistency, GroupConsistency, case_consistency, level
from gate.trajectory import Group, ToolCall, Trajectory
from tests.casefiles import repo_cases

CASES_X = Path(__file__).resolve().parents[2] / "cases" / "x"

FORECAST = (
    '{"city":"北京","date":"2026-04-08","condition":"晴","temp_low":15,"temp_high":25,'
    '"wind":"南风 2 级","humidity":30,"aqi":58}'
)
WEATHER_ANSWERS = [
    "明天（4 月 8 日）北京晴，气温 15～25°C，南风 2 级。",
    "北京明天天气晴朗，最低 15℃，最高 25℃，风力 2 级。",
    "明天北京晴，15-25°C，空气质量良。",
    "明天北京：晴，15 到 25 度，南风 2 级。",
    "明天北京晴，气温 15～26°C，南风 2 级。",  # the outlier run
]


def case(
    case_id: str = "X-OC-01",
    fields: tuple[str, ...] = ("tool_sequence", "numbers"),
    threshold: tuple[float, float] | None = (0.9, 0.8),
    gain: tuple[float, float] | None = None,
    difficulty: str = "easy",
) -> Case:
    consistency: dict[str, Any] = {"fields": list(fields)}
    if threshold is not None:
        consistency["threshold"] = {"pass": threshold[0], "fail": threshold[1]}
    if gain is not None:
        consistency["gain"] = {"pass": gain[0], "fail": gain[1]}
    return Case.model_validate({
        "id": case_id, "suite": "X", "dimension": case_id.split("-")[1], "title": case_id,
        "difficulty": difficulty, "scoring": "auto", "repeats": 5,
        "input": {"messages": [{"role": "user", "content": "查一下明天北京的天气"}]},
        "groups": {"A": {"skill_enabled": False}, "B": {"skill_enabled": True}},
        "consistency": consistency,
        "examples": {"pass": [{"final_answer": "x"}], "fail": [{"final_answer": "y", "fails": ["c"]}]},
    })


def weather_run(answer: str, run: int, group: Group = "A", case_id: str = "X-OC-01") -> Trajectory:
    call = ToolCall(name="maps_weather", args={"city": "北京"}, result=FORECAST)
    return Trajectory(case_id=case_id, group=group, run=run, final_answer=answer, tool_calls=(call,))


def runs(answers: list[str], group: Group = "A", case_id: str = "X-SD-01") -> list[Trajectory]:
    return [Trajectory(case_id=case_id, group=group, run=i, final_answer=a) for i, a in enumerate(answers)]


def flights(count: int, style: str = "ol") -> str:
    rows = [("国航 CA925", 2680), ("全日空 NH964", 3150), ("春秋航空 9C8515", 1460),
            ("日航 JL020", 3080), ("东航 MU5183", 2350)][:count]
    if style == "table":
        body = "\n".join(f"| {name} | 约 {price} 元 |" for name, price in rows)
        return f"6 月 10 日北京→东京：\n\n| 航班 | 价格 |\n| --- | --- |\n{body}"
    lines = "\n".join(f"{i}. **{name}**：约 {price} 元/人" for i, (name, price) in enumerate(rows, 1))
    return f"为你找到以下航班：\n\n{lines}"


# ---------------------------------------------------------------- extraction


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("明天（4 月 8 日）北京晴，气温 15～25°C，南风 2 级。", "15,25"),
        ("最低 15℃，最高 25℃", "15,25"),
        ("15°C - 25°C", "15,25"),
        ("15 到 25 度", "15,25"),
        ("-3~5℃，北风 4 级", "-3,5"),
        ("零下 3 度到 5 度", "-3,5"),
        ("气温 １５～２５℃", "15,25"),
        ("白天 25°C，夜间 15°C，体感 25 度", "15,25"),
        ("晴，15-25", "15,25"),  # no unit: every number
        ("约 1,299 元，续航 30 小时", "30,1299"),
        ("明天晴。", ""),
        ("明天十五到二十五度，后天零下三度", "-3,15,25"),  # Chinese numerals
        ("白天二十三摄氏度，气温一度降到零下五度", "-5,23"),  # 一度 "at one point" is no temperature
        ("零下一度", "-1"),
    ],
)
def test_numbers_prefers_temperatures(answer: str, expected: str) -> None:
    assert extract("numbers", Trajectory(case_id="c", group="A", run=0, final_answer=answer)) == expected


def test_tool_sequence_and_answer_fields() -> None:
    run = Trajectory(
        case_id="c", group="A", run=0, final_answer="  明天北京  晴\n\nＯＫ ",
        tool_calls=(ToolCall(name="maps_text_search"), ToolCall(name="maps_weather")),
    )
    assert extract("tool_sequence", run) == "maps_text_search>maps_weather"
    assert extract("answer", run) == "明天北京 晴 ok"
    assert extract("tool_sequence", runs(["无工具"])[0]) == ""


def test_a_retried_or_duplicated_call_is_one_step_of_the_sequence() -> None:
    def sequence(*calls: ToolCall) -> str:
        return extract("tool_sequence", Trajectory(case_id="c", group="A", run=0, final_answer="", tool_calls=calls))

    search, weather = ToolCall(name="maps_text_search", args={"q": "故宫"}), ToolCall(name="maps_weather", args={"city": "北京"})
    timeout = ToolCall(name="maps_weather", args={"city": "北京"}, is_error=True)
    assert sequence(search, timeout, weather) == sequence(search, weather) == "maps_text_search>maps_weather"
    assert sequence(search, search, weather) == "maps_text_search>maps_weather"  # sent twice
    other_city = ToolCall(name="maps_weather", args={"city": "上海"})
    assert sequence(weather, other_city) == "maps_weather>maps_weather"  # two questions, two steps


def test_item_count_reads_the_main_list() -> None:
    assert extract("item_count", runs([flights(3)])[0]) == "3"
    assert extract("item_count", runs([flights(5, "table")])[0]) == "5"


def structure(answer: str) -> str:
    return extract("structure", Trajectory(case_id="c", group="A", run=0, final_answer=answer))


def test_same_shape_with_other_words_has_the_same_signature() -> None:
    headphones = "为您推荐几款降噪耳机：\n\n1. **索尼 WH-1000XM5**：约 1899 元\n2. **Bose QC45**：约 1599 元\n3. **华为 FreeBuds Pro 4**：约 1299 元"
    hotpot = "成都火锅店推荐如下，都很地道。\n\n1. **小龙坎**：春熙路，人均 110 元\n2. **蜀大侠**：宽窄巷子，人均 120 元\n3. **大龙燚**：玉林路，人均 100 元"
    assert structure(headphones) == structure(hotpot) == "p ol[2-5]"
    # 3 vs 4 options is the same shape; the exact count is the item_count field's business.
    assert structure(flights(3)) == structure(flights(4))


def test_list_table_headings_and_sizes_differ() -> None:
    assert structure(flights(3)) != structure(flights(3, "table"))
    assert structure(flights(3, "table")) == "p table[2x2-5]"
    assert structure(flights(1)) != structure(flights(3))
    assert structure("## 机票\n- 去程\n\n## 日程\n- 第 1 天") != structure("### 机票\n- 去程\n\n### 日程\n- 第 1 天")
    assert structure("- 鱼尾狮\n- 圣淘沙") != structure("1. 鱼尾狮\n2. 圣淘沙")


def test_prose_paragraphs_count_as_one_block() -> None:
    assert structure("第一段。\n\n第二段。\n\n第三段。") == structure("只有一段。") == "p"
    assert structure("") == "empty"
    assert structure('[{"name": "A"}, {"name": "B"}]') == "json:array[2-5]"


def test_fields_of_the_case_model_are_the_extractable_ones() -> None:
    declared = get_args(Consistency.model_fields["fields"].annotation)[0]
    assert set(get_args(declared)) == set(get_args(ConsistencyField))


# ---------------------------------------------------------------- frequency and per case


def test_mode_frequency() -> None:
    assert mode_frequency(["15,25"] * 4 + ["15,26"]) == 0.8
    assert mode_frequency(["a", "b", "a"]) == pytest.approx(2 / 3)
    assert mode_frequency([]) is None


def test_one_outlier_temperature_in_five_runs() -> None:
    result = case_consistency(case(), [weather_run(a, i) for i, a in enumerate(WEATHER_ANSWERS)])
    group = result.groups["A"]
    fields = {f.field: f for f in group.fields}
    assert fields["numbers"].frequency == 0.8
    assert fields["numbers"].mode == "15,25"
    assert fields["numbers"].distinct == 2
    assert fields["tool_sequence"].frequency == 1.0
    assert (group.runs, group.errors, group.overall, group.status) == (5, 0, 0.9, "pass")


def test_numbers_alone_at_the_fail_line_is_a_warning() -> None:
    only_numbers = case(fields=("numbers",), threshold=(0.9, 0.8))
    result = case_consistency(only_numbers, [weather_run(a, i) for i, a in enumerate(WEATHER_ANSWERS)])
    assert (result.groups["A"].overall, result.groups["A"].status) == (0.8, "warn")
    three_ways = [*WEATHER_ANSWERS[:3], "明天 16～26°C", "明天 14～24°C"]
    result = case_consistency(only_numbers, [weather_run(a, i) for i, a in enumerate(three_ways)])
    assert (result.groups["A"].overall, result.groups["A"].status) == (0.6, "fail")


def test_an_errored_run_is_an_inconsistent_output() -> None:
    # Mode frequency over all five outputs: four agree, the timeout is a fifth, different output.
    good = [weather_run(a, i) for i, a in enumerate(WEATHER_ANSWERS[:4])]
    failed = Trajectory(case_id="X-OC-01", group="A", run=4, error="agent timed out after 60 s")
    group = case_consistency(case(), [*good, failed]).groups["A"]
    assert (group.runs, group.errors, group.overall) == (4, 1, 0.8)


def test_a_slash_range_and_fahrenheit_do_not_change_the_temperatures() -> None:
    only_numbers = case(fields=("numbers",), threshold=(0.9, 0.8))
    answers = ["明天北京晴，15/25℃。", "明天晴，15～25°C（约 59～77°F）。", "晴天，气温 15-25°C。"]
    result = case_consistency(only_numbers, [weather_run(a, i) for i, a in enumerate(answers)])
    assert result.groups["A"].overall == 1.0


def test_fewer_than_two_runs_decide_nothing() -> None:
    one = weather_run(WEATHER_ANSWERS[0], 0)
    errors = [Trajectory(case_id="X-OC-01", group="A", run=i, error="HTTP 502") for i in (1, 2)]
    b_runs = [weather_run(a, i, "B") for i, a in enumerate(WEATHER_ANSWERS[:4])]
    result = case_consistency(case(gain=(0.15, 0.05)), [one, *errors, *b_runs])
    group = result.groups["A"]
    assert (group.runs, group.errors, group.overall, group.status) == (1, 2, None, None)
    assert all(f.frequency is None for f in group.fields)
    assert result.groups["B"].overall == 1.0
    assert (result.gain, result.gain_status) == (None, None)


def test_skill_stability_gain_is_b_minus_a() -> None:
    sd = case("X-SD-01", fields=("structure", "item_count"), threshold=None, gain=(0.15, 0.05))
    group_a = runs([flights(1), flights(5), flights(3, "table"), flights(3), flights(2)], "A")
    group_b = runs([flights(3), flights(3), flights(3), flights(2), flights(3)], "B")
    result = case_consistency(sd, [*group_a, *group_b])
    # A: structure p ol[1] / p ol[2-5] ×3 / p table → 0.6; counts 1,5,3,3,2 → 0.4.
    assert result.overall("A") == 0.5
    # B: structure all p ol[2-5] → 1.0; counts 3,3,3,2,3 → 0.8.
    assert result.overall("B") == 0.9
    assert (result.gain, result.gain_status) == (0.4, "pass")
    assert result.groups["A"].status is None  # no per-group threshold on an SD case


def test_gain_below_the_fail_line() -> None:
    sd = case("X-SD-03", fields=("item_count",), threshold=None, gain=(0.15, 0.0))
    same = [flights(3)] * 4 + [flights(5)]
    result = case_consistency(sd, [*runs(same, "A", "X-SD-03"), *runs([flights(2), *same[1:]], "B", "X-SD-03")])
    assert (result.gain, result.gain_status) == (-0.2, "fail")


def test_level_boundaries() -> None:
    bounds = ConsistencyBounds.model_validate({"pass": 0.15, "fail": 0.05})
    assert [level(v, bounds) for v in (0.15, 0.1, 0.05, 0.0499)] == ["pass", "warn", "warn", "fail"]
    assert level(None, bounds) is None
    assert level(0.5, None) is None


def test_a_case_without_consistency_settings_is_refused() -> None:
    plain = case().model_copy(update={"consistency": None})
    with pytest.raises(ValueError, match="declares no consistency fields"):
        case_consistency(plain, [])


# ---------------------------------------------------------------- degradation curve


def measured(case_id: str, a: float | None, b: float | None) -> CaseConsistency:
    groups = {
        g: GroupConsistency(group=g, runs=5, errors=0, fields=(), overall=v, status=None)
        for g, v in (("A", a), ("B", b)) if v is not None
    }
    return CaseConsistency(case_id=case_id, groups=groups, gain=None, gain_status=None)


CD_CASES = {
    "X-CD-01": case("X-CD-01", difficulty="easy"),
    "X-CD-02": case("X-CD-02", difficulty="medium"),
    "X-CD-03": case("X-CD-03", difficulty="hard"),
}
CURVE = Case.model_validate({
    "id": "X-CD-04", "suite": "X", "dimension": "CD", "title": "一致性衰减曲线", "difficulty": "hard",
    "scoring": "auto+human", "aggregate": ["X-CD-01", "X-CD-02", "X-CD-03"],
    "groups": {"A": {"skill_enabled": False}, "B": {"skill_enabled": True}},
})


def curve_of(a: list[float | None], b: list[float | None], policy: CurvePolicy | None = None) -> Any:
    per_case = {cid: measured(cid, x, y) for cid, x, y in zip(CD_CASES, a, b, strict=True)}
    return degradation_curve(CURVE, CD_CASES, per_case, policy)


def test_smooth_curve_where_b_decays_less() -> None:
    curve = curve_of([1.0, 0.8, 0.6], [1.0, 0.9, 0.8])
    assert [(p.case_id, p.difficulty, p.a, p.b) for p in curve.points] == [
        ("X-CD-01", "easy", 1.0, 1.0), ("X-CD-02", "medium", 0.8, 0.9), ("X-CD-03", "hard", 0.6, 0.8),
    ]
    assert (curve.smooth, curve.breaks) == (True, ())
    assert (curve.decay_a, curve.decay_b, curve.b_decays_less) == (0.4, 0.2, True)
    assert (curve.hardest_gain, curve.status) == (0.2, "pass")


def test_abrupt_drop_and_rise_break_the_curve() -> None:
    curve = curve_of([1.0, 0.5, 0.6], [1.0, 0.9, 0.8])
    assert curve.smooth is False
    assert curve.breaks == ("A: X-CD-01→X-CD-02 drops 0.50 > 0.35", "A: X-CD-02→X-CD-03 rises 0.10 > 0.05")
    assert curve.status == "fail"
    assert curve_of([1.0, 0.5, 0.6], [None] * 3, CurvePolicy(max_rise=0.1, max_drop=0.5)).smooth is True


def test_b_without_gain_on_the_hardest_case_fails() -> None:
    curve = curve_of([0.9, 0.8, 0.7], [0.9, 0.8, 0.7])
    assert (curve.smooth, curve.hardest_gain, curve.b_decays_less, curve.status) == (True, 0.0, False, "fail")


def test_curve_with_group_a_only_is_undecided() -> None:
    curve = curve_of([1.0, None, 0.8], [None, None, None])
    assert [p.a for p in curve.points] == [1.0, None, 0.8]
    assert (curve.smooth, curve.decay_a, curve.decay_b, curve.b_decays_less, curve.status) == (
        True, 0.2, None, None, None,
    )


# ---------------------------------------------------------------- the whole report


def test_compute_all_on_the_x_cases_is_deterministic() -> None:
    cases = load_cases(CASES_X).cases
    trajectories = [
        *[weather_run(a, i, "A", "X-CD-01") for i, a in enumerate(WEATHER_ANSWERS)],
        *[weather_run(a, i, "A", "X-OC-01") for i, a in enumerate(WEATHER_ANSWERS)],
        *[weather_run(WEATHER_ANSWERS[0], i, "B", "X-OC-01") for i in range(5)],
        *runs(["第一天……", "第一天……", "## 行程\n- 第 1 天", "只有机票", "第一天……"], "A", "X-CD-03"),
        Trajectory(case_id="X-SA-01", group="A", run=0, final_answer="为您推荐……"),  # not repeated
    ]
    shuffled = list(trajectories)
    random.Random(7).shuffle(shuffled)
    report = compute_all(cases, trajectories)
    document = report.as_json()
    assert json.dumps(document, ensure_ascii=False) == json.dumps(compute_all(cases, shuffled).as_json(), ensure_ascii=False)
    assert list(document["cases"]) == ["X-CD-01", "X-CD-03", "X-OC-01"]  # type: ignore[call-overload]
    oc = document["cases"]["X-OC-01"]  # type: ignore[index]
    assert (oc["groups"]["A"]["overall"], oc["groups"]["B"]["overall"], oc["gain"]) == (0.9, 1.0, 0.1)
    assert list(oc["groups"]["A"]["fields"]) == ["numbers", "tool_sequence"]
    curve = document["curves"]["X-CD-04"]  # type: ignore[index]
    assert [(p["case_id"], p["A"]) for p in curve["points"]] == [
        ("X-CD-01", 0.9), ("X-CD-02", None), ("X-CD-03", 0.9),  # X-CD-03: no tools 1.0, shape 0.8
    ]
    assert curve["status"] is None  # the seed runs X-CD-01..03 without a skill group


def test_report_values_are_rounded_to_four_places() -> None:
    three = case("X-FC-01", fields=("structure",), threshold=(0.9, 0.5))
    answers = [flights(3), flights(3), flights(3, "table")]
    report = compute_all({"X-FC-01": three}, runs(answers, "A", "X-FC-01"))
    group = report.as_json()["cases"]["X-FC-01"]["groups"]["A"]  # type: ignore[index]
    assert (group["overall"], group["status"], group["fields"]["structure"]["distinct"]) == (0.6667, "warn", 2)


def test_the_curve_is_undecided_until_the_hardest_task_ran_in_both_groups() -> None:
    from gate.scoring.consistency import degradation_curve

    cases = {cid: case(case_id=cid) for cid in ("X-CD-01", "X-CD-02", "X-CD-03")}
    aggregate = case(case_id="X-CD-04").model_copy(update={"aggregate": ("X-CD-01", "X-CD-02", "X-CD-03")})
    runs = [weather_run(a, i, group=g, case_id="X-CD-01") for g in "AB" for i, a in enumerate(WEATHER_ANSWERS)]
    runs += [weather_run(a, i, case_id=cid) for cid in ("X-CD-02", "X-CD-03") for i, a in enumerate(WEATHER_ANSWERS)]
    per_case = {cid: case_consistency(c, [r for r in runs if r.case_id == cid]) for cid, c in cases.items()}
    curve = degradation_curve(aggregate, cases, per_case)
    assert curve.hardest_gain is None and curve.status is None


# ---------------------------------------------------------------- lines decided on evidence


def test_a_fail_line_needs_the_whole_interval_below_it() -> None:
    bounds = ConsistencyBounds.model_validate({"pass": 0.9, "fail": 0.8})
    assert level(0.6, bounds) == "fail"  # the observed value alone
    assert level(0.6, bounds, upper=0.88) == "warn"  # 3 of 5 runs: the interval reaches the line
    assert level(0.4, bounds, upper=0.77) == "fail"
    assert level(0.95, bounds, upper=1.0) == "pass"


def test_one_unlucky_run_in_five_is_not_an_inconsistent_agent() -> None:
    answers = [*WEATHER_ANSWERS[:1] * 2, "完全不同的回答：明天见。", *WEATHER_ANSWERS[:1] * 2]
    runs = [weather_run(a, i) for i, a in enumerate(answers)]
    strict = case_consistency(case(fields=("numbers",), threshold=(0.95, 0.9)), runs)
    noisy = case_consistency(case(fields=("numbers",), threshold=(0.95, 0.9)), runs, confidence=0.95)
    assert strict.groups["A"].overall == noisy.groups["A"].overall
    assert (strict.groups["A"].status, noisy.groups["A"].status) == ("fail", "warn")


def test_curve_steps_within_the_runs_noise_warn_instead_of_failing() -> None:
    per_case = {cid: measured(cid, x, None) for cid, x in zip(CD_CASES, [1.0, 0.6, 0.6], strict=True)}
    literal = degradation_curve(CURVE, CD_CASES, per_case)
    weighed = degradation_curve(CURVE, CD_CASES, per_case, confidence=0.95)
    assert (literal.smooth, literal.status) == (False, "fail")
    assert (weighed.smooth, weighed.status) == (True, "warn")
    assert weighed.breaks == ("A: X-CD-01→X-CD-02 drops 0.40 > 0.35 — within the noise of the runs",)


def test_a_missing_b_gain_fails_only_when_the_runs_show_it() -> None:
    per_case = {cid: measured(cid, x, y) for cid, x, y in zip(CD_CASES, [1.0, 0.8, 0.8], [1.0, 0.8, 0.8], strict=True)}
    assert degradation_curve(CURVE, CD_CASES, per_case).status == "fail"
    assert degradation_curve(CURVE, CD_CASES, per_case, confidence=0.95).status == "warn"


def test_fields_read_while_judging_are_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The consistency pass reads each run's fields from the parse its checkers made, once."""
    from gate.pipeline.stages import consistency_report, judge
    from gate.scoring import readings as readings_mod

    cases = repo_cases().cases
    case = next(c for c in cases.values() if c.consistency is not None)
    runs = [Trajectory(case_id=case.id, group="A", run=run, final_answer=f"1. 甲\n2. 乙\n3. 丙{run}") for run in range(4)]
    calls: list[str] = []
    real = readings_mod.read_fields
    monkeypatch.setattr(readings_mod, "read_fields", lambda *args: calls.append("read") or real(*args))
    kept = readings_mod.Readings()
    judge(cases, runs, None, None, kept)
    shared = consistency_report(cases, runs, readings=kept)
    assert len(calls) == len(runs)
    assert shared is not None and shared == consistency_report(cases, runs)
    assert len(calls) == 2 * len(runs)  # read anew without them
