"""Answers in Traditional Chinese (Taiwan, Hong Kong) are read as their simplified spelling: the
case's terms, section names and a tool's facts match them, and reports quote what was written."""

from __future__ import annotations

from tests.conftest import run_checker


def test_a_forbidden_term_written_in_traditional_characters_is_found_and_quoted_as_written() -> None:
    outcome = run_checker("terms:forbidden", {"terms": ["建议您"]}, "明天 18°C，建議您帶件薄外套。")
    assert outcome.status.value == "fail" and "建議您" in outcome.detail


def test_sections_named_in_traditional_characters_are_the_case_s_sections() -> None:
    answer = "**交通**：包車一天約 NT$ 1,500。\n\n**住宿**：烏布。\n\n**景點**：海神廟。\n\n**美食**：髒鴨餐。\n"
    sections = {"交通": [], "住宿": [], "景点": [], "美食": []}
    assert run_checker("text:sections", {"sections": sections}, answer).status.value == "pass"


def test_a_tool_s_facts_written_back_in_traditional_characters_are_used() -> None:
    calls = [{"name": "search_restaurants", "args": {},
              "result": '[{"name": "鹿回头海鲜楼", "rating": 4.8}, {"name": "椰语海鲜", "rating": 4.6}]'}]
    outcome = run_checker("tools:uses_result", {"tool": "search_restaurants", "fields": ["name"], "min_matches": 2},
                          "推薦：鹿回頭海鮮樓、椰語海鮮。", calls)
    assert outcome.status.value == "pass", outcome.detail


def test_a_simplified_answer_reads_as_before() -> None:
    assert run_checker("terms:forbidden", {"terms": ["建议您"]}, "明天 18°C，注意保暖。").status.value == "pass"
