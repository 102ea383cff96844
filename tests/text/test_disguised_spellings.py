"""Forbidden terms spelt with invisible characters, decorating marks or decomposed letters are still
the term: they are matched on the canonical form of the whole text, and reported as written."""

from __future__ import annotations

import unicodedata

import pytest

from gate.text.terms import expand, find

SONY = expand([], ["sony"])

# (spelling as an agent may write it, the terms it must be found by). Each got past the terms checkers
# when the text was folded a character at a time with only the zero-width space family removed.
DISGUISED = {
    "left-to-right-mark": ("S\u200eony", SONY),
    "right-to-left-mark": ("So\u200fny", SONY),
    "combining-grapheme-joiner": ("So\u034fny", SONY),
    "variation-selector-16": ("Son\ufe0fy", SONY),
    "variation-selector-supplement": ("S\U000e0100o\U000e0100ny", SONY),
    "tag-characters": ("S\U000e0001\U000e006fo\U000e007fny", SONY),
    "bidi-isolates": ("S\u2066o\u2069n\u2068\u2069y", SONY),
    "bidi-override": ("S\u202eo\u202cn\u202dY", SONY),
    "bidi-embedding": ("S\u202ao\u202bn\u202cy", SONY),
    "nul": ("Son\x00y", SONY),
    "other-controls": ("S\x07o\x1bny", SONY),
    "mongolian-vowel-separator": ("S\u180eony", SONY),
    "hangul-filler": ("S\u3164o\u115fny", SONY),
    "invisible-operators": ("S\u2062o\u2064ny", SONY),
    "combining-underline": ("S\u0332o\u0332n\u0332y\u0332", SONY),
    "combining-double-low-line": ("S\u0333o\u0333n\u0333y\u0333", SONY),
    "strike-through-overlay": ("S\u0336o\u0336n\u0336y\u0336", SONY),
    "enclosing-circle": ("S\u20ddony", SONY),
    "full-width-with-mark": ("ＳＯ\u200eＮＹ", SONY),
    "mixed-case-with-joiner": ("sO\u034fnY", SONY),
    "cjk-with-joiner": ("索\u034f尼", SONY),
    "nfd-accent": ("Nestle\u0301", ["Nestlé"]),
    "nfd-accent-upper-case": ("NESTLE\u0301", ["Nestlé"]),
    "nfd-accent-underlined": ("Nestle\u0332\u0301", ["Nestlé"]),
}


@pytest.mark.parametrize(("spelling", "terms"), DISGUISED.values(), ids=DISGUISED.keys())
def test_a_disguised_spelling_is_found_as_written(spelling: str, terms: list[str]) -> None:
    text = f"推荐 {spelling} 的耳机"
    assert [(hit.matched, hit.start) for hit in find(text, terms)] == [(spelling, 3)]


# Caught before the canonical form, and still: zero-width space and joiner, soft hyphen, width, case.
STILL_CAUGHT = {
    "zero-width-space": "S\u200bony", "zero-width-joiner": "So\u200dny", "soft-hyphen": "Son\u00ady",
    "word-joiner": "S\u2060ony", "full-width": "ＳＯＮＹ", "mixed-case": "sOnY", "spaced": "S o n y",
}


@pytest.mark.parametrize("spelling", STILL_CAUGHT.values(), ids=STILL_CAUGHT.keys())
def test_spellings_caught_before_are_still_caught(spelling: str) -> None:
    assert [hit.matched for hit in find(f"选 {spelling}。", SONY)] == [spelling]


def test_a_term_configured_in_any_spelling_is_its_canonical_form() -> None:
    text = "奶粉可选 Nestlé 或 Sony"
    for term, matched in [("Nestle\u0301", "Nestlé"), ("ＮＥＳＴＬÉ", "Nestlé"), ("So\u200eny", "Sony")]:
        assert [hit.matched for hit in find(text, [term])] == [matched]


def test_the_report_quotes_the_original_spelling_at_its_place() -> None:
    text = "A\u200e 好，\u2066S\u0332o\u0332n\u0332y\u0332\u2069 和 Nestle\u0301，还有 ＳＯ\u034fＮＹ。"
    hits = find(text, [*SONY, "Nestlé"])
    assert [hit.matched for hit in hits] == ["S\u0332o\u0332n\u0332y\u0332", "Nestle\u0301", "ＳＯ\u034fＮＹ"]
    assert [text[hit.start : hit.start + len(hit.matched)] for hit in hits] == [hit.matched for hit in hits]
    assert [hit.start for hit in hits] == [6, 18, 29]


# Invisible characters, marks and decomposed letters where no term is: emoji sequences, bidi marks
# around a URL, an underlined heading, accents of other words, a line broken with a soft hyphen.
LEGITIMATE = [
    "家庭出游 👨\u200d👩\u200d👧 很开心 ❤\ufe0f，音质 ★\ufe0e 好",
    "\u2066https://example.com/son\u2069 y 轴",
    "S\u0332u\u0332m\u0332m\u0332a\u0332r\u0332y\u0332：Bose QC Ultra",
    "Café crème, re\u0301sume\u0301 and naïve",
    "Mason\u200eYoung 和 Person\u034fy",
    "so\x00 ny tone",
]


@pytest.mark.parametrize("text", LEGITIMATE)
def test_those_characters_elsewhere_are_no_term(text: str) -> None:
    assert find(text, [*SONY, "Nestlé", "Apple"]) == []


def test_marks_that_spell_a_word_are_not_folded_away() -> None:
    # kana with and without voicing marks are different words; so are Devanagari with and without anusvara
    assert find("カイドの本", ["ガイド"]) == []
    assert [hit.matched for hit in find("ｶﾞｲﾄﾞの本", ["ガイド"])] == ["ｶﾞｲﾄﾞ"]
    hindi = "हिंदी"
    assert find(hindi.replace("\u0902", ""), [hindi]) == []
    assert [hit.matched for hit in find(unicodedata.normalize("NFD", hindi), [hindi])] == [hindi]


def test_homoglyphs_are_not_in_the_canonical_form() -> None:
    # Letters of another script that look alike (Cyrillic Ѕ, о, у) are other letters: not caught.
    assert find("\u0405\u043en\u0443", SONY) == []


ACCENTED = {
    "precomposed-acute": "Sóny", "decomposed-acute": "So\u0301ny", "dot-below": "Ṣony", "cedilla": "Şony",
    "several": "ŠÖÑŸ", "spaced-out": "S ó n y", "with-a-digit": "Ś0ny",
}


@pytest.mark.parametrize("spelling", ACCENTED.values(), ids=ACCENTED.keys())
def test_a_letter_the_term_writes_plain_may_carry_any_accent(spelling: str) -> None:
    assert [hit.matched for hit in find(f"推荐 {spelling}。", SONY)] == [spelling]


def test_a_letter_the_term_writes_accented_must_be_so_written() -> None:
    text = "Nestle、Nèstlé 和 Nestlé"
    assert [hit.matched for hit in find(text, ["Nestlé"])] == ["Nèstlé", "Nestlé"]
    assert [hit.matched for hit in find(text, ["Nestle"])] == ["Nestle", "Nèstlé", "Nestlé"]


def test_an_accented_letter_is_part_of_the_word() -> None:
    # "Mac" is no whole word in "Macáu" or "éMac", as it is none in "Macau"
    assert find("Macáu、éMac 和 Macau", ["Mac"]) == []
    assert [hit.matched for hit in find("Mác 和 Mac", ["Mac"])] == ["Mác", "Mac"]
