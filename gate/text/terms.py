"""Term matching: case-insensitive, full-/half-width folded, with the alias groups of :mod:`gate.lexicon`."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from gate import lexicon
from gate.lexicon import traditional
from gate.text.deferred import deferred

_zero_width_re = deferred("[\u200b-\u200d\u2060\ufeff\u00ad]")


def nfkc(text: str) -> str:
    """NFKC, the full-width comma kept a clause break ("、") rather than a thousands separator."""
    # NFKC would turn the full-width comma into ","; a Chinese clause break is not a thousands
    # separator ("人均约 800，非常…" is 800, not 800,…), so it becomes "、" (same length) instead.
    return unicodedata.normalize("NFKC", text.replace("，", "、"))


def fold(text: str) -> str:
    """NFKC (full-width → half-width, "，" → "、"), casefold, zero-width characters removed, and
    traditional characters in their simplified spelling (景點 → 景点: a Taiwan answer's terms are
    the case's terms)."""
    return traditional.fold(_zero_width_re().sub("", nfkc(text)).casefold())


@dataclass(frozen=True)
class Hit:
    """A term found in a text: the term as configured and the text it matched."""

    term: str
    matched: str
    start: int


_LEET = {"o": "0", "i": "1!|", "l": "1|", "e": "3", "a": "4@", "s": "5$", "t": "7", "b": "8", "g": "9"}
"""Digits and signs written for a letter of a Latin name to slip past a filter ("S0NY", "App1e")."""
_SPACED_LETTERS = 4
"""A Latin name this long or longer is also found with one space or separator between its letters
("S o n y", "S-O-N-Y"); a shorter one would be found in ordinary words."""


def _separators() -> str:
    return lexicon.charset("term_separator", also=lexicon.WHITESPACE)


def _cjk_piece(char: str) -> str:
    """A character of a Chinese or Japanese term, and up to two separators or spaces after it: "打 卡",
    "索·尼" and a line break inside "火锅" are the word to a reader."""
    return re.escape(char) + _separators() + "{0,2}"


def _latin_letter(char: str) -> str:
    return f"[{re.escape(char)}{re.escape(_LEET[char])}]" if char in _LEET else re.escape(char)


@lru_cache(maxsize=4096)
def _pattern(term: str) -> re.Pattern[str]:
    if term.startswith("re:"):
        # Casefolding the pattern itself would turn \S into \s; match the folded text ignoring case.
        return re.compile(nfkc(term[3:]), re.IGNORECASE)
    folded = fold(term)
    if re.fullmatch(r"[a-z]+", folded):  # a plain Latin name: with digits for letters, or spaced out
        letters = [_latin_letter(char) for char in folded]
        body = "".join(letters)
        if len(folded) >= _SPACED_LETTERS:  # every letter apart ("S o n y"), not one gap ("'s car")
            body = f"(?:{body}|{(_separators() + '{1,2}').join(letters)})"
    elif folded.isascii():
        body = re.escape(folded).replace(r"\ ", r"[\s\-_]*")
    else:  # CJK, or CJK with Latin: each CJK character may be followed by separators
        parts = [(_cjk_piece(char) if not char.isascii() and index < len(folded) - 1 else re.escape(char))
                 for index, char in enumerate(folded)]
        body = "".join(parts).replace(r"\ ", r"[\s\-_]*")
    # Latin terms match whole words only, so ROG is not found in "progress".
    left = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", folded) else ""
    right = r"(?![a-z])" if re.search(r"[a-z0-9]$", folded) else ""
    return re.compile(left + body + right)


def expand(terms: list[str] | tuple[str, ...], groups: list[str] | tuple[str, ...]) -> list[str]:
    """The plain terms plus every alias of the named groups, without repeats, in order."""
    seen: dict[str, None] = {}
    for term in [*terms, *(alias for group in groups for alias in lexicon.aliases()[group])]:
        seen.setdefault(term, None)
    return list(seen)


class _FoldTable(dict[int, str]):
    """Each character's fold, worked out the first time ``str.translate`` meets the character (a
    hostile answer of many distinct characters starts the table afresh rather than grow it)."""

    LIMIT = 65536

    def __missing__(self, codepoint: int) -> str:
        char = chr(codepoint)
        piece = fold(char)
        if len(piece) != 1:
            _UNEVEN.add(char)
        if len(self) >= self.LIMIT:
            self.clear()
        self[codepoint] = piece
        return piece


_FOLDS = _FoldTable()
_UNEVEN: set[str] = set()
"""Characters that fold to none or to several (zero-width marks, ligatures, ㎏): positions in the
folded text shift after them."""


def _fold_with_origins(text: str) -> tuple[str, list[int] | None]:
    """The text folded character by character and, for each folded character, the index of the
    original it came from — None when every character folded to exactly one, so indices agree."""
    folded = text.translate(_FOLDS)  # fills the table for every character of the text first
    if _UNEVEN.isdisjoint(text):
        return folded, None
    origins = [index for index, char in enumerate(text) for _ in _FOLDS[ord(char)]]
    return folded, [*origins, len(text)]


def find(text: str, terms: list[str]) -> list[Hit]:
    """Every occurrence of any term in ``text``, in text order; ``matched`` quotes the original."""
    folded, origins = _fold_with_origins(text)
    hits = [
        Hit(term, text[match.start() : match.end()] if origins is None
            else text[origins[match.start()] : origins[match.end() - 1] + 1], match.start())
        for term in terms
        for match in _pattern(term).finditer(folded)
        if match.group(0)  # a pattern that can match nothing must not "find" it everywhere
    ]
    # Overlapping hits (外星人 in two groups) are reported once, at the longest match.
    hits.sort(key=lambda hit: (hit.start, -len(hit.matched)))
    unique: list[Hit] = []
    end = -1
    for hit in hits:
        if hit.start >= end:
            unique.append(hit)
            end = hit.start + len(fold(hit.matched))
    return unique
