"""Term matching on the canonical form of :mod:`gate.text.canonical` (case, width, invisible characters
and decorating marks folded away), with the alias groups of :mod:`gate.lexicon`."""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from gate import lexicon
from gate.lexicon import traditional
from gate.text.canonical import Canonical, canonical, nfkc
from gate.text.deferred import deferred

_zero_width_re = deferred("[\u200b-\u200d\u2060\ufeff\u00ad]")


def fold(text: str) -> str:
    """NFKC (full-width → half-width, "，" → "、"), casefold, zero-width characters removed, and
    traditional characters in their simplified spelling (景點 → 景点): how the readers compare
    words. Terms are matched on the stricter :func:`canonical` form."""
    return traditional.fold(_zero_width_re().sub("", nfkc(text)).casefold())


@dataclass(frozen=True)
class Hit:
    """A term found in a text: the term as configured, the original text it matched and where."""

    term: str
    matched: str
    """The original spelling, invisible characters and marks included."""
    start: int
    """Where ``matched`` starts in the original text."""
    canonical_span: tuple[int, int]
    """Where the match lies in the canonical form it was found in."""


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


@lru_cache(maxsize=1)
def _accented() -> dict[str, str]:
    """Each Latin letter's accented forms, as the canonical form writes them ("o": "òóôõöōŏő…")."""
    found: dict[str, set[str]] = {}
    for codepoint in range(0xC0, 0x2000):  # Latin-1 Supplement to Latin Extended Additional
        form = canonical(chr(codepoint)).text
        parts = unicodedata.normalize("NFD", form)
        if len(form) == 1 and len(parts) > 1 and parts[0] in string.ascii_lowercase:
            found.setdefault(parts[0], set()).add(form)
    return {letter: "".join(sorted(forms)) for letter, forms in found.items()}


def _latin_letter(char: str, leet: bool = False) -> str:
    """A letter of a term: one the term writes plain may carry any accent ("Sóny", "Ṣony"), and in a
    plain Latin name a digit or sign may stand for it; a letter written accented must be so written."""
    alternatives = _accented().get(char, "") + (_LEET.get(char, "") if leet else "")
    return f"[{re.escape(char + alternatives)}]" if alternatives else re.escape(char)


def _latin_letters(text: str) -> str:
    return "".join(_latin_letter(char) if char.isascii() else re.escape(char) for char in text)


def _word_character(digits: bool) -> str:
    """A letter (accented ones included) or, with ``digits``, a digit: what a whole word may not touch."""
    return "[a-z" + ("0-9" if digits else "") + re.escape("".join(_accented().values())) + "]"


@lru_cache(maxsize=4096)
def _pattern(term: str) -> re.Pattern[str]:
    if term.startswith("re:"):
        # Casefolding the pattern itself would turn \S into \s; match the folded text ignoring case.
        return re.compile(nfkc(term[3:]), re.IGNORECASE)
    folded = canonical(term).text
    if re.fullmatch(r"[a-z]+", folded):  # a plain Latin name: with digits for letters, or spaced out
        letters = [_latin_letter(char, leet=True) for char in folded]
        body = "".join(letters)
        if len(folded) >= _SPACED_LETTERS:  # every letter apart ("S o n y"), not one gap ("'s car")
            body = f"(?:{body}|{(_separators() + '{1,2}').join(letters)})"
    elif folded.isascii():
        body = _latin_letters(folded).replace(r"\ ", r"[\s\-_]*")
    else:  # CJK, or CJK with Latin: each CJK character may be followed by separators
        parts = [(_cjk_piece(char) if not char.isascii() and index < len(folded) - 1 else _latin_letters(char))
                 for index, char in enumerate(folded)]
        body = "".join(parts).replace(r"\ ", r"[\s\-_]*")
    # Latin terms match whole words only, so ROG is not found in "progress".
    left = f"(?<!{_word_character(digits=True)})" if re.match(r"[a-z0-9]", folded) else ""
    right = f"(?!{_word_character(digits=False)})" if re.search(r"[a-z0-9]$", folded) else ""
    return re.compile(left + body + right)


def expand(terms: list[str] | tuple[str, ...], groups: list[str] | tuple[str, ...]) -> list[str]:
    """The plain terms plus every alias of the named groups, without repeats, in order."""
    seen: dict[str, None] = {}
    for term in [*terms, *(alias for group in groups for alias in lexicon.aliases()[group])]:
        seen.setdefault(term, None)
    return list(seen)


def find(text: str, terms: list[str]) -> list[Hit]:
    """Every occurrence of any term in ``text``, in text order; ``matched`` quotes the original."""
    return find_in(text, canonical(text), terms)


def find_in(text: str, form: Canonical, terms: list[str]) -> list[Hit]:
    """:func:`find` over ``form``, the canonical form of ``text`` already worked out."""
    hits = []
    for term in terms:
        for match in _pattern(term).finditer(form.text):
            if match.group(0):  # a pattern that can match nothing must not "find" it everywhere
                start, end = form.original(match.start(), match.end())
                hits.append(Hit(term, text[start:end], start, match.span()))
    # Overlapping hits (外星人 in two groups) are reported once, at the longest match.
    hits.sort(key=lambda hit: (hit.canonical_span[0], -hit.canonical_span[1]))
    unique: list[Hit] = []
    end = -1
    for hit in hits:
        if hit.canonical_span[0] >= end:
            unique.append(hit)
            end = hit.canonical_span[1]
    return unique
