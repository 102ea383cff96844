"""Length units. 字 counts CJK ideographs only — no punctuation, spaces, Latin letters or digits."""

from __future__ import annotations

import re
from typing import Literal

from gate.lexicon import source
from gate.text.deferred import deferred

Unit = Literal["zi", "chars", "mixed", "words"]

# An ideograph (the lexicon's ``han``): CJK Unified Ideographs, Extension A, Compatibility
# Ideographs and the supplementary planes.
_ideograph_re = deferred(lambda: source("han"))
_latin_run_re = deferred(lambda: rf"(?:[A-Za-z0-9]|{source('full_width_alnum')})+")
# A word from its first letter or digit to the end of its token: one match per token that holds one.
# Not "\S*[^\W_]\S*", which from every start in a token of punctuation ("!!!…") reads the token to
# its end before failing: quadratic in the token's length.
_WORD_RE = re.compile(r"[^\W_]\S*")

UNIT_NAMES: dict[str, str] = {"zi": "字", "chars": "characters", "mixed": "units", "words": "words"}


def count_zi(text: str) -> int:
    """CJK ideographs in ``text``."""
    return len(_ideograph_re().findall(text))


def count(text: str, unit: Unit) -> int:
    """Length of ``text`` in ``unit``.

    ``chars``: every character of the trimmed text; ``mixed``: ideographs plus each run of Latin
    letters/digits as one; ``words``: whitespace-separated tokens that hold a letter or digit.
    """
    if unit == "zi":
        return count_zi(text)
    if unit == "chars":
        return len(text.strip())
    if unit == "mixed":
        return count_zi(text) + len(_latin_run_re().findall(text))
    return len(_WORD_RE.findall(text))
