"""The canonical form terms are matched on, with each of its characters traced to the original text.

The form, over the whole text:

1. default-ignorable code points, format characters (Cf) and control characters other than whitespace
   are removed — they draw nothing (or steer only the direction of what is drawn), so a reader sees
   "Sony" in "S\u200eony". Removed before normalising too, so one between a letter and its accent
   does not keep them apart;
2. NFKC: compatibility forms (full-width, ligatures) become plain, and decomposed letters are composed
   ("Nestle" + U+0301 is "Nestlé"). The text is normalised in stretches that start at a character
   nothing before it can combine with, so the result is that of NFKC over the whole text;
3. casefolded (then NFKC again: a folded letter may come apart, "İ" → "i" + U+0307), and traditional
   Chinese characters in their simplified spelling, one to one (建議 → 建议);
4. combining marks that composition left apart — no precomposed letter has them — are removed where
   they only decorate: on a Latin, Greek, Cyrillic or CJK character or on a character that is no
   letter (U+0332 underline, U+0333, U+0336 strike-through, U+20DD enclosing circle). On a letter of a
   script that spells with marks (Devanagari, Arabic, Thai, Hebrew…) they are kept: there they are
   the word.

Default_Ignorable_Code_Point is not in :mod:`unicodedata`: ``_DEFAULT_IGNORABLE`` copies its ranges
as DerivedCoreProperties.txt (Unicode 15) lists them, and every Cf character is removed besides (the
few Cf that are not default-ignorable, such as the Arabic number signs, never stand inside a name).
Linear on any input: a stretch holds at most ``_STRETCH_MAX`` characters — the 30 non-starters of
Unicode's Stream-Safe Text Format, which bounds what the normaliser reorders.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from gate.lexicon import traditional

_DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Default_Ignorable_Code_Point, Unicode 15 (soft hyphen, CGJ, fillers, zero-width and bidi controls,
variation selectors, tag characters)."""

_DECORATED: tuple[tuple[int, int], ...] = (
    (0x0000, 0x052F), (0x1C80, 0x1C8F), (0x1D00, 0x1FFF), (0x2C60, 0x2C7F), (0x2DE0, 0x2DFF),
    (0x2E80, 0x9FFF), (0xA640, 0xA69F), (0xA720, 0xA7FF), (0xAB30, 0xAB6F), (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF),
)
"""Letters a leftover mark only decorates: Latin, Greek, Cyrillic, CJK, kana and Hangul."""

_HANGUL_JAMO_VT = ((0x1161, 0x1175), (0x11A8, 0x11C2))
"""Vowel and final jamo: they compose with the syllable before them, though they are starters."""

_STRETCH_MAX = 31
"""A starter and the 30 non-starters after it (Stream-Safe Text Format, UAX #15 §13)."""


def _within(codepoint: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= codepoint <= high for low, high in ranges)


@lru_cache(maxsize=65536)
def removed(char: str) -> bool:
    """Whether ``char`` draws nothing: default-ignorable, a format character, or a control other than
    whitespace (NUL, BEL, ESC)."""
    category = unicodedata.category(char)
    return (category == "Cf" or (category == "Cc" and not char.isspace())
            or _within(ord(char), _DEFAULT_IGNORABLE))


@lru_cache(maxsize=1)
def _second_halves() -> frozenset[str]:
    """Characters that compose with the character before them: the second of every canonical pair."""
    found = set()
    for codepoint in range(0x30000):
        parts = unicodedata.decomposition(chr(codepoint)).split()
        if len(parts) == 2 and not parts[0].startswith("<") and unicodedata.normalize("NFC", chr(codepoint)) == chr(codepoint):
            found.add(chr(int(parts[1], 16)))
    return frozenset(found)


@lru_cache(maxsize=65536)
def _starts_stretch(char: str) -> bool:
    """Whether nothing before ``char`` can combine with it under NFKC: text may be cut before it."""
    first = unicodedata.normalize("NFKD", char)[0]
    return (unicodedata.combining(first) == 0 and first not in _second_halves()
            and not _within(ord(first), _HANGUL_JAMO_VT))


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


