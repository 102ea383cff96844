"""Wording cues for reading lists: ordinal markers, and the labels and lead-ins that say whether a
list holds the recommended items or notes beside them (advice, criteria, exclusions, a summary).

The words are the lexicon's (:mod:`gate.lexicon`); this module says how they combine.
"""

from __future__ import annotations

import re
import unicodedata

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.deferred import deferred
from gate.text.numerals import to_int


def _marker_pattern() -> str:
    numeral = source("cn_ordinal_numeral")
    ordinal = charset("cn_ordinal_numeral", also=r"\d")
    after_ordinal = charset("colon", "comma", "enumeration_comma")
    ends_ordinal = charset("colon", "comma", "enumeration_comma", also=r"\s")
    delim = charset("full_width_period", "enumeration_comma", "close_bracket", also=".")
    period = charset("enumeration_comma", "full_width_period", also=".")
    option_end = charset("colon", "enumeration_comma", "close_bracket", also=".")
    return (
        r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*"
        rf"(?:(?P<arabic>\d{{1,2}})(?P<delim>{delim}|\ufe0f?\u20e3)(?!\d)"
        rf"|{charset('open_bracket', 'label_open')}(?P<paren>\d{{1,2}}){charset('close_bracket', 'label_close')}"
        # "（一）" "(二)": the sub-points of official numbering, under "一、" "二、"
        rf"|{charset('open_bracket')}(?P<cnparen>{numeral}{{1,3}}){charset('close_bracket')}"
        rf"|(?P<stem>{source('heavenly_stem')}){period}"  # "甲、" "乙、"
        # "I." "IV." "a)" "B." — Roman numerals and letters, a space after them (not "A.I." or "e.g.")
        r"|(?P<roman>(?=[IVX])X{0,3}(?:IX|IV|V?I{0,3}))(?P<rdelim>[.)])(?=\s)"
        r"|(?P<letter>[A-Za-z])(?P<ldelim>[.)])(?=\s)"
        rf"|(?P<cn>{numeral}{{1,3}}){period}"
        rf"|{source('ordinal_prefix')}\s*(?P<ordinal>{ordinal}{{1,3}})\s*"
        rf"(?:{source('measure_word')}(?:\s*{after_ordinal}\s*)?|(?={ends_ordinal}|$))"
        rf"|{source('rank_word')}\.?\s*(?P<no>\d{{1,2}})(?!\d)"
        # "Option A：" "方案一：" "选项 2." — alternatives offered side by side
        rf"|{source('option_word')}\s?(?P<option>[A-Ea-e1-9]|{source('option_numeral')})\s?(?={option_end}|\s){option_end}?"
        # ①…⑳ ⑴…⒇ ⒈…⒛ ❶…❿ ➀…➓, and the medals 🥇🥈🥉 that rank the first three
        rf"|(?P<circled>[\u2460-\u249b\u2776-\u2793\U0001F947-\U0001F949])\ufe0f?{period}?"
        # 🔟, the keycap ten after 1️⃣…9️⃣ (one character, not a digit and a keycap mark)
        r"|(?P<ten>\U0001F51F)\ufe0f?)"
    )


marker_re = deferred(_marker_pattern)
_KEYCAP = "\u20e3"
_MEDALS = {"\U0001F947": 1, "\U0001F948": 2, "\U0001F949": 3}
# Bullet glyphs, and an emoji leading a line as models use one ("🎧 Bose QC Ultra：…", "📍 圣泉寺：…").
BULLET_RE = re.compile(r"^\s*(?:[•●○◦▪▫■□◆◇►▶➤✓✔✅☑※·]|[\U0001F300-\U0001FAFF\u2600-\u27BF\u2B50\u2B55]\ufe0f?)\s*(?=\S)")
BOLD_LEAD_RE = re.compile(r"^\s*(\*\*|__)(?P<bold>\S.*?)\1")
# A notes label ends with the word ("选购建议" "购买渠道" "以下几款因超出预算已排除" "注意事项").
_notes_label_re = deferred(
    lambda: rf"{source('notes_word')}{source('notes_label_suffix')}?{source('notes_label_tail')}?$", re.IGNORECASE)
_NOTES_LABEL_MAX_CHARS = 16
LABEL_MAX_CHARS = 8
_day_re = deferred(lambda: rf"^\s*{source('day_label')}", re.IGNORECASE)
# Sub-point names that are an item's attributes, not items of their own.
_attribute_re = deferred(lambda: rf"^{source('attribute_name')}$|{source('attribute_word')}", re.IGNORECASE)
_closing_re = deferred(lambda: rf"^\s*{source('closing_line')}")


def attribute(name: str) -> bool:
    """True when a sub-point's name is an attribute of an item ("价格" "优点" "预算"), not an item."""
    return _attribute_re().search(name.strip()) is not None


def day(name: str) -> bool:
    """True when ``name`` labels a day of an itinerary ("第一天" "Day 2" "D3")."""
    return _day_re().match(name) is not None


def closing(line: str) -> bool:
    """True when ``line`` speaks of all the items, closing the list ("以上三家……" "希望对你有帮助")."""
    return _closing_re().match(line) is not None


def section_label(head: str) -> bool:
    """True when a heading names a part of the answer rather than an item ("推荐餐厅", "注意事项", "总结")."""
    return lexicon.pattern("section_label").search(head) is not None


