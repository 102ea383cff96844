"""A product named twice under two names ("索尼 WH-1000XM5" and "Sony 1000XM5 头戴式", "声阔 Liberty 4
NC" and "Soundcore Liberty 4 NC"): the list counts it twice, a reader once. Told by the model's Latin
name — a code of letters and digits, or the same model words with one brand word before them — so
two models of one line ("iPhone 16 Pro" and "iPhone 16 Pro Max") stay two."""

from __future__ import annotations

import re
from collections.abc import Sequence

from gate.text.terms import fold

_TOKEN_RE = re.compile(r"[a-z0-9]+")
_CODE_MIN = 5  # "1000xm5", "a7m4x": a model code; "a40" or "x5" could be anything's


def _tokens(name: str) -> tuple[str, ...]:
    return tuple(_TOKEN_RE.findall(fold(name)))


def _codes(tokens: tuple[str, ...]) -> set[str]:
    return {t for t in tokens if len(t) >= _CODE_MIN and re.search(r"[a-z]", t) and re.search(r"\d", t)}


def _model_words(tokens: tuple[str, ...]) -> bool:
    """Enough to name a model: two tokens or more, a digit and a word among them ("14 2024" alone, as
    in 灵耀 14 2024, names none)."""
    return (len(tokens) >= 2 and any(re.search(r"\d", t) for t in tokens)
            and any(re.search(r"[a-z]", t) for t in tokens))


def named_twice(names: Sequence[str]) -> int:
    """How many of ``names`` name a product an earlier one already named: one shares a model code with
    it, or the same model words, one of them with a brand word before them ("soundcore" liberty 4 nc).
    One look-up per name, so a list of any length is read in linear time."""
    codes: set[str] = set()
    wholes: set[tuple[str, ...]] = set()
    tails: set[tuple[str, ...]] = set()  # the model words after a first (brand) word
    twice = 0
    for name in names:
        tokens = _tokens(name)
        tail = tokens[1:]
        whole_ok, tail_ok = _model_words(tokens), _model_words(tail)
        if (_codes(tokens) & codes or (whole_ok and (tokens in wholes or tokens in tails))
                or (tail_ok and tail in wholes)):
            twice += 1
            continue
        codes |= _codes(tokens)
        if whole_ok:
            wholes.add(tokens)
        if tail_ok:
            tails.add(tail)
    return twice