def _decorates(base: str) -> bool:
    """Whether a leftover mark on ``base`` only decorates it."""
    return not unicodedata.category(base).startswith("L") or _within(ord(base), _DECORATED)


def nfkc(text: str) -> str:
    """NFKC, the full-width comma kept a clause break ("、") rather than a thousands separator."""
    # NFKC would turn the full-width comma into ","; a Chinese clause break is not a thousands
    # separator ("人均约 800，非常…" is 800, not 800,…), so it becomes "、" (same length) instead.
    return unicodedata.normalize("NFKC", text.replace("，", "、"))


@lru_cache(maxsize=8192)
def _canonical_stretch(stretch: str, decorated: bool = True) -> tuple[str, bool]:
    """One stretch in canonical form: normalised, folded, leftover decorating marks removed.
    ``decorated``: whether a mark opening the stretch would only decorate the letter before it (a
    mark may start a stretch: Devanagari's anusvara combines with nothing). Returns the form and
    the same for a mark after it."""
    kept: list[str] = []
    for char in traditional.fold(nfkc(nfkc(stretch).casefold())):
        if removed(char):
            continue
        if unicodedata.category(char).startswith("M"):  # a mark: what it decorates stays the base
            if _is_mark(char) and decorated:
                continue
        else:
            decorated = _decorates(char)
        kept.append(char)
    return "".join(kept), decorated


@dataclass(frozen=True)
class Canonical:
    """A text in canonical form, and where each of its characters came from in the original."""

    text: str
    """The canonical form."""
    _starts: tuple[int, ...] | None = None
    _ends: tuple[int, ...] | None = None
    """Per canonical character, the original stretch it came from; None where the two agree."""

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The original span of the canonical ``text[start:end]`` (``end`` > ``start``)."""
        if self._starts is None or self._ends is None:
            return start, end
        return self._starts[start], self._ends[end - 1]


class _PieceTable(dict[int, str]):
    """Each character's canonical form alone, worked out the first time ``str.translate`` meets the
    character (a hostile answer of many distinct characters starts the table afresh rather than grow it)."""

    LIMIT = 65536

    def __missing__(self, codepoint: int) -> str:
        char = chr(codepoint)
        piece = _canonical_stretch(char)[0]
        if len(piece) != 1 or removed(char) or _is_mark(char) or not _starts_stretch(char):
            _IN_CONTEXT.add(char)
        if len(self) >= self.LIMIT:
            self.clear()
        self[codepoint] = piece
        return piece


_PIECES = _PieceTable()
_IN_CONTEXT: set[str] = set()
"""Characters whose canonical form is not one character of their own: removed, several (ligatures,
"㎏"), or depending on what stands next to them (marks, jamo)."""


def canonical(text: str) -> Canonical:
    """``text`` in canonical form (see the module), each character traced to the original."""
    pieces = text.translate(_PIECES)  # fills the table for every character of the text first
    if _IN_CONTEXT.isdisjoint(text):
        return Canonical(pieces)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    stretch: list[str] = []
    first = last = 0
    decorated = True  # a mark opening the text decorates nothing

    def close() -> None:
        nonlocal decorated
        form, decorated = _canonical_stretch("".join(stretch), decorated)
        out.append(form)
        starts.extend([first] * len(form))
        ends.extend([last + 1] * len(form))
        stretch.clear()

    for index, char in enumerate(text):
        if char in _IN_CONTEXT and removed(char):
            continue
        if stretch and (len(stretch) >= _STRETCH_MAX or _starts_stretch(char)):
            close()
        if not stretch:
            first = index
        stretch.append(char)
        last = index
    if stretch:
        close()
    return Canonical("".join(out), tuple(starts), tuple(ends))


def visible(text: str, limit: int = 80) -> str:
    """``text`` with each character the canonical form removes for drawing nothing written as its code
    point ("S[U+200E]ony"), so a report shows why an original spelling was read as the term; cut at
    ``limit`` characters (a term padded with thousands of them must not flood the report)."""
    shown = "".join(f"[U+{ord(char):04X}]" if removed(char) else char for char in text[:limit])
    return shown if len(shown) <= limit and len(text) <= limit else shown[: limit - 1] + "…"
