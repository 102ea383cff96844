"""What an answer recommends after its main list: 「另外，X 也值得考虑」, 「备选：…」, 「🎁 彩蛋推荐」,
「预算更充足的话，可以看看 X」, or a later section of other picks after 「为你推荐 3 款：」.

Each is a recommended item like those of the main list, so counts, prices and forbidden terms see
it. A later passage is read as one only when it opens with a word that adds a recommendation and
recommends something in it (a bold name, or the name a label such as 「备选：」 gives); a passage that
only speaks of the items already listed, sets a name aside (「不推荐**X**」) or closes the answer
(「以上三款……」) adds nothing, and nor does a name already listed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice

from gate.text.cues import attribute, closing, notes_label
from gate.text.entities import SETS_ASIDE_RE as _SETS_ASIDE_RE
from gate.text.entities import key, known_as
from gate.text.item import Item, ItemList
from gate.text.markdown import MarkdownDoc
from gate.text.names import kept_bold, split_name
from gate.text.prices import find_prices
from gate.text.terms import fold

# Words that name other picks, in a label or at the start of a passage.
_OTHER_PICKS = "备选|候补|候选|平替|替代|进阶|升级"
# Words that open a passage adding to the recommendations. Matched at the start of a passage (after
# emoji and marks), each alternative a literal or a short bounded class: linear.
_ADDING_RE = re.compile(
    r"^[\W_]{0,8}(?:最后|对了|顺带|哦对)?[，,]?\s*(?:另外|此外|其次|还有|再推荐|再补充|补充|加推|额外|顺便|顺路|附近还|彩蛋|bonus|番外|"
    rf"{_OTHER_PICKS}|其[他它](?:选择|推荐|备选|可选)|更多(?:选择|推荐)|也可以考虑|也可考虑|也值得|"
    r"如果[^，,。\n]{0,8}?(?:预算|时间)|(?:预算|时间)[^，,。\n]{0,4}?(?:充足|宽裕|多|高|允许|够|充裕)|想要更好|追求更好|"
    r"土豪|不差钱)",
    re.IGNORECASE,
)
# A label that is itself a recommendation ("备选：森海塞尔 Momentum 4", "🎁 彩蛋推荐：…").
_LABEL_RE = re.compile(
    rf"^[\W_]{{0,8}}(?:最后|对了)?(?:{_OTHER_PICKS}|彩蛋|bonus|番外|加推|再?补充一[个家款处本部]|补充推荐|再加一[个家款处]|"
    r"附近还可以|顺路(?:还可以)?去?)"
    # "备选（稍超预算，但体验好很多）：" — a remark in brackets before the colon
    r"[^：:，,。\n（(]{0,8}(?:[（(][^）)\n]{0,24}[）)])?[^：:，,。\n]{0,4}[：:]\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
# A passage that adds a recommendation says so (推荐, 值得, 可以看看 …); one that only adds a fact does not.
_RECOMMENDS_RE = re.compile(r"(?<![不别])(?:推荐|考虑|看看|值得|不错|首选|可以选|可以上|可以冲|入手|试试|选择|顺路去|可以去|"
                            r"(?:也|同样|还)(?:很|挺|非常|都)?适合)")
_NAME_END_RE = re.compile(r"[，,。；;！!？?（(]")


# Unmarked names: "另外，森海塞尔 Momentum 4 也值得考虑", "另外，如果你在北方，雾灵山和白河湾也很适合露营",
# "还可以看看新疆的喀纳斯，…". Bounded windows.
_SUBJECT_RE = re.compile(r"^(?:[^，,。\n]{0,14}[，,]\s*){1,2}?(?P<name>[^，,。；;！!？?\n]{2,30}?)\s*(?:也|同样|还)(?:很|挺|非常)?"
                         r"(?:值得|不错|可以考虑|推荐|是不错|适合)")
# "雾灵山和白河湾": two names, each of two characters or more ("和府捞面" is one).
_AND_RE = re.compile(r"(?<=\S{2})\s*(?:和|与|及|、|以及)\s*(?=\S{2})")
_OBJECT_RE = re.compile(r"(?:可以看看|看看|考虑一下|可以考虑|也可以去|可以去|试试|入手|值得一提的是|要提的是|推荐的是)\s*"
                        r"(?P<name>[^，,。；;！!？?\n]{2,24})")
_NOT_A_NAME_RE = re.compile(r"^(?:这|那|它|以上|上面|上述|其他|其它|别的|更多|一下|其中)")


def _names(raw: str) -> list[str]:
    """The names a passage recommends: its bold spans kept by their clauses, else the name a label
    gives ("备选：森海塞尔 Momentum 4，…" → 森海塞尔 Momentum 4), else an unmarked name it recommends
    ("另外，X 也值得考虑", "还可以看看 X")."""
    names = kept_bold(raw)
    if names:
        return names
    first = raw.split("\n", 1)[0]
    label = _LABEL_RE.match(first)
    if label is not None:
        end = _NAME_END_RE.search(label.group("rest"))
        name = (label.group("rest")[: end.start()] if end else label.group("rest")).strip()
        return [name] if 0 < len(name) <= 40 else []
    unmarked = _SUBJECT_RE.match(first) or _OBJECT_RE.search(first)
    name = unmarked.group("name").strip() if unmarked else ""
    return [part for part in _AND_RE.split(name) if part] if name and not _NOT_A_NAME_RE.match(name) else []


# Where or how to buy, not what: 「也可以考虑官方翻新或二手机」 「可以看看京东自营」. A model named
# with it ("二手 ThinkPad T480") is an item.
_CHANNEL_ONLY_RE = re.compile(r"^(?:官方|翻新|官翻|二手|闲鱼|海淘|教育优惠|学生优惠|以旧换新|国补|分期|京东|自营|淘宝|天猫|"
                              r"拼多多|官网|线下|门店|实体店|渠道|平台|或者|以及|[的或和与及、/\s]|机器?|电脑|笔记本|产品|商品|货|版)+$")


def _new(name: str, known: list[str], seen: set[str]) -> bool:
    """A name not yet listed, and no label: a notes label, an attribute, the adding label itself
    ("**也可以考虑**" "**附近还可以顺路去**"), or a place to buy."""
    folded = fold(name)
    return (bool(folded) and folded not in seen and not notes_label(name) and not attribute(name)
            and _ADDING_RE.match(name) is None and _CHANNEL_ONLY_RE.match(name) is None
            and not known_as(key(name), known))


def _passage_item(name: str, text: str, line: int) -> Item:
    start = text.find(name)
    body = text[start:] if start >= 0 else text
    name_part, description = split_name(body.split("\n", 1)[0], name)
    return Item(name=name_part or name, description=description, text=body, line=line,
                prices=tuple(find_prices(body)), named=True)


# A short label naming other picks anywhere in it ("### 💰 预算再低一点的平替", "升级之选").
_OTHER_PICKS_LABEL_RE = re.compile(rf"^[^，,。；;！!？?\n]{{0,16}}(?:{_OTHER_PICKS})[^，,。；;！!？?\n]{{0,6}}$")


def _adds(text: str) -> bool:
    """A passage that opens by adding a recommendation and recommends in it, or a label of other picks."""
    first = text.lstrip()
    if closing(first):
        return False
    if _OTHER_PICKS_LABEL_RE.match(first.split("\n", 1)[0].strip(" #*_：:")) is not None:
        return True
    if _ADDING_RE.match(first) is None:
        return False
    return _LABEL_RE.match(first.split("\n", 1)[0]) is not None or _RECOMMENDS_RE.search(first) is not None


def extra_items(doc: MarkdownDoc, main: ItemList, later: Sequence[ItemList], leads: dict[int, str]) -> list[Item]:
    """The items recommended after ``main``: those of later candidates whose lead-in adds to the
    recommendations (``leads``: a candidate's line → the text right before it), and the names of
    later paragraphs that add one."""
    end = max((item.line + item.text.count("\n") for item in main.items), default=main.line)
    known = [key(item.name) for item in main.items]
    seen = set(known)
    found: list[Item] = []

    def add(item: Item) -> None:
        found.append(item)
        known.append(key(item.name))
        seen.add(fold(item.name))

    for candidate in later:
        lead = leads.get(candidate.line, "")
        if candidate.line > end and lead and _adds(lead):
            for item in candidate.items:
                if _new(item.name, known, seen):
                    add(item)
    # the entries of other structures a later clause may recommend again: a bounded number, taken once
    mentioned = list(islice((item for candidate in later for item in candidate.items), _MENTIONED))
    for block in doc.flow:  # list paragraphs are inside list blocks: only free paragraphs are read here
        if block.kind != "paragraph" or block.line <= end:
            continue
        raw = "\n".join(doc.lines[block.line - 1 : block.end_line])
        if _adds(raw):
            for name in _names(raw):
                if _new(name, known, seen):
                    add(_passage_item(name, block.text, block.line))
        elif not closing(raw.lstrip()):
            for item in _recommended_in_prose(raw, block.text, block.line, mentioned):
                if _new(item.name, known, seen):
                    add(item)
    return found


# A clause that recommends strongly, whatever opens its passage ("**新荣记** 是更合适的选择" "X 也值得一去").
_STRONG_RE = re.compile(r"(?<![不别没])(?:(?:是|为)(?:更|最|很|非常|一个)?(?:好|合适|棒|稳妥|不错|值得)的?(?:选择|之选)|"
                        r"首推|强烈推荐|更推荐|我推荐|也推荐|值得(?:一去|一试|入手|考虑|买)|可以看看|也可以考虑)")
# A passage labelled as the recommendation or its summary: the new names it gives are picks.
_SUMMARY_LABEL_RE = re.compile(r"^[\W_]{0,8}(?:一句话(?:推荐|总结)|总结|结论|小结|最终推荐|我的推荐)[^：:\n]{0,4}[：:]")
_CLAUSE_RE = re.compile(r"[^。；;！!？?\n]+")


def _recommended_in_prose(raw: str, text: str, line: int, mentioned: Sequence[Item]) -> list[Item]:
    """What a later paragraph recommends without opening by adding: a bold name in a clause that
    recommends it strongly, or in a passage labelled as the recommendation ("**一句话推荐**：…"), and
    an entry another structure only mentioned, named again in a clause that recommends it ("安卓用户也
    可以看看表里的华为 FreeBuds Pro 4") — unless the clause sets it aside after ("……但超预算")."""
    labelled = _SUMMARY_LABEL_RE.match(raw.lstrip()) is not None
    found: list[Item] = []
    for clause in _CLAUSE_RE.finditer(raw):
        words = clause.group()
        for name in kept_bold(words):
            if _SUMMARY_LABEL_RE.match(f"{name}："):
                continue  # the label itself
            rest = words[words.find(name) + len(name):]
            if (labelled or _STRONG_RE.search(rest)) and not _SETS_ASIDE_RE.search(rest):
                found.append(_passage_item(name, text, line))
        if _RECOMMENDS_RE.search(words) is None:
            continue
        folded = fold(words)
        for item in mentioned:
            name = fold(item.name)
            if len(name) >= 2 and name in folded and not _SETS_ASIDE_RE.search(folded[folded.find(name) + len(name):]):
                found.append(item)
    return found


_MENTIONED = 50
"""Entries of other structures looked for in each clause: a bounded number, so that a hostile answer
with thousands of entries and clauses stays linear."""
