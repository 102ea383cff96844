"""The canonical form terms are matched on: what it removes, composes and keeps, and where each of its
characters came from."""

from __future__ import annotations

import random
import unicodedata

import pytest

from gate.text.canonical import _decorates, canonical, nfkc, removed, visible


@pytest.mark.parametrize(("text", "form"), [
    ("Ｓ\u200eＯ\U000e0100ny\x00", "sony"),             # width, case, ignorables, NUL
    ("Nestle\u0301", "nestlé"),                          # composed over the whole text
    ("ㄱㅏ", "가"),                                       # compatibility jamo compose across characters
    ("İ", "i"),                                          # casefolding leaves a dot above on a Latin letter
    ("x\u0332y\u20dd", "xy"),                             # leftover marks on Latin letters decorate
    ("行\u0336李 \u0332", "行李 "),                        # and on CJK or on a space
    ("a\tb\nc", "a\tb\nc"),                               # whitespace controls stay: they separate words
])
def test_canonical_form(text: str, form: str) -> None:
    assert canonical(text).text == form


def test_marks_of_scripts_that_spell_with_them_stay() -> None:
    for word in ["हिंदी", "مُحَمَّد", "ภาษาไทย", "שָׁלוֹם"]:
        assert canonical(word).text == unicodedata.normalize("NFC", word)


def test_each_character_traces_back_to_what_it_came_from() -> None:
    form = canonical("\u200eﬁne e\u0301\u0332")  # a ligature comes apart, a letter and its marks compose
    assert form.text == "fine é"
    assert [form.original(index, index + 1) for index in range(len(form.text))] == [
        (1, 2), (1, 2), (2, 3), (3, 4), (4, 5), (5, 8)]
    assert canonical("plain").original(1, 3) == (1, 3)


def test_a_long_run_of_marks_is_normalised_thirty_at_a_time() -> None:
    # Stream-Safe Text Format: the normaliser reorders a run of marks by insertion, quadratic over one
    # long run; cut after 30 marks, each piece is ordered on its own.
    text = "क" + "\u0301\u0316" * 20
    assert canonical(text).text == nfkc(text[:31]) + nfkc(text[31:])


def test_visible_names_what_draws_nothing() -> None:
    assert visible("S\u200eo\x00n\U000e0041y\u0332") == "S[U+200E]o[U+0000]n[U+E0041]y\u0332"
    assert visible("\u200b" * 100) == "[U+200B]" * 9 + "[U+200B…"


# Letters, marks of several classes, pairs that compose across starters (Hangul jamo, Oriya and
# Kannada vowel signs, kana voicing), compatibility forms, ignorables, casefolds that come apart.
_POOL = [*"aeoAEOsny ", "\u0301", "\u0316", "\u0332", "\u0308", "\u0327", "\u0345", "\u20dd", "\u1100", "\u1161",
         "\u11a8", "\uac00", "\u3131", "\u314f", "\u0b47", "\u0b3e", "\u0b56", "\u0915", "\u093f", "\u0902", "\u0cc6",
         "\u0cc2", "\u0cd5", "\u3099", "\u304b", "\uff76", "\uff9e", "\u0344", "\u0f73", "\u0f71", "\u0f72", "\u05b4",
         "\u05d0", "\u200e", "\u034f", "\ufe0f", "\x00", "\u2066", "\ufb01", "\uff33", "\u0130", "\u01f0", "\u017f",
         "\u00df", "\u03a3"]


def _whole_text(text: str) -> str:
    """The canonical form the slow way: every step over the whole text at once."""
    normal = nfkc(nfkc("".join(char for char in text if not removed(char))).casefold())
    kept, decorated = [], True
    for char in normal:
        if removed(char):
            continue
        if unicodedata.category(char).startswith("M"):
            if unicodedata.category(char) != "Mc" and decorated:
                continue
        else:
            decorated = _decorates(char)
        kept.append(char)
    return "".join(kept)


def test_normalising_in_stretches_is_normalising_the_whole_text() -> None:
    rng = random.Random(15)
    texts = ["".join(rng.choice(_POOL) for _ in range(rng.randint(1, 8))) for _ in range(10_000)]
    assert [text for text in texts if canonical(text).text != _whole_text(text)] == []
