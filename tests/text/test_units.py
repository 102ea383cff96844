"""Length units: 字 is ideographs only; chars, mixed and words are explicit."""

from __future__ import annotations

import pytest

from gate.text.units import count

_TEXT = "京都：千年古都！Kyoto 2025，樱花……"


@pytest.mark.parametrize(
    ("unit", "expected"),
    [("zi", 8), ("chars", 23), ("mixed", 10), ("words", 2)],
)
def test_each_unit(unit: str, expected: int) -> None:
    assert count(_TEXT, unit) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("，。！？、；：“”（）《》……", 0),
        ("ＳＯＮＹ 索尼", 2),
        ("𠀀𠀁", 2),  # supplementary-plane ideographs
        ("豈", 1),  # a compatibility ideograph
        ("ｶﾀｶﾅ かな", 0),  # kana are not 字
        ("1️⃣ 第一家", 3),
    ],
)
def test_zi_counts_ideographs_only(text: str, expected: int) -> None:
    assert count(text, "zi") == expected


def test_chars_ignore_surrounding_whitespace_only() -> None:
    assert count("  a b\n", "chars") == 3


def test_mixed_counts_full_width_latin_runs_as_one() -> None:
    assert count("ＳＯＮＹ 索尼 WH-1000XM5", "mixed") == 2 + 3
