"""Traditional characters: the lexicon's patterns match an answer written in them, and text can be
folded to simplified characters to be compared.

``traditional.txt`` (written by tools/traditional_table.py from OpenCC's one-to-one t2s table)
gives each simplified character the traditional characters that fold to it (点 點, 个 個箇). A
pattern compiled from the lexicon takes both spellings of every character (景点 → 景[点點]), so a
Taiwan or Hong Kong answer's 景點 or 建議 reads as its simplified spelling does. Folding is one
character to one, so positions in folded text are positions in the original.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from pathlib import Path

TABLE = Path(__file__).with_name("traditional.txt")
_MAX_SPELLINGS = 64  # a numbered entry's spellings, bounded: entries are a few characters long


@cache
def variants() -> dict[str, str]:
    """Each simplified character's traditional characters."""
    found: dict[str, str] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            simplified, traditional = line.split(" ", 1)
            found[simplified] = traditional
    return found


@cache
def _folding() -> dict[int, str]:
    return {ord(traditional): simplified for simplified, spelled in variants().items() for traditional in spelled}


def fold(text: str) -> str:
    """``text`` with every traditional character in its simplified spelling (same length)."""
    return text.translate(_folding())


def with_traditional(source: str) -> str:
    """A regular expression's source in which each simplified character also matches its
    traditional ones: a class of both outside a set (``[点點]``), both inside one; a character at
    either end of a range is left as it is. One pass, escapes copied as they are."""
    table = variants()
    out: list[str] = []
    in_set = False
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            out.append(source[index : index + 2])
            index += 2
            continue
        if in_set:
            in_range = source[index + 1 : index + 2] == "-" or (index > 0 and source[index - 1] == "-")
            out.append(char if char == "]" or in_range else char + table.get(char, ""))
            in_set = char != "]" or source[index - 1] == "["
        elif char == "[":
            out.append(char)
            in_set = True
            if source[index + 1 : index + 2] == "^":  # a negated set keeps its caret first
                out.append("^")
                index += 1
        else:
            spelled = table.get(char)
            out.append(f"[{char}{spelled}]" if spelled else char)
        index += 1
    return "".join(out)


def spellings(entry: str) -> list[str]:
    """Every spelling of ``entry`` in simplified and traditional characters (两万: 兩萬, 两萬 …)."""
    choices = [char + variants().get(char, "") for char in entry]
    found: list[str] = []
    for spelled in product(*choices):
        found.append("".join(spelled))
        if len(found) >= _MAX_SPELLINGS:
            break
    return found
