"""A word class as one regular expression: its phrases escaped, longest first, then its patterns.

A class of single characters becomes a character set (``[不别没未]``), which a look-behind can hold.
A pattern entry may name another class in braces (``re:第{cn_numeral}天``): the other class's
expression stands there. ``not_after`` and ``not_before`` put a class's entries in a look-behind or
look-ahead around the whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gate.lexicon.model import PATTERN_PREFIX, WordClass
from gate.lexicon.traditional import variants, with_traditional

REFERENCE = re.compile(r"\{([a-z][a-z0-9_]*)\}")
"""A class named inside a pattern entry: ``{name}`` (a quantifier such as ``{0,3}`` holds digits)."""


class LexiconError(LookupError):
    """A class the code names does not exist, or is read in a form it does not have."""


def phrases(word_class: WordClass) -> list[str]:
    return [entry for entry in word_class.entries() if not entry.startswith(PATTERN_PREFIX)]


def single_characters(word_class: WordClass) -> bool:
    """Every entry one character and no pattern: the class is a character set."""
    entries = word_class.entries()
    return all(len(entry) == 1 for entry in entries)


def source(name: str, word_class: WordClass, resolve: Callable[[str], str]) -> str:
    """The class's regular expression; ``resolve`` gives another class's (for braces and look-arounds)."""
    if single_characters(word_class):
        body = "[" + character_set(word_class) + "]"
    else:
        alternatives = sorted(phrases(word_class), key=len, reverse=True)  # stable: the order written on a tie
        escaped = [with_traditional(re.escape(phrase)) for phrase in alternatives]
        written = [_resolved(with_traditional(entry[len(PATTERN_PREFIX):]), resolve) for entry in word_class.entries()
                   if entry.startswith(PATTERN_PREFIX)]
        body = "(?:" + "|".join(escaped + written) + ")"
    if word_class.not_after:
        body = f"(?<!{resolve(word_class.not_after)}){body}"
    if word_class.not_before:
        body = f"{body}(?!{resolve(word_class.not_before)})"
    return f"(?i:{body})" if word_class.ignore_case else body


def character_set(word_class: WordClass) -> str:
    """A class of single characters as the inside of a set, each with its traditional spellings."""
    return "".join(re.escape(entry) + variants().get(entry, "") for entry in word_class.entries())


def _resolved(pattern: str, resolve: Callable[[str], str]) -> str:
    return REFERENCE.sub(lambda match: resolve(match.group(1)), pattern)
