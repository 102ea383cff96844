"""What the readers know about wording, as data: named word classes and alias groups.

The YAML files beside this module hold one class per idea (``recommends``, ``negates``,
``measure_word`` …): its Chinese and English entries, what it means, and examples that must and
must not match it. Reader code names a class and gets one compiled pattern for it, or its words;
it never spells the phrases itself. The files are read at the first read of a class, once, and
each class is compiled when first asked for, once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

from gate.errors import did_you_mean
from gate.lexicon import compile as _compile
from gate.lexicon.compile import LexiconError
from gate.lexicon.load import alias_groups, classes
from gate.lexicon.model import AliasGroup, WordClass
from gate.lexicon.traditional import spellings

__all__ = ["LINE_BREAK", "WHITESPACE", "LexiconError", "alias_group", "aliases", "chars", "charset", "compile_all", "numbered", "pattern", "source",
           "word_class", "words"]


def word_class(name: str) -> WordClass:
    """The class called ``name``, as written."""
    found = classes().by_name.get(name)
    if found is None:
        raise LexiconError(f"no word class '{name}'{did_you_mean(name, classes().by_name)}")
    return found


@cache
def source(name: str) -> str:
    """The class's regular expression, to compose into a larger one (it groups itself)."""
    return _compile.source(name, word_class(name), _resolver(name, (name,)))


def _resolver(name: str, chain: tuple[str, ...]) -> Callable[[str], str]:
    def resolve(other: str) -> str:
        if other in chain:
            raise LexiconError(f"class '{name}' refers back to itself: {' → '.join((*chain, other))}")
        return _compile.source(other, word_class(other), _resolver(other, (*chain, other)))

    return resolve


@cache
def pattern(name: str) -> re.Pattern[str]:
    """The class compiled: search it, match it, split on it."""
    return re.compile(source(name))


@cache
def words(name: str) -> tuple[str, ...]:
    """The class's phrases in the order written (a class with pattern entries has none to give)."""
    found = word_class(name)
    listed = _compile.phrases(found)
    if len(listed) != len(found.entries()):
        raise LexiconError(f"class '{name}' holds patterns, not only words")
    return tuple(listed)


@cache
def chars(name: str) -> str:
    """A class of single characters as the inside of a character set (``[…]``), escaped."""
    found = word_class(name)
    if not _compile.single_characters(found):
        raise LexiconError(f"class '{name}' is not a class of single characters")
    return _compile.character_set(found)


LINE_BREAK = r"\n"
"""A line break as written inside a character set, for ``charset(…, also=LINE_BREAK)``."""
WHITESPACE = r"\s"
"""Any whitespace, as written inside a character set."""


def charset(*names: str, also: str = "", negated: bool = False) -> str:
    """One character set of the characters of several single-character classes, and of ``also``
    (written as inside a set: ``\\n``, ``A-Z``): ``charset("clause_mark", "sentence_end", also="\\n")``."""
    inside = "".join(chars(name) for name in names) + also
    return f"[^{inside}]" if negated else f"[{inside}]"


@cache
def numbered(name: str) -> Mapping[str, int]:
    """The class's entries with the number each carries (一: 1, 十: 10)."""
    found = word_class(name).numbered()
    if not found:
        raise LexiconError(f"class '{name}' carries no numbers")
    # its traditional spellings too (兩, 萬), which its pattern matches; the simplified ones first
    return found | {spelled: number for entry, number in found.items() for spelled in spellings(entry)
                    if spelled not in found}


@cache
def aliases() -> Mapping[str, tuple[str, ...]]:
    """Every alias group's names, by group, in the order written."""
    return {name: tuple(group.names) for name, group in alias_groups().items()}


def alias_group(name: str) -> AliasGroup:
    """One alias group as written: its names, where they come from, its examples."""
    return alias_groups()[name]


def compile_all() -> None:
    """Read the files and compile every class now: a worker thread does it while the agent calls
    are out, so the first answer judged does not pay for it."""
    for name in classes().by_name:
        pattern(name)
