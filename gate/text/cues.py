"""Wording cues for reading lists: ordinal markers, and the labels and lead-ins that say whether a
list holds the recommended items or notes beside them (advice, criteria, exclusions, a summary).
"""

from __future__ import annotations

import re
import unicodedata

from gate.text.numerals import to_int

MARKER_RE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*"
    r"(?:(?P<arabic>\d{1,2})(?P<delim>[.．、)）]|\ufe0f?\u20e3)(?!\d)"
    r"|[（(](?P<paren>\d{1,2})[)）]"
    r"|(?P<cn>[一二三四五六七八九十]{1,3})[、.．]"
    r"|第\s*(?P<ordinal>[一二三四五六七八九十\d]{1,3})\s*"
    r"(?:[家款个本名站部台位种道处条只件](?:\s*[：:，,、]\s*)?|(?=[：:，,、\s]|$))"
    r"|(?:No|NO|Top|TOP)\.?\s*(?P<no>\d{1,2})(?!\d)"
    # "Option A：" "方案一：" "选项 2." — alternatives offered side by side
    r"|(?:Option|OPTION|option|方案|选项)\s?(?P<option>[A-Ea-e1-9]|[一二三四五])\s?(?=[：:.、)）]|\s)[：:.、)）]?"
    # ①…⑳ ⑴…⒇ ⒈…⒛ ❶…❿ ➀…➓, and the medals 🥇🥈🥉 that rank the first three
    r"|(?P<circled>[\u2460-\u249b\u2776-\u2793\U0001F947-\U0001F949])\ufe0f?[.、．]?"
    # 🔟, the keycap ten after 1️⃣…9️⃣ (one character, not a digit and a keycap mark)
    r"|(?P<ten>\U0001F51F)\ufe0f?)"
)
_KEYCAP = "\u20e3"
_MEDALS = {"\U0001F947": 1, "\U0001F948": 2, "\U0001F949": 3}
# Bullet glyphs, and an emoji leading a line as models use one ("🎧 Bose QC Ultra：…", "📍 圣泉寺：…").
BULLET_RE = re.compile(r"^\s*(?:[•●○◦▪▫■□◆◇►▶➤✓✔✅☑※·]|[\U0001F300-\U0001FAFF\u2600-\u27BF]\ufe0f?)\s*(?=\S)")
BOLD_LEAD_RE = re.compile(r"^\s*(\*\*|__)(?P<bold>\S.*?)\1")
# Words that label notes, advice, a summary, exclusions or where to buy: not the items.
_NOTES = (r"注意|提示|贴士|须知|备注|提醒|温馨|建议|总结|小结|怎么选择?|如何选择?|选购|渠道|排除|购买|"
          r"\b(?:tips?|notes?|reminders?|summary|advice)\b")
# A notes label ends with the word ("选购建议" "购买渠道" "以下几款因超出预算已排除" "注意事项").
_NOTES_LABEL_RE = re.compile(rf"(?:{_NOTES})(?:事项|须知|指南|参考|汇总|一览)?(?:如下|一下|一点|几点)?$", re.IGNORECASE)
_NOTES_LABEL_MAX_CHARS = 16
# Heads that name a part of the answer rather than an item ("推荐餐厅", "注意事项", "总结").
SECTION_LABEL_RE = re.compile(rf"{_NOTES}|推荐|概览|概述|结语|其他|说明|附录|"
                               r"\b(?:overview|recommendations?|conclusion)\b", re.IGNORECASE)
