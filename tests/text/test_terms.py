"""Term matching: folded case and width, whole Latin words, aliases, regular expressions."""

from __future__ import annotations

import pytest

from gate.text.terms import expand, find, fold


def _found(text: str, terms: list[str] = [], groups: list[str] = []) -> list[str]:  # noqa: B006
    # Hits quote the answer as written (ＳＯＮＹ, not the folded 'sony').
    return [hit.matched for hit in find(text, expand(terms, groups))]


def test_fold_width_case_and_zero_width() -> None:
    assert fold("ＳＯＮＹ\u200b Ｘ") == "sony x"


@pytest.mark.parametrize(
    ("text", "group", "matched"),
    [
        ("推荐 ＳＯＮＹ WH-1000XM5", "sony", ["ＳＯＮＹ", "WH-1000XM5"]),
        ("WH1000XM4 很好", "sony", ["WH1000XM4"]),
        ("Redmi K70 和红米 Note", "xiaomi", ["Redmi", "红米"]),
        ("联想拯救者 Y9000P", "gaming_laptop", ["拯救者", "Y9000P"]),
        ("华硕ROG幻16", "gaming_laptop", ["ROG", "幻16"]),
        ("the progress is good", "gaming_laptop", []),
        ("Scarf and Titanium", "gaming_laptop", []),
        ("出差作战神器", "gaming_laptop", []),
        ("神舟战神 Z8", "gaming_laptop", ["神舟战神"]),
        ("战神S8", "gaming_laptop", ["战神S8"]),
        ("澳门 Macau 旅行", "apple", []),
        ("Mac 电脑和 MacBook", "apple", ["Mac", "MacBook"]),
        ("iPhone16", "apple", ["iPhone"]),
    ],
)
def test_alias_groups(text: str, group: str, matched: list[str]) -> None:
    assert _found(text, groups=[group]) == matched


def test_overlapping_aliases_reported_once() -> None:
    assert _found("外星人 Alienware", groups=["alienware", "gaming_laptop"]) == ["外星人", "Alienware"]


def test_regex_term_keeps_its_escapes() -> None:
    assert _found("价格 abc", terms=[r"re:\S+"]) == ["价格", "abc"]


def test_regex_that_matches_nothing_finds_nothing() -> None:
    assert _found("abc", terms=["re:x*"]) == []


def test_space_in_a_term_matches_hyphen_or_nothing() -> None:
    assert _found("hotpot 和 hot-pot", groups=["hotpot"]) == ["hotpot", "hot-pot"]


def test_the_game_honor_of_kings_is_not_the_honor_brand() -> None:
    wanted = expand([], ["honor"])
    assert [hit.matched for hit in find("玩 Honor of Kings（王者荣耀）、原神都稳", wanted)] == []
    assert [hit.matched for hit in find("HONOR Magic6 Pro 和荣耀 200", wanted)] == ["HONOR", "荣耀"]


@pytest.mark.parametrize(("text", "terms", "groups", "matched"), [
    ("网红打 卡点", ["打卡"], [], ["打 卡"]),                     # an ASCII space inside a Chinese word
    ("打\u3000卡", ["打卡"], [], ["打\u3000卡"]),                 # a full-width space
    ("火\n锅的变体", ["火锅"], [], ["火\n锅"]),                    # a hard-wrapped line
    ("索·尼的耳机", [], ["sony"], ["索·尼"]),                     # a middle dot
    ("S o n y 也不错", [], ["sony"], ["S o n y"]),               # every letter apart
    ("S-O-N-Y", [], ["sony"], ["S-O-N-Y"]),
    ("S0NY 旗舰", [], ["sony"], ["S0NY"]),                        # a digit for a letter
    ("App1e 笔记本", [], ["apple"], ["App1e"]),
])
def test_a_disguised_term_is_still_the_term(text: str, terms: list[str], groups: list[str], matched: list[str]) -> None:
    assert [hit.matched for hit in find(text, expand(terms, groups))] == matched


@pytest.mark.parametrize(("text", "groups"), [
    ("Tesla's car", ["gaming_laptop"]),   # one gap is no spaced-out "Scar"
    ("also nylon", ["sony"]),
    ("打了个电话，卡里没钱", []),          # two words, not 打卡 split
    ("最高法院的大法官", ["sony"]),
])
def test_ordinary_words_are_not_disguised_terms(text: str, groups: list[str]) -> None:
    terms = ["打卡"] if not groups else []
    assert find(text, expand(terms, groups)) == []
