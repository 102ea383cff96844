"""What a lexicon file may say: word classes and alias groups, each validated before it is read."""

from __future__ import annotations

import re

from pydantic import ConfigDict, Field, field_validator, model_validator

from gate.model import Model

CLASS_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
"""How a class or alias group is named: lower case, words joined by ``_``."""
PATTERN_PREFIX = "re:"
"""An entry that starts with this is a regular expression, not a phrase."""


def _entries_valid(entries: list[str]) -> list[str]:
    seen: set[str] = set()
    for entry in entries:
        if not entry or entry == PATTERN_PREFIX:
            raise ValueError("an entry is empty")
        if entry in seen:
            raise ValueError(f"entry '{entry}' is listed twice")
        seen.add(entry)
    return entries


class WordClass(Model):
    """One idea of wording — "recommends", "measure_word" — as the phrases that say it, Chinese and
    English side by side, with strings that must match it and strings that must not."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    description: str = Field(min_length=1)
    """What the idea is and what the readers do with it, in a line or two."""
    zh: list[str] | dict[str, int] = Field(default_factory=list)
    """Chinese entries: phrases, ``re:`` patterns, or phrases with a number each (一: 1)."""
    en: list[str] | dict[str, int] = Field(default_factory=list)
    """English entries, in the same forms."""
    ignore_case: bool = False
    """Match the entries in any letter case (English words)."""
    not_after: str | None = None
    """A class none of whose entries may stand right before a match (``negates`` before ``recommends``)."""
    not_before: str | None = None
    """A class none of whose entries may stand right after a match."""
    examples: list[str] = Field(min_length=1)
    """Strings the class must match: the test over the data proves each one."""
    counter_examples: list[str] = Field(default_factory=list)
    """Strings the class must not match (钟表 is a watch, 分钟 is not)."""
    excludes: list[str] = Field(default_factory=list)
    """Classes that must never match an example of this one, nor this one an example of theirs."""

    @field_validator("zh", "en")
    @classmethod
    def _entries(cls, value: list[str] | dict[str, int]) -> list[str] | dict[str, int]:
        _entries_valid(list(value))
        return value

    @model_validator(mode="after")
    def _something(self) -> WordClass:
        if not self.zh and not self.en:
            raise ValueError("a class needs entries: zh, en or both")
        return self

    def entries(self) -> list[str]:
        """Every entry, Chinese first, in the order written."""
        return [*self.zh, *self.en]

    def numbered(self) -> dict[str, int]:
        """The entries that carry a number, with it."""
        return {**(self.zh if isinstance(self.zh, dict) else {}), **(self.en if isinstance(self.en, dict) else {})}


class AliasGroup(Model):
    """A brand, category or place under every name an answer may give it, and where the names come from."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    source: str = Field(min_length=1)
    """Where the names come from: the seed case, a corpus, common knowledge."""
    names: list[str] = Field(min_length=1)
    """Plain names (matched in any case and width; Latin ones as whole words) and ``re:`` patterns."""
    examples: list[str] = Field(default_factory=list)
    """Texts in which the group must find a name."""
    counter_examples: list[str] = Field(default_factory=list)
    """Texts in which it must find none (《王者荣耀》 is a game, not the brand 荣耀)."""

    @field_validator("names")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        return _entries_valid(value)
