"""Checks on the answer as text: length, sentences, day coverage, sections, honest shortfall."""

from __future__ import annotations

import re
from collections import Counter

from pydantic import Field

from gate import lexicon
from gate.checkers.base import CountBounds, Params, checker, quote
from gate.lexicon import charset, source
from gate.subject import Subject
from gate.text import units
from gate.text.days import days_mentioned, mentions_last_day
from gate.text.deferred import deferred
from gate.text.sentences import split_sentences
from gate.text.terms import find, fold
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
    if mentions_last_day(subject.answer):
        found.add(params.days)  # "最后一天" of an N-day plan is day N
    missing = [day for day in range(1, params.days + 1) if day not in found]
    if missing:
        return Outcome.failed(f"days {missing} not covered; found days {sorted(found) or 'none'}")
    return Outcome.passed(f"all {params.days} days covered")


class SectionsParams(Params):
    sections: dict[str, list[str]] = Field(min_length=1)
    """Each required section by name, with other words that may introduce it (交通: [出行]); a name
    of a common family (交通, 机票, 住宿, 景点, 美食, 行程) brings the family's labels too."""


# The label families of a travel plan as answers write them (the lexicon's sections.yaml): a section
# named by one member may be introduced by any. A one-character label counts only standing alone.
_FAMILIES = ("transport_section", "flights_section", "lodging_section", "sights_section", "food_section",
             "schedule_section")


def _family(name: str) -> list[str]:
    """The labels of the family ``name`` heads or belongs to, as terms (lone characters as patterns)."""
    families = [lexicon.words(family) for family in _FAMILIES]
    members = [m for family in families if name in family for m in family if m != name]
    return [f"re:{m}(?!\\w)" if len(m) == 1 else m for m in dict.fromkeys(members)]


_HEADING_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*)$")
_SETEXT_UNDERLINE_RE = re.compile(r"^ {0,3}(?:=+|-{2,})[ \t]*$")
# A line led by bold text: "**住宿**", "- **✈️ 航班**：…", "1. __日程__".
_bold_lead_re = deferred(lambda: rf"^\s*(?:(?:[-*+•·]|\d{{1,2}}{charset('enumeration_comma', also='.)')})\s+)?(\*\*|__)(.+?)\1")
_LIST_OR_TABLE_RE = re.compile(r"^\s*(?:[-*+•·]\s|\d{1,2}[.)]\s|\|)")


def _lead_pattern() -> str:
    # What may stand before a label's word: marks, bullets, emoji, 【, numbering (1. / 一、/ (2) /
    # 第一部分), 关于, a prose ordinal that opens a part (首先是机票…, 其次说住宿…).
    numbered = charset("enumeration_comma", "close_bracket", also=".")
    ordinal = charset("enumeration_comma", "full_width_period", also=".")
    return (rf"\s*(?:[\W_]+|\d{{1,2}}{numbered}|{source('cn_ordinal_numeral')}{{1,3}}{ordinal}"
            rf"|{source('section_opener')})")


# Matched at a position, spaces before it included: no "^", and it looks neither back nor ahead.
_lead_re = deferred(_lead_pattern)
# "推荐航班：…": the words before a colon at a line start name what follows.
_head_re = deferred(lambda: rf"^({charset('comma', 'full_stop', 'semicolon', 'exclamation_mark', 'question_mark', 'colon', negated=True)}"
                            rf"{{1,16}}){charset('colon')}")
_clause_break_re = deferred(lambda: charset("comma", "semicolon", "full_stop", "exclamation_mark", "question_mark"))
# A clause that puts its section off ("行程等机票确认之后再排") names it without giving it: ``puts_off``.


def _opening(text: str) -> str:
    """``text`` without the spaces, marks, numbering and 关于 that may stand before a label's word.
    Leads are skipped by position and the text cut once: cutting one lead at a time copied the rest
    of a line of thousands ("1、1、1、…") once per lead."""
    start, end = 0, len(text.rstrip())
    while lead := _lead_re().match(text, start, end):
        start = lead.end()
    return text[start:end].lstrip()


def _labels(answer: str) -> tuple[list[str], list[str]]:
    """The answer's labels: texts a section word may appear in, and texts it must open.

    Headings, bold-led lines and "X：" heads are labels anywhere in them; a line opens a
    section with its first word (关于交通：, 【出行】, 交通方面，…). In a prose paragraph each clause
    may open one ("交通靠包车，住宿选乌布"); in a list item or heading only the line's start can. A
    clause that puts its section off ("行程等机票确认之后再排") opens none.
    """
    containing: list[str] = []
    opening: list[str] = []
    lines = answer.splitlines()
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        heading = _HEADING_RE.match(line)
        if heading or _SETEXT_UNDERLINE_RE.match(following):
            containing.append(heading.group(1) if heading else line)
            continue
        bold = _bold_lead_re().match(line)
        if bold:
            containing.append(bold.group(2))
        start = _opening(line)
        head = _head_re().match(start)
        if head:
            containing.append(head.group(1))
        clauses = [start] if _LIST_OR_TABLE_RE.match(line) else [_opening(c) for c in _clause_break_re().split(line)]
        opening.extend(clause for clause, after in zip(clauses, [*clauses[1:], ""], strict=True)
                       if not lexicon.pattern("puts_off").search(clause) and not _only_offered(clause, after))
    return containing, opening


