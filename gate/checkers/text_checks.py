"""Checks on the answer as text: length, sentences, day coverage, sections, honest shortfall."""

from __future__ import annotations

import re
from collections import Counter

from pydantic import Field

from gate.checkers.base import CountBounds, Params, checker, quote
from gate.subject import Subject
from gate.text import units
from gate.text.days import days_mentioned
from gate.text.sentences import split_sentences
from gate.text.terms import find
from gate.verdict import Outcome


class LengthParams(CountBounds):
    unit: units.Unit = "zi"
    """zi: CJK ideographs only (the seeds' 字); chars; mixed; words."""


@checker("text:length", LengthParams, "the answer's length in 字 (ideographs only), chars, mixed units or words")
def text_length(subject: Subject, params: LengthParams) -> Outcome:
    length = units.count(subject.answer, params.unit)
    detail = f"{length} {units.UNIT_NAMES[params.unit]}; {params.describe()} required"
    return Outcome.of(params.admits(length), detail)


class SentencesParams(CountBounds):
    pass


@checker("text:sentences", SentencesParams, "the answer's sentence count (。！？!? …… end one; 3.5 or v1.2 do not)")
def text_sentences(subject: Subject, params: SentencesParams) -> Outcome:
    sentences = split_sentences(subject.answer)
    shown = " / ".join(f"'{quote(s, 18)}'" for s in sentences[:3])
    detail = f"{len(sentences)} sentence(s): {shown}; {params.describe()} required"
    return Outcome.of(params.admits(len(sentences)), detail, tuple(sentences))


class DaysParams(Params):
    days: int = Field(ge=1, le=31)
    """Every day 1..days must be marked (第一天 / Day 1 / D1 / 第1-2天)."""


@checker("text:days", DaysParams, "the itinerary marks every day 1..N (第一天…第N天, Day 1, D1)")
def text_days(subject: Subject, params: DaysParams) -> Outcome:
    found = days_mentioned(subject.answer)
    missing = [day for day in range(1, params.days + 1) if day not in found]
    if missing:
        return Outcome.failed(f"days {missing} not covered; found days {sorted(found) or 'none'}")
    return Outcome.passed(f"all {params.days} days covered")


class SectionsParams(Params):
    sections: dict[str, list[str]] = Field(min_length=1)
    """Each required section by name, with other words that may introduce it (交通: [出行])."""


@checker("text:sections", SectionsParams, "each named section (or one of its synonyms) is present")
def text_sections(subject: Subject, params: SectionsParams) -> Outcome:
    missing = [name for name, words in params.sections.items() if not find(subject.answer, [name, *words])]
    if missing:
        return Outcome.failed(f"sections missing: {missing}", tuple(missing))
    return Outcome.passed(f"all {len(params.sections)} sections present")


_LIMIT_PATTERNS = (
    r"只(?:能)?(?:找到|有|搜到|查到|推荐)了?\s*\d+|仅(?:找到|有|搜到|查到)\s*\d+|"
    r"(?:只|仅)(?:找到|有|搜到|查到)了?\s*[一二两三四五六七八九]\s*[家款个本]|"
    r"无法(?:满足|找到|凑齐|提供)|没(?:能|有办法)?(?:找到|凑齐|满足)|找不到|不足\s*\d*\s*[家款个]|不够|凑不齐|难以满足|"
    r"(?:数量|款数|家数)(?:上)?(?:有限|不足)|暂(?:时)?只|"
    r"\bonly (?:found|have|\d+)\b|\bcould(?:n't| not) find\b|\bunable to\b|\bcannot (?:find|meet|provide)\b"
)
_LIMIT_RE = re.compile(_LIMIT_PATTERNS, re.IGNORECASE)
_QUESTION_RE = re.compile(
    r"[？?]|是否(?:可以|接受|需要|愿意|要)|要不要|需不需要|可不可以|能否接受|您(?:看|觉得)|请告诉我|告诉我您|"
    r"\b(?:would you|do you want|shall i|should i|let me know)\b",
    re.IGNORECASE,
)


class AcknowledgesLimitParams(Params):
    pass


@checker("text:acknowledges_limit", AcknowledgesLimitParams, "the answer says plainly that the request cannot be fully met")
def text_acknowledges_limit(subject: Subject, params: AcknowledgesLimitParams) -> Outcome:
    match = _LIMIT_RE.search(subject.answer)
    if match:
        return Outcome.passed(f"states the shortfall: '{quote(match.group(0))}'")
    return Outcome.failed("does not say that the request cannot be fully met")


class AsksUserParams(Params):
    pass


@checker("text:asks_user", AsksUserParams, "the answer asks the user a question (to clarify or to accept an alternative)")
def text_asks_user(subject: Subject, params: AsksUserParams) -> Outcome:
    match = _QUESTION_RE.search(subject.answer)
    if match:
        return Outcome.passed(f"asks the user: '{quote(match.group(0))}'")
    return Outcome.failed("asks the user nothing")


class NoRepeatedSentencesParams(Params):
    min_zi: int = Field(8, ge=1)
    """Sentences shorter than this (in 字) may repeat (set phrases)."""


@checker("text:no_repeated_sentences", NoRepeatedSentencesParams, "no sentence is repeated verbatim (padding to reach a length)")
def text_no_repeated_sentences(subject: Subject, params: NoRepeatedSentencesParams) -> Outcome:
    sentences = [s for s in split_sentences(subject.answer) if units.count_zi(s) >= params.min_zi]
    repeated = [s for s, n in Counter(sentences).items() if n > 1]
    if repeated:
        return Outcome.failed(f"{len(repeated)} sentence(s) repeated: '{quote(repeated[0], 30)}'", tuple(repeated))
    return Outcome.passed(f"no repeated sentence among {len(sentences)}")