LABEL_MAX_CHARS = 8
# Section labels whose lists hold no items either (a "categories" run leaves them out).
ASIDE_RE = re.compile(r"概览|概述|结语|其他|说明|附录", re.IGNORECASE)
DAY_RE = re.compile(r"^\s*(?:第\s*[一二三四五六七八九十\d]{1,3}\s*天|day\s*\d{1,2}|d\d{1,2}\b)", re.IGNORECASE)
# Sub-point names that are an item's attributes, not items of their own.
_ATTRIBUTE_RE = re.compile(
    r"^(?:优点|缺点|亮点|不足|特点|特色|理由|推荐理由|适合|适合人群|推荐菜|招牌菜?|必点|地址|位置|交通|门票|"
    r"评分|口碑|环境|服务|口味|菜品|菜系|包间|氛围|营业时间|电话|预订|停车|续航|重量|尺寸|屏幕|处理器|配置|参数|"
    r"音质|降噪|佩戴|电池|颜色|时长|建议|"
    r"预算|用途|场景|需求|人数|天数|出发地|第.{1,3}天|day\s*\d{1,2}|d\d{1,2})$|价|人均|时间",
    re.IGNORECASE,
)
# A line that speaks of all the items, closing the list ("以上三家……" "希望对你有帮助").
CLOSING_RE = re.compile(r"^\s*(?:以上|上述|上面|这[几些两三四五六七八九十]|总之|总的来说|综上|总体来说|希望|祝|如需|如有|需要我|欢迎)")


def attribute(name: str) -> bool:
    """True when a sub-point's name is an attribute of an item ("价格" "优点" "预算"), not an item."""
    return _ATTRIBUTE_RE.search(name.strip()) is not None


def day(name: str) -> bool:
    """True when ``name`` labels a day of an itinerary ("第一天" "Day 2" "D3")."""
    return DAY_RE.match(name) is not None


def marker(line: str) -> tuple[str, int] | None:
    """The style and ordinal a line starts with ("1." "1、" "一、" "第一家" "1️⃣"…"🔟" "①" "❶" "⑴" "🥇"), or None."""
    match = MARKER_RE.match(line)
    if not match:
        return None
    circled = match.group("circled")
    if circled:
        return "circled", _MEDALS.get(circled) or int(unicodedata.numeric(circled))
    if match.group("ten"):
        return "arabic" + _KEYCAP, 10
    option = match.group("option")
    if option:
        return "option", "abcde".index(option.lower()) + 1 if option.isascii() and option.isalpha() else to_int(option) or 0
    for group in ("arabic", "paren", "cn", "ordinal", "no"):
        token = match.group(group)
        if token:
            number = to_int(token)
            if number is None:
                return None
            delim = (match.group("delim") or "").replace("\ufe0f", "")  # 1️⃣ and 1⃣ are one style
            style = group + {"．": ".", "）": ")"}.get(delim, delim)
            return style, number
    return None


def strip_marker(line: str) -> str:
    """The line without its leading ordinal marker or bullet glyph."""
    match = MARKER_RE.match(line) or BULLET_RE.match(line)
    return line[match.end() :].strip() if match else line.strip()


def notes_label(text: str) -> bool:
    """True when ``text`` labels notes, advice or a summary ("注意事项：" "### 怎么选？" "选购建议"),
    not when it only mentions one ("推荐 3 款，下单前请注意核对型号：")."""
    label = re.split(r"[：:？?]", strip_marker(text), maxsplit=1)[0]
    if re.search(r"[，,。；;]", label):
        return False  # a sentence, not a label
    label = re.sub(r"[^\w\s]", "", label).strip()  # emoji, brackets: 【注意事项】 💡小贴士
    if label.startswith("我"):
        return False  # "我建议：" speaks the recommendation itself
    return len(label) <= _NOTES_LABEL_MAX_CHARS and _NOTES_LABEL_RE.search(label) is not None