_TOPIC_ONLY = 8  # "美食的话", "景点方面": a clause this short names its topic and says nothing of it


def _only_offered(clause: str, after: str) -> bool:
    """A topic named only to offer or put it off: "美食的话，如果你需要，我可以再单独整理一篇"."""
    if len(clause) > _TOPIC_ONLY:
        return False
    return any(lexicon.pattern(word_class).match(after) for word_class in ("offer_clause", "puts_off"))


def _introduced(words: list[str], containing: list[str], opening: list[str]) -> bool:
    return any(find(label, words) for label in containing) or any(
        hit.canonical_span[0] == 0 for label in opening for hit in find(label, words)
    )


@checker("text:sections", SectionsParams, "each named section (or a synonym) is introduced by a label: heading, bold lead, 'X：' or an opening word")
def text_sections(subject: Subject, params: SectionsParams) -> Outcome:
    containing, opening = _labels(subject.analysed.view)  # as rendered: <h3>交通</h3> is a heading
    missing = [
        name for name, words in params.sections.items()
        if not _introduced([name, *words, *_family(name)], containing, opening)
    ]
    if missing:
        return Outcome.failed(f"sections missing: {missing} (no heading, bold lead or opening word names them)", tuple(missing))
    return Outcome.passed(f"all {len(params.sections)} sections present")


# What says the request cannot be fully met (``shortfall``), asks without a question mark or offers
# (``request``), and puts a question to the user (``addressed``): the lexicon's requests.yaml.
# Headings and bold-only lines ("### 值得去吗？") are titles, not questions put to the user.
_TITLE_LINE_RE = re.compile(r"^[ \t]*(?:#{1,6}[ \t].*|(\*\*|__)[^\n]*\1[ \t]*)$", re.MULTILINE)


_question_mark_re = deferred(lambda: charset("question_mark"))


def _question(answer: str) -> str | None:
    """The first question put to the user: a request phrase, or an addressed ？ sentence.

    A rhetorical question ("为什么这么好吃？因为新鲜。") does not count.
    """
    text = _TITLE_LINE_RE.sub("", answer)
    match = lexicon.pattern("request").search(text)
    if match:
        return match.group(0)
    for sentence in split_sentences(text):
        if _question_mark_re().search(sentence) and lexicon.pattern("addressed").search(sentence):
            return sentence
    return None


class AcknowledgesLimitParams(Params):
    pass


@checker("text:acknowledges_limit", AcknowledgesLimitParams, "the answer says plainly that the request cannot be fully met")
def text_acknowledges_limit(subject: Subject, params: AcknowledgesLimitParams) -> Outcome:
    match = lexicon.pattern("shortfall").search(subject.answer)
    if match:
        return Outcome.passed(f"states the shortfall: '{quote(match.group(0))}'")
    return Outcome.failed("does not say that the request cannot be fully met")


class AsksUserParams(Params):
    pass


@checker("text:asks_user", AsksUserParams, "the answer asks the user a question (to clarify or to accept an alternative)")
def text_asks_user(subject: Subject, params: AsksUserParams) -> Outcome:
    question = _question(subject.answer)
    if question:
        return Outcome.passed(f"asks the user: '{quote(question)}'")
    rhetorical = next((s for s in split_sentences(_TITLE_LINE_RE.sub("", subject.answer)) if _question_mark_re().search(s)),
                      None)
    if rhetorical:
        return Outcome.failed(f"asks the user nothing: '{quote(rhetorical)}' is not put to the user")
    return Outcome.failed("asks the user nothing: no question, request or offer to them")


def _sentence_key(sentence: str) -> str:
    return re.sub(r"[\s*_`]+", "", fold(sentence))


class NoRepeatedSentencesParams(Params):
    min_zi: int = Field(8, ge=1)
    """Sentences shorter than this (in 字) may repeat (set phrases)."""


@checker("text:no_repeated_sentences", NoRepeatedSentencesParams, "no sentence is repeated verbatim (padding to reach a length)")
def text_no_repeated_sentences(subject: Subject, params: NoRepeatedSentencesParams) -> Outcome:
    sentences = [s for s in split_sentences(subject.answer) if units.count_zi(s) >= params.min_zi]
    # Spacing, width and emphasis marks do not make a copied sentence new.
    first: dict[str, str] = {}
    for sentence in sentences:
        first.setdefault(_sentence_key(sentence), sentence)
    counts = Counter(_sentence_key(sentence) for sentence in sentences)
    repeated = [first[key] for key, n in counts.items() if n > 1]
    if repeated:
        return Outcome.failed(f"{len(repeated)} sentence(s) repeated: '{quote(repeated[0], 30)}'", tuple(repeated))
    return Outcome.passed(f"no repeated sentence among {len(sentences)}")