def aside_label(head: str) -> bool:
    """True when a section label's list holds no items either (an overview, closing words)."""
    return lexicon.pattern("aside_label").search(head) is not None


_ROMAN = {"I": 1, "V": 5, "X": 10}


def _roman(numeral: str) -> int:
    """The value of a Roman numeral up to 39 (the pattern admits no other)."""
    values = [_ROMAN[char] for char in numeral]
    return sum(-value if later > value else value for value, later in zip(values, [*values[1:], 0], strict=True))


def marker(line: str) -> tuple[str, int] | None:
    """The style and ordinal a line starts with ("1." "1、" "一、" "（一）" "第一家" "1️⃣"…"🔟" "①" "❶" "⑴" "🥇"), or None."""
    match = marker_re().match(line)
    if not match:
        return None
    circled = match.group("circled")
    if circled:
        return "circled", _MEDALS.get(circled) or int(unicodedata.numeric(circled))
    if match.group("ten"):
        return "arabic" + _KEYCAP, 10
    for group, delim, value in (("stem", None, lambda t: lexicon.numbered("heavenly_stem").get(t)),
                                ("roman", "rdelim", _roman), ("letter", "ldelim", lambda t: ord(t.lower()) - ord("a") + 1)):
        token = match.group(group)
        if token:
            number = value(token)
            return (group + (match.group(delim) if delim else ""), number) if number else None
    option = match.group("option")
    if option:
        return "option", "abcde".index(option.lower()) + 1 if option.isascii() and option.isalpha() else to_int(option) or 0
    for group in ("arabic", "paren", "cnparen", "cn", "ordinal", "no"):
        token = match.group(group)
        if token:
            number = to_int(token)
            if number is None:
                return None
            delim = (match.group("delim") or "").replace("\ufe0f", "")  # 1️⃣ and 1⃣ are one style
            # a full-width period or bracket is the same style as the ASCII one
            style = group + unicodedata.normalize("NFKC", delim)
            return style, number
    return None


def strip_marker(line: str) -> str:
    """The line without its leading ordinal marker or bullet glyph."""
    match = marker_re().match(line) or BULLET_RE.match(line)
    return line[match.end() :].strip() if match else line.strip()


_label_end_re = deferred(lambda: charset("colon", "question_mark"))
_sentence_in_label_re = deferred(lambda: charset("comma", "full_stop", "semicolon"))


def notes_label(text: str) -> bool:
    """True when ``text`` labels notes, advice or a summary ("注意事项：" "### 怎么选？" "选购建议"),
    not when it only mentions one ("推荐 3 款，下单前请注意核对型号：")."""
    label = _label_end_re().split(strip_marker(text), maxsplit=1)[0]
    if _sentence_in_label_re().search(label):
        return False  # a sentence, not a label
    label = re.sub(r"[^\w\s]", "", label).strip()  # emoji, brackets: 【注意事项】 💡小贴士
    if lexicon.pattern("first_person").match(label):
        return False  # "我建议：" speaks the recommendation itself
    return len(label) <= _NOTES_LABEL_MAX_CHARS and _notes_label_re().search(label) is not None


# A count stated by a lead-in ("推荐这 3 款" "以下 5 家" "只剩 2 款").
_stated_count_re = deferred(lambda: (
    rf"{source('count_lead')}\s*{source('count_lead_link')}?\s*"
    rf"(?P<n>\d{{1,2}}|{source('cn_count_numeral')}{{1,3}})\s*{source('measure_word')}"
))


def criteria_lead(text: str) -> bool:
    """True when ``text`` introduces selection criteria ("可以先从这几个角度想一想："), never items."""
    return lexicon.pattern("criteria_lead").search(text) is not None


# A remark in brackets ("主推 5 款（已排除小米）") says what was left out without setting the items aside.
def _remark_pattern() -> str:
    inside = charset("close_bracket", also=r"\n", negated=True)
    return rf"{charset('open_bracket')}{inside}{{0,40}}{charset('close_bracket')}"


_remark_re = deferred(_remark_pattern)


_recommends_before_re = deferred(lambda: rf"{source('recommends')}|{source('main_pick')}")


def excluded_lead(text: str) -> bool:
    """True when ``text`` sets the items after it aside ("以下几款已排除：" "有几款考虑过，但没有放进主推："),
    not when it recommends them and restates what it left out ("主推 5 款（已排除小米）")."""
    text = _remark_re().sub("", text)
    found = lexicon.pattern("sets_aside").search(text)
    return found is not None and _recommends_before_re().search(text, 0, found.start()) is None


def notes_lead(text: str) -> bool:
    """True when ``text``, the line right before a list, introduces notes, advice, criteria, a
    checklist or exclusions rather than the recommendations ("买之前可以留意这几点：" "下面这 3 款
    超出了 8000 元，已经帮您去掉："), whether a label or a sentence."""
    if notes_label(text) or excluded_lead(text):
        return True
    recommending = lexicon.pattern("recommends").search(text) is not None or stated_count(text) is not None
    return lexicon.pattern("notes_lead").search(text) is not None and not recommending


def stated_count(text: str) -> int | None:
    """The number of items a recommending lead-in announces ("推荐这 3 款" "以下 5 家"), or None —
    not the number of criteria ("先看这三个标准")."""
    if excluded_lead(text) or criteria_lead(text):
        return None
    match = _stated_count_re().search(text)
    return to_int(match.group("n")) if match else None