# Lead-ins that introduce notes rather than the items, whether a label or a sentence ("买之前可以
# 留意这几点：" "出发前记得带上这些装备：" "挑降噪耳机主要看这几点：" "**对比基线**").
_NOTES_LEAD_RE = re.compile(
    r"留意|注意|这样[挑选]|怎么[挑选]|如何[挑选]|按(?:使用)?(?:场景|需求|用途|人群|预算|情况|口味)来?[挑选]|看这几点|几点建议|建议如下|记得带|带上|备好|清单|"
    r"必点|基线|对比(?!了)|要点|总结|提示|提醒|\b(?:tips?|checklist)\b|"
    # selection criteria before the picks: "主要可以考虑以下几点：" "可以先从这几个角度想一想："
    r"(?:以下|这|下面)几(?:点|个方面|个维度|个角度)|几个(?:方面|维度|角度)|标准如下",
    re.IGNORECASE,
)
# Lead-ins that set items aside ("下面这 3 款超出了 8000 元，已经帮您去掉：").
_EXCLUDED_LEAD_RE = re.compile(r"去掉|排除|剔除|超出|超过了?预算|不符合|不推荐|不建议|不考虑|没有?推荐|未推荐|没有?放进|未入选|落选|淘汰|"
                               r"没有?列入|未列入|考虑过但")
# Lead-ins that introduce the recommendations themselves ("推荐这 3 款" "为您精选以下 5 家"; a
# stated count of items too: "以下 3 款，注意价格会浮动：").
_RECOMMENDING_LEAD_RE = re.compile(r"(?<![不再])推荐(?!得)|精选")  # "为了推荐得更准" asks, it does not recommend
_CLASSIFIERS = "款家个本部处条道种座台只件首位站间所样套份"
_STATED_COUNT_RE = re.compile(
    rf"(?:(?<![不再])推荐|精选|挑选?了?|选了|以下|如下|这|只剩|列出|共)\s*(?:这|以下|了)?\s*"
    rf"(?P<n>\d{{1,2}}|[一二两三四五六七八九十]{{1,3}})\s*[{_CLASSIFIERS}]"
)


_CRITERIA_LEAD_RE = re.compile(r"(?:以下|这|下面)几(?:点|个方面|个维度|个角度)|几个(?:方面|维度|角度)|标准如下|"
                               # "先看这三个标准：" "记住这 3 点："
                               r"(?:以下|这|下面)\s*(?:\d{1,2}|[一二两三四五六七八九十])\s*(?:个|条)?\s*(?:点|标准|方面|维度|角度|原则|因素|要点)")


def criteria_lead(text: str) -> bool:
    """True when ``text`` introduces selection criteria ("可以先从这几个角度想一想："), never items."""
    return _CRITERIA_LEAD_RE.search(text) is not None


_REMARK_RE = re.compile(r"[（(][^）)\n]{0,40}[）)]")
_RECOMMENDS_BEFORE_RE = re.compile(r"(?<![不再没别])(?:推荐|主推|首推|精选)")


def excluded_lead(text: str) -> bool:
    """True when ``text`` sets the items after it aside ("以下几款已排除：" "有几款考虑过，但没有放进主推："),
    not when it recommends them and restates what it left out ("主推 5 款（已排除小米）")."""
    text = _REMARK_RE.sub("", text)
    found = _EXCLUDED_LEAD_RE.search(text)
    return found is not None and _RECOMMENDS_BEFORE_RE.search(text, 0, found.start()) is None


def notes_lead(text: str) -> bool:
    """True when ``text``, the line right before a list, introduces notes, advice, criteria, a
    checklist or exclusions rather than the recommendations ("买之前可以留意这几点：" "下面这 3 款
    超出了 8000 元，已经帮您去掉："), whether a label or a sentence."""
    if notes_label(text) or excluded_lead(text):
        return True
    recommending = _RECOMMENDING_LEAD_RE.search(text) is not None or stated_count(text) is not None
    return _NOTES_LEAD_RE.search(text) is not None and not recommending


def stated_count(text: str) -> int | None:
    """The number of items a recommending lead-in announces ("推荐这 3 款" "以下 5 家"), or None —
    not the number of criteria ("先看这三个标准")."""
    if excluded_lead(text) or criteria_lead(text):
        return None
    match = _STATED_COUNT_RE.search(text)
    return to_int(match.group("n")) if match else None
