"""Checks on the answer as text: length, sentences, day coverage, sections, honest shortfall."""

from __future__ import annotations

import re
from collections import Counter

from pydantic import Field

from gate.checkers.base import CountBounds, Params, checker, quote
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


# The label families of a travel plan as answers write them: a section named by one member may be
# introduced by any (【行】【住】【游】【吃】, 怎么去 / 住哪里 / 玩什么 / 吃什么, 往返交通 for the flights).
# A one-character label counts only standing alone (【住】, **吃**, 行：), never as the start of a
# word (行程, 住在, 游客).
_FAMILIES: tuple[tuple[str, ...], ...] = (
    ("交通", "出行", "行", "怎么去", "如何前往", "如何到达", "怎么到", "往返交通", "大交通", "当地交通", "前往方式"),
    ("机票", "航班", "往返交通", "大交通", "飞机", "去程", "返程"),
    ("住宿", "住", "住哪里", "住哪儿", "住在哪", "住在哪里", "住哪", "酒店", "落脚"),
    ("景点", "游", "玩", "玩什么", "去哪玩", "游览", "必去", "打卡"),
    ("美食", "吃", "吃什么", "餐饮", "吃喝", "觅食"),
    ("行程", "日程", "每日安排", "行程安排", "日程安排"),
)


def _family(name: str) -> list[str]:
    """The labels of the family ``name`` heads or belongs to, as terms (lone characters as patterns)."""
    members = [m for family in _FAMILIES if name in family for m in family if m != name]
    return [f"re:{m}(?!\\w)" if len(m) == 1 else m for m in dict.fromkeys(members)]


_HEADING_RE = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*)$")
_SETEXT_UNDERLINE_RE = re.compile(r"^ {0,3}(?:=+|-{2,})[ \t]*$")
# A line led by bold text: "**住宿**", "- **✈️ 航班**：…", "1. __日程__".
_bold_lead_re = deferred(r"^\s*(?:(?:[-*+•·]|\d{1,2}[.)、])\s+)?(\*\*|__)(.+?)\1")
_LIST_OR_TABLE_RE = re.compile(r"^\s*(?:[-*+•·]\s|\d{1,2}[.)]\s|\|)")
# What may stand before a label's word: marks, bullets, emoji, 【, numbering (1. / 一、/ (2) / 第一部分), 关于.
_lead_re = deferred(
    r"^(?:[\W_]+|\d{1,2}[.、)）]|[一二三四五六七八九十]{1,3}[、.．]|第[一二三四五六七八九十\d]{1,3}部分|关于|"
    # prose ordinals that open a part: 首先是机票…, 其次说住宿…, 最后是美食…
    r"(?:首先|其次|然后|接着|再来|再者|最后|先)(?:是|说|说说|看|聊聊|讲讲|讲))"
)
# "推荐航班：…": the words before a colon at a line start name what follows.
_HEAD_RE = re.compile(r"^([^，,。；;！？!?：:]{1,16})[：:]")
_CLAUSE_BREAK_RE = re.compile(r"[，,；;。！？!?]")
# A clause that puts its section off ("行程等机票确认之后再排", "行程稍后再发你") names it without giving it.
_PUTS_OFF_RE = re.compile(r"(?:之?后|以后|稍后|回头|后续|改天|下次|晚点|然后)再|(?:等|待)[^，,；;。！？!?]{0,16}?再")


def _opening(text: str) -> str:
    """``text`` without the marks, numbering and 关于 that may stand before a label's word."""
    while True:
        stripped = _lead_re().sub("", text.strip(), count=1)
        if stripped == text:
            return text
        text = stripped


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
        head = _HEAD_RE.match(start)
        if head:
            containing.append(head.group(1))
        clauses = [start] if _LIST_OR_TABLE_RE.match(line) else [_opening(c) for c in _CLAUSE_BREAK_RE.split(line)]
        opening.extend(clause for clause in clauses if not _PUTS_OFF_RE.search(clause))
    return containing, opening


def _introduced(words: list[str], containing: list[str], opening: list[str]) -> bool:
    return any(find(label, words) for label in containing) or any(
        hit.start == 0 for label in opening for hit in find(label, words)
    )


@checker("text:sections", SectionsParams, "each named section (or a synonym) is introduced by a label: heading, bold lead, 'X：' or an opening word")
def text_sections(subject: Subject, params: SectionsParams) -> Outcome:
    containing, opening = _labels(subject.answer)
    missing = [
        name for name, words in params.sections.items()
        if not _introduced([name, *words, *_family(name)], containing, opening)
    ]
    if missing:
        return Outcome.failed(f"sections missing: {missing} (no heading, bold lead or opening word names them)", tuple(missing))
    return Outcome.passed(f"all {len(params.sections)} sections present")


