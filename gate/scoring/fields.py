"""Key fields of a run for consistency: tool sequence, item count, temperatures, answer shape.

Each field reduces one trajectory to a string, so repeated runs can be compared by equality.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import zip_longest
from typing import Literal

from gate import lexicon
from gate.lexicon import source
from gate.subject import Answer, Subject
from gate.text.deferred import deferred
from gate.text.numerals import to_int
from gate.text.terms import fold
from gate.trajectory import Trajectory

ConsistencyField = Literal["tool_sequence", "item_count", "numbers", "structure", "answer"]
# A number; thousands separators allowed. A leading '-' is a sign only where it cannot be a range
# dash (see _signed).
_NUMBER_RE = re.compile(r"(?P<sign>[-−])?(?P<digits>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?P<frac>\.\d+)?")
# NFKC has already turned ℃ into °C and full-width forms into ASCII.
_temperature_unit_re = deferred(lambda: rf"\s*{source('temperature_unit')}")
_range_gap_re = deferred(lambda: rf"\s*(?:{source('range_separator')}|[−/])\s*")
_range_end_re = deferred(lambda: rf"(?:\d|°C?|{source('temperature_unit')})\s*$")
_LOOK_BACK = 16  # what _signed reads before a number: a range end or 零下 and a few spaces


def _signed(text: str, match: re.Match[str]) -> tuple[float, int]:
    """The number's value and where its digits start ('15-25': the '-' is a range dash)."""
    value = float(match.group("digits").replace(",", "") + (match.group("frac") or ""))
    before = text[max(0, match.start() - _LOOK_BACK) : match.start()]  # a window: one pass over the answer
    if match.group("sign") and not _range_end_re().search(before):
        return -value, match.start()
    if before.rstrip().endswith(lexicon.words("below_zero")):
        return -value, match.start("digits")
    return value, match.start("digits")


def _format(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


# A temperature in Chinese numerals ("十五到二十五度", "零下三度"): digits of the lexicon and 十, up to
# three, before a temperature unit or before a range gap and another such numeral with one.
def _spelled_temperature() -> str:
    numeral = f"(?:{source('cn_digit')}|{source('cn_ten')}){{1,3}}"
    return (rf"(?<![\d.]){numeral}(?=\s*{source('temperature_unit')}"
            rf"|\s*(?:{source('range_separator')}|[−/])\s*{numeral}\s*{source('temperature_unit')})")


_spelled_temperature_re = deferred(_spelled_temperature)


def _in_digits(match: re.Match[str]) -> str:
    value = to_int(match.group(0))
    before = match.string[max(0, match.start() - _LOOK_BACK):match.start()].rstrip()
    if value is None or (value == 1 and not before.endswith(lexicon.words("below_zero"))):
        return match.group(0)  # "气温一度降到零下": 一度 is "at one point", unless 零下一度
    return str(value)


def _numbers(answer: str) -> str:
    """Temperatures if the answer states any, else every number; sorted, distinct, comma-joined.

    A temperature is a number followed by °C / ℃ / ° / 度 / 摄氏度, or the low end of a range whose
    high end is one ("15-25°C", "15 到 25 度", "-3~5℃"), in digits or Chinese numerals ("十五到二十五
    度"). "零下 3 度" is −3. With no temperature,
    every number counts (prices, times, list ordinals) — the answer's figures as a whole.
    """
    text = _spelled_temperature_re().sub(_in_digits, unicodedata.normalize("NFKC", answer))
    found = [(*_signed(text, m), m.end()) for m in _NUMBER_RE.finditer(text)]
    is_temp = [bool(_temperature_unit_re().match(text, end)) for _, _, end in found]
    for i in range(len(found) - 2, -1, -1):  # backwards, so a chain of range ends propagates
        gap = text[found[i][2] : found[i + 1][1]]
        if is_temp[i + 1] and _range_gap_re().fullmatch(gap):
            is_temp[i] = True
    keep_all = not any(is_temp)
    chosen = [value for (value, _, _), temp in zip(found, is_temp, strict=True) if temp or keep_all]
    return ",".join(_format(v) for v in sorted(set(chosen)))


def _bucket(size: int) -> str:
    """List/table sizes in coarse classes: 3 vs 4 options is the same shape, 1 vs 8 is not."""
    if size <= 1:
        return str(max(size, 0))
    return "2-5" if size <= 5 else "6-10" if size <= 10 else "11+"


_BLOCK_TOKENS = {"paragraph": "p", "quote": "quote", "code": "code", "rule": "hr", "html": "html"}


def _structure(answer: Answer) -> str:
    """The answer's Markdown shape: its top-level blocks in order, words ignored.

    Headings keep their level (h2), lists their kind and bucketed size (ol[2-5]), tables their
    columns and bucketed rows (table[3x2-5]); consecutive paragraphs count as one prose block.
    A JSON answer is json:array[size] or json:object.
    """
    if answer.json.ok:
        value = answer.json.value
        return f"json:array[{_bucket(len(value))}]" if isinstance(value, list) else "json:object"
    tokens: list[str] = []
    for block in answer.markdown.blocks:
        if block.kind == "heading":
            token = f"h{block.level}"
        elif block.kind == "list" and block.node is not None:
            kind = "ol" if block.node.type == "ordered_list" else "ul"
            token = f"{kind}[{_bucket(len(block.node.children))}]"
        elif block.kind == "table":
            columns = len(block.cells[0]) if block.cells else 0
            token = f"table[{columns}x{_bucket(len(block.cells) - 1)}]"
        else:
            token = _BLOCK_TOKENS.get(block.kind, block.kind)
        if not (token == "p" and tokens and tokens[-1] == "p"):
            tokens.append(token)
    return " ".join(tokens) or "empty"


def _folded(answer: Answer) -> str:
    return " ".join(fold(answer.text).split())


_FROM_ANSWER: dict[str, Callable[[Answer], str]] = {
    "item_count": lambda answer: str(len(answer.items)),
    "numbers": lambda answer: _numbers(answer.text),
    "structure": _structure,
    "answer": _folded,
}
"""The fields read from the answer alone: read once per distinct answer (:meth:`Answer.reading`)."""


def _steps(trajectory: Trajectory) -> list[str]:
    """The tools called, a retry counted once: a call is dropped when the next one calls the same
    tool and it failed or asked the same thing (a timeout retried, a duplicate sent twice)."""
    calls = trajectory.tool_calls
    return [call.name for call, after in zip_longest(calls, calls[1:])
            if not (after is not None and after.name == call.name and (call.is_error or after.args == call.args))]


def extract_from(field: ConsistencyField, subject: Subject) -> str:
    if field == "tool_sequence":
        return ">".join(_steps(subject.trajectory))
    return subject.analysed.reading(f"field:{field}", _FROM_ANSWER[field])


def extract(field: ConsistencyField, trajectory: Trajectory) -> str:
    """One run's value of a key field; runs agree on the field when these strings are equal.

    tool_sequence: tool names in call order joined by '>', a retry or a duplicate once; item_count: the number of recommended
    items; numbers: see :func:`_numbers`; structure: see :func:`_structure`; answer: the answer
    NFKC-folded, case-folded, whitespace collapsed.
    """
    return extract_from(field, Subject(trajectory))


def mode_frequency(values: Sequence[str]) -> float | None:
    """Share of values equal to the most common one (the seed's field consistency); None if empty."""
    if not values:
        return None
    return max(Counter(values).values()) / len(values)


def mode(values: Sequence[str]) -> str | None:
    ranked = sorted(Counter(values).items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[0][0] if ranked else None
