"""Reading the lexicon's files, once: every word class by name, and the alias groups.

The files are package data beside this module. Each is a mapping from a name to its class (or, in
``aliases.yaml``, to its alias group); a file or key that is not what :mod:`gate.lexicon.model`
says is an error naming the file, the line and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from gate.errors import GateError
from gate.files.yamlio import load, model_keys, read_text, validation_error
from gate.lexicon.model import CLASS_NAME, AliasGroup, WordClass

DIRECTORY = Path(__file__).parent
ALIASES = "aliases.yaml"
"""The file of alias groups; every other ``*.yaml`` here holds word classes."""


@dataclass(frozen=True)
class Classes:
    """Every word class by name, and the file each is written in."""

    by_name: dict[str, WordClass]
    files: dict[str, str]


def read_file(path: Path, model: type[BaseModel]) -> dict[str, Any]:
    """The named entries of one file, each validated as ``model``."""
    text = read_text(path)
    raw = load(path, text)
    if not isinstance(raw, dict):
        raise GateError("expected a mapping from names to their entries", where=str(path))
    found: dict[str, Any] = {}
    for name, body in raw.items():
        if not isinstance(name, str) or not CLASS_NAME.match(name):
            raise GateError(f"'{name}': a name is lower case, words joined by '_'", where=str(path))
        try:
            found[name] = model.model_validate(body)
        except ValidationError as exc:
            raise validation_error(path, text, exc, prefix=(name,), keys=model_keys(model)) from None
    return found


@cache
def classes() -> Classes:
    """The word classes of every file, read and validated on first use."""
    by_name: dict[str, WordClass] = {}
    files: dict[str, str] = {}
    for path in sorted(DIRECTORY.glob("*.yaml")):
        if path.name == ALIASES:
            continue
        for name, word_class in read_file(path, WordClass).items():
            if name in files:
                raise GateError(f"class '{name}' is also defined in {files[name]}", where=str(path))
            by_name[name], files[name] = word_class, path.name
    for name, word_class in by_name.items():
        for field, named in (("not_after", [word_class.not_after]), ("not_before", [word_class.not_before]),
                             ("excludes", word_class.excludes)):
            for other in named:
                if other is not None and other not in by_name:
                    raise GateError(f"{name}.{field}: unknown class '{other}'", where=str(DIRECTORY / files[name]))
    return Classes(by_name, files)


@cache
def alias_groups() -> dict[str, AliasGroup]:
    """The alias groups, in the order written, read and validated on first use."""
    groups: dict[str, AliasGroup] = read_file(DIRECTORY / ALIASES, AliasGroup)
    return groups
