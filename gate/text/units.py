"""Length units. 字 counts CJK ideographs only — no punctuation, spaces, Latin letters or digits."""

from __future__ import annotations

import re
from typing import Literal

from gate.text.deferred import deferred

Unit = Literal["zi", "chars", "mixed", "words"]

# CJK Unified Ideographs, Extension A, Compatibility Ideographs and the supplementary planes.
IDEOGRAPH = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_ideograph_re = deferred(f"[{IDEOGRAPH}]")
_LATIN_RUN_RE = re.compile(r"[A-Za-z0-9\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]+")
_WORD_RE = re.compile(r"\S*[^\W_]\S*")

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
        return count_zi(text) + len(_LATIN_RUN_RE.findall(text))
    return len(_WORD_RE.findall(text))
