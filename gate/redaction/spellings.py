"""Every way a secret may be spelt where the gate prints it, as one pattern: raw, JSON-escaped
(``\\/``, ``\\"``, ``\\uXXXX`` of any character; once or twice, as in a JSON error quoted in a JSON
report), URL-encoded (``%2F`` or ``%2f``, ``+`` for a space), Markdown- or HTML-escaped, and base64
(standard and URL-safe, with and without padding, and at each of the three byte offsets a secret can
sit at inside a longer blob, as in ``Basic base64(user:token)``).

The pattern matches in linear time: it repeats nothing but up to three backslashes and a bounded
look-ahead, and at each character of a secret at most one of that character's spellings can match
(a raw ``%``, ``\\``, ``&`` or ``@`` only where no escape starting with it does), so a failed match
is never retried another way.
"""

from __future__ import annotations

import base64
import re
import string
from collections.abc import Iterable

BASE64_MIN_BYTES = 8
"""Secrets shorter than this get no base64 spellings: a few base64 letters would mask ordinary words."""

_ENTITIES = {"&": ("amp", "#38", "#x26"), "<": ("lt", "#60", "#x3c"), ">": ("gt", "#62", "#x3e"),
             '"': ("quot", "#34", "#x22"), "'": ("apos", "#39", "#x27")}
_JSON_SHORT = {"\b": "b", "\f": "f", "\n": "n", "\r": "r", "\t": "t"}
_ZERO_WIDTH_JOINER = "\u200d"
"""Put after '@' in a PR comment so that GitHub notifies nobody (gate/report/markdown_safe.py)."""
_ANY_ENTITY = r"&(?:[a-zA-Z]{1,32}|#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8});"
_RAW_GUARDS = {
    "\\": r"\\(?![\\" + re.escape(string.punctuation) + r"]|u[0-9a-fA-F]{4})",
    "%": r"%(?![0-9a-fA-F]{2})",
    "&": r"&(?!" + _ANY_ENTITY[1:] + ")",
    "@": "@(?!" + _ZERO_WIDTH_JOINER + ")",
}
"""A raw character that begins another character's escape matches only where no escape begins."""


def _hex(text: str) -> str:
    """``text`` with each hex letter in either case."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in text)


_ESCAPED_AGAIN = r"\\{1,2}"
"""An escape's backslash, itself escaped or not: a JSON string quoted in another (an agent's error
quoted in results.json) writes ``\\u00fc`` as ``\\\\u00fc`` and ``\\"`` as ``\\\\\\"``. Not for the
secret's own backslashes: four of them would read as one or as two."""


def _unicode_escapes(char: str) -> str:
    units = char.encode("utf-16-be")
    backslashes = r"\\" if char == "\\" else _ESCAPED_AGAIN
    return "".join(backslashes + "u" + _hex(units[i:i + 2].hex()) for i in range(0, len(units), 2))


def _spellings(char: str) -> list[str]:
    """The regex alternatives for one character of a secret; no two can match at the same place."""
    found = [_unicode_escapes(char), "".join("%" + _hex(f"{byte:02x}") for byte in char.encode("utf-8"))]
    if char == "\\":
        found.append(r"\\\\")  # JSON's \\ (the raw one, below, only where no escape begins)
    elif char in string.punctuation:  # JSON's \/ \", Markdown's \_ \*: and escaped again, \\/ \\\/ \\\"
        found.append(r"\\{1,3}" + re.escape(char))
    if char in _JSON_SHORT:
        found.append(_ESCAPED_AGAIN + _JSON_SHORT[char])
    if char == " ":
        found.append(r"\+")
    if char == "@":
        found.append("@" + _ZERO_WIDTH_JOINER)
    for name in _ENTITIES.get(char, ()):
        found.append("&" + _hex(name) + ";" if name.startswith("#x") else f"&{name};")
    found.append(_RAW_GUARDS.get(char, re.escape(char)))
    return found


def spelt_any_way(text: str) -> str:
    """A pattern for ``text`` in any of its characters' spellings, mixed freely."""
    return "".join(f"(?:{'|'.join(_spellings(char))})" for char in text)


def base64_spellings(secret: str) -> set[str]:
    """The base64 letters that spell ``secret`` whole, or inside a longer blob at each byte offset
    (only the letters it alone decides: the ones shared with its neighbours may differ)."""
    data = secret.encode("utf-8")
    if len(data) < BASE64_MIN_BYTES:
        return set()
    whole = base64.b64encode(data).decode("ascii")
    found = {whole, whole.rstrip("=")}
    for offset in range(3):
        encoded = base64.b64encode(bytes(offset) + data).decode("ascii")
        first, end = -(-8 * offset // 6), (8 * offset + 8 * len(data)) // 6
        found.add(encoded[first:end])
    return found | {spelling.replace("+", "-").replace("/", "_") for spelling in found}


def pattern(secrets: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern matching every spelling of every secret, the longest first; None when there is none."""
    literals = set()
    for secret in secrets:
        literals.add(secret)
        literals.update(base64_spellings(secret))
    if not literals:
        return None
    ordered = sorted(literals, key=lambda literal: (-len(literal), literal))
    # The characters a spelling can start with, looked ahead for first: three times faster on a
    # report, where most places start none.
    first = {"\\", "%", "&", "+"} | {literal[0] for literal in literals}
    starts = "[" + "".join(re.escape(char) for char in sorted(first)) + "]"
    return re.compile(f"(?={starts})(?:{'|'.join(spelt_any_way(literal) for literal in ordered)})")