# A count of the things recommended (3 家, 两款, 5 个选择), not of a product's details: 只有 3 种颜色,
# 接口只有 2 个 USB-A and 包间只有 6 个 describe one item and say nothing about the shortfall.
_COUNT_NUMBER = r"(?:\d+|[一二两三四五六七八九十]{1,3}|几)"
_COUNT_UNIT = (
    r"(?:家|款|本|部|台|处|条|所|座|"
    r"个(?=\s*(?:推荐|选择|选项|地方|城市|景点|餐厅|酒店|品牌|型号|目的地|产品|方案|符合|满足|合适|值得|能|可以)))"
)
_COUNTED = rf"{_COUNT_NUMBER}\s*{_COUNT_UNIT}"
# 只有 right after a detail of one item (接口只有, 包间只有) is about that detail.
_NOT_AFTER_DETAIL = (
    "(?<!接口|包间|内存|端口|座位|插槽|房间|车位|配色|颜色|版本|尺寸|包厢|雅间|桌位|电池|屏幕|硬盘|菜品|停车)"
)
_LIMIT_PATTERNS = (
    r"(?:只|仅)(?:能|可)?(?:找到|搜到|查到|筛选出|筛出|挑出|选出)|(?:只|仅)能(?:推荐|提供|给出|列出|找到)|"
    rf"(?:只|仅)(?:推荐|提供)了?\s*{_COUNTED}|"
    rf"{_NOT_AFTER_DETAIL}(?:只|仅)(?:有|剩)?\s*(?:这么|这|下面|以下|上面)?\s*{_COUNTED}|"
    rf"(?:就这|就只有|也就|就剩)\s*(?:这么|这|下面|以下|上面)?\s*{_COUNTED}|"
    rf"还差\s*{_COUNTED}|不到\s*{_COUNTED}|"
    r"无法(?:满足|找到|凑齐|凑够|提供|达到)|没(?:能|有办法)?(?:找到|凑齐|凑够|满足)|"
    r"凑不(?:齐|够|出|满|到)|推荐不(?:出|了那么多)|"
    # A bare 找不到 is often about something else ("基本找不到位子"); it must name what is missing.
    rf"找不到\s*(?:更多|其他|其它|足够|符合|满足|第\s*\S|{_COUNTED})|买不到|不太现实|几乎没有|"
    r"(?:难以|很难)(?:满足|找到|凑齐|凑够|凑出|买到)|达不到|"
    r"不足\s*\d*\s*(?:家|款|个|本|项|条|处)|"
    r"(?:数量|款数|家数|选择|选项|款式|结果|货源)(?:上)?(?:非常|比较|相当|很|较为|十分)?(?:有限|不足|不够|很少|稀少|极少)|"
    r"屈指可数|寥寥|暂(?:时)?只|能找到的(?:全部|所有|只有|就这)|"
    r"\bonly (?:found|have|\d+|one|two|three|four|five|a few|a handful)\b|\b(?:could|can) only\b|"
    r"\bcould(?:n't| not) find\b|\bunable to\b|\bcan(?:not|'t) (?:find|meet|provide|recommend)\b|"
    r"\bnot enough\b|\bfewer than\b"
)
_limit_re = deferred(_LIMIT_PATTERNS, re.IGNORECASE)
# Asking without a question mark ("请告诉我您的预算"), or a question addressed to the user.
_request_re = deferred(
    r"是否(?:可以|接受|需要|愿意|要|满意|考虑)|要不要|需不需要|可不可以|能否接受|您(?:看|觉得)|"
    r"请告诉我|告诉我您|请告知|请确认|欢迎告诉我|告诉我一声|跟我说一声|说一声就|随时告诉我|"
    # an offer the user may take up ("需要的话我可以再推荐两家", "如有需要，我来帮您订")
    r"(?:如果|要是|若)?(?:需要|想要|有需要|如有需要|感兴趣)(?:的话)?[，,、\s]{0,2}我(?:可以|能|再|来|帮)|"
    r"\b(?:would you|do you want|shall i|should i|let me know)\b",
    re.IGNORECASE,
)
_addressed_re = deferred(
    r"您|你|吗|请问|是否|要不要|需不需要|可不可以|能不能|好不好|行不行|哪(?:种|个|些|家|款|类|里)|多少|什么样|"
    r"\b(?:you|your|i|want|prefer|shall)\b",
    re.IGNORECASE,
)
# Headings and bold-only lines ("### 值得去吗？") are titles, not questions put to the user.
_TITLE_LINE_RE = re.compile(r"^[ \t]*(?:#{1,6}[ \t].*|(\*\*|__)[^\n]*\1[ \t]*)$", re.MULTILINE)


def _question(answer: str) -> str | None:
    """The first question put to the user: a request phrase, or an addressed ？ sentence.

    A rhetorical question ("为什么这么好吃？因为新鲜。") does not count.
    """
    text = _TITLE_LINE_RE.sub("", answer)
    match = _request_re().search(text)
    if match:
        return match.group(0)
    for sentence in split_sentences(text):
        if re.search(r"[？?]", sentence) and _addressed_re().search(sentence):
            return sentence
    return None


class AcknowledgesLimitParams(Params):
    pass


@checker("text:acknowledges_limit", AcknowledgesLimitParams, "the answer says plainly that the request cannot be fully met")
def text_acknowledges_limit(subject: Subject, params: AcknowledgesLimitParams) -> Outcome:
    match = _limit_re().search(subject.answer)
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
    rhetorical = next((s for s in split_sentences(_TITLE_LINE_RE.sub("", subject.answer)) if re.search(r"[？?]", s)), None)
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
