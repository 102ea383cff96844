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

from gate import lexicon
from gate.lexicon import LINE_BREAK, charset, source
from gate.text.cues import attribute, closing, notes_label
from gate.text.deferred import deferred
from gate.text.entities import key, known_as
from gate.text.item import Item, ItemList
from gate.text.markdown import MarkdownDoc
from gate.text.names import kept_bold, split_name
from gate.text.prices import find_prices
from gate.text.terms import fold

# The words are the lexicon's: ``by_the_way``, ``adds_a_pick`` and ``pick_label`` open a passage that
# adds, ``suggests`` recommends in it. Each pattern is matched at the start of a passage (after emoji
# and marks), each alternative a literal or a short bounded class: linear.
_adding_re = deferred(lambda: rf"^[\W_]{{0,8}}{source('by_the_way')}?{charset('comma')}?\s*{source('adds_a_pick')}",
                      re.IGNORECASE)


def _label_pattern() -> str:
    before_colon = charset("colon", "comma", "full_stop", "open_bracket", also=r"\n", negated=True)
    remark = rf"{charset('open_bracket')}{charset('close_bracket', also=LINE_BREAK, negated=True)}{{0,24}}{charset('close_bracket')}"
    near_colon = charset("colon", "comma", "full_stop", also=r"\n", negated=True)
    # "备选（稍超预算，但体验好很多）：" — a remark in brackets before the colon
    return (rf"^[\W_]{{0,8}}{source('by_the_way')}?{source('pick_label')}{before_colon}{{0,8}}(?:{remark})?"
            rf"{near_colon}{{0,4}}{charset('colon')}\s*(?P<rest>.*)$")


# A label that is itself a recommendation ("备选：森海塞尔 Momentum 4", "🎁 彩蛋推荐：…").
_label_re = deferred(_label_pattern, re.IGNORECASE)
_name_end_re = deferred(lambda: charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark",
                                        "open_bracket"))


def _subject_pattern() -> str:
    clause = charset("comma", "full_stop", also=r"\n", negated=True)
    name = charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark", "open_bracket", also=r"\n",
                   negated=True)
    remark = rf"(?:{charset('open_bracket')}{charset('close_bracket', also=LINE_BREAK, negated=True)}{{0,24}}{charset('close_bracket')})?"
    # "另外，X 也值得考虑" and, without the comma, "另外 X（1999 元）也值得看": the adding word is no part of the name
    return (rf"^(?:{clause}{{0,14}}{charset('comma')}\s*){{0,2}}?(?:{source('by_the_way')}?{source('adds_a_pick')}\s*)?"
            rf"(?P<name>{name}{{2,30}}?)\s*{remark}\s*{source('also_recommended')}")


# Unmarked names: "另外，森海塞尔 Momentum 4 也值得考虑", "另外，如果你在北方，雾灵山和白河湾也很适合露营",
# "还可以看看新疆的喀纳斯，…". Bounded windows.
_subject_re = deferred(_subject_pattern)
# "雾灵山和白河湾": two names, each of two characters or more ("和府捞面" is one).
_and_re = deferred(lambda: rf"(?<=\S{{2}})\s*{source('and_word')}\s*(?=\S{{2}})")


def _object_pattern() -> str:
    name = charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark", also=r"\n", negated=True)
    return rf"{source('names_a_pick')}\s*(?P<name>{name}{{2,24}})"


_object_re = deferred(_object_pattern)
_not_a_name_re = deferred(lambda: rf"^{source('not_a_name')}")


def _names(raw: str) -> list[str]:
    """The names a passage recommends: its bold spans kept by their clauses, else the name a label
    gives ("备选：森海塞尔 Momentum 4，…" → 森海塞尔 Momentum 4), else an unmarked name it recommends
    ("另外，X 也值得考虑", "还可以看看 X")."""
    names = kept_bold(raw)
    if names:
        return names
    first = raw.split("\n", 1)[0]
    label = _label_re().match(first)
    if label is not None:
        end = _name_end_re().search(label.group("rest"))
        name = (label.group("rest")[: end.start()] if end else label.group("rest")).strip()
        return [name] if 0 < len(name) <= 40 else []
    unmarked = _subject_re().match(first) or _object_re().search(first)
    name = unmarked.group("name").strip() if unmarked else ""
    if name and not _not_a_name_re().match(name):
        return [part for part in _and_re().split(name) if part]
    # "如果预算能再加一点，Bose QuietComfort Ultra（约 2999 元）的降噪会更强，也很值得考虑": a product named
    # by its Latin brand and model, wherever it stands in the clause that adds it
    latin = _LATIN_NAME_RE.search(first)
    return [latin.group(0)] if latin else []


_LATIN_NAME_RE = re.compile(r"(?<![A-Za-z0-9])[A-Z][A-Za-z0-9]*(?:[ \-][A-Z0-9][A-Za-z0-9]*){1,5}(?![A-Za-z0-9])")
"""A brand and its model in Latin letters ("Bose QuietComfort Ultra", "Redmi Buds 5 Pro"): two words or
more, each capitalised or a number."""


# Where or how to buy, not what: 「也可以考虑官方翻新或二手机」 「可以看看京东自营」. A model named
# with it ("二手 ThinkPad T480") is an item.
_channel_only_re = deferred(lambda: rf"^{source('buying_channel')}+$")


def _new(name: str, known: list[str], seen: set[str]) -> bool:
    """A name not yet listed, and no label: a notes label, an attribute, the adding label itself
    ("**也可以考虑**" "**附近还可以顺路去**"), or a place to buy."""
    folded = fold(name)
    return (bool(folded) and folded not in seen and not notes_label(name) and not attribute(name)
            and _adding_re().match(name) is None and _channel_only_re().match(name) is None
            and not known_as(key(name), known))


def _passage_item(name: str, text: str, line: int) -> Item:
    start = text.find(name)
    body = text[start:] if start >= 0 else text
    name_part, description = split_name(body.split("\n", 1)[0], name)
    return Item(name=name_part or name, description=description, text=body, line=line,
                prices=tuple(find_prices(body)), named=True)


def _other_picks_label_pattern() -> str:
    clause = charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark", also=r"\n", negated=True)
    return rf"^{clause}{{0,16}}{source('other_picks')}{clause}{{0,6}}$"


# A short label naming other picks anywhere in it ("### 💰 预算再低一点的平替", "升级之选").
_other_picks_label_re = deferred(_other_picks_label_pattern)
_LABEL_MARKS = " #*_"


def _adds(text: str) -> bool:
    """A passage that opens by adding a recommendation and recommends in it, or a label of other picks."""
    first = text.lstrip()
    if closing(first) or lexicon.pattern("follow_up_offer").search(first.split("\n", 1)[0]):
        return False  # "如果你主要用 iPhone，也可以告诉我，我再帮你看看…" offers more help, it adds no pick
    label = first.split("\n", 1)[0].strip(_LABEL_MARKS + "".join(lexicon.words("colon")))
    if _other_picks_label_re().match(label) is not None:
        return True
    if _adding_re().match(first) is None:
        return False
    return _label_re().match(first.split("\n", 1)[0]) is not None or lexicon.pattern("suggests").search(first) is not None


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


# A clause that recommends strongly (``recommends_strongly``), or a passage labelled as the
# recommendation or its summary (``summary_label``): the new names it gives are picks.
_summary_label_re = deferred(lambda: rf"^[\W_]{{0,8}}{source('summary_label')}"
                                     rf"{charset('colon', also=LINE_BREAK, negated=True)}{{0,4}}{charset('colon')}")
_clause_re = deferred(lambda: charset("full_stop", "semicolon", "exclamation_mark", "question_mark", also=r"\n",
                                      negated=True) + "+")
def _recommended_in_prose(raw: str, text: str, line: int, mentioned: Sequence[Item]) -> list[Item]:
    """What a later paragraph recommends without opening by adding: a bold name in a clause that
    recommends it strongly, or in a passage labelled as the recommendation ("**一句话推荐**：…"), and
    an entry another structure only mentioned, named again in a clause that recommends it ("安卓用户也
    可以看看表里的华为 FreeBuds Pro 4") — unless the clause sets it aside after ("……但超预算")."""
    labelled = _summary_label_re().match(raw.lstrip()) is not None
    found: list[Item] = []
    for clause in _clause_re().finditer(raw):
        words = clause.group()
        for name in kept_bold(words):
            if _summary_label_re().match(name + lexicon.words("colon")[0]):
                continue  # the label itself
            rest = words[words.find(name) + len(name):]
            set_aside = lexicon.pattern("entry_sets_aside").search(rest)
            if (labelled or lexicon.pattern("recommends_strongly").search(rest)) and not set_aside:
                found.append(_passage_item(name, text, line))
        if lexicon.pattern("suggests").search(words) is None:
            continue
        folded = fold(words)
        for item in mentioned:
            name = fold(item.name)
            after = folded[folded.find(name) + len(name):]
            if len(name) >= 2 and name in folded and not lexicon.pattern("entry_sets_aside").search(after):
                found.append(item)
    return found


_MENTIONED = 50
"""Entries of other structures looked for in each clause: a bounded number, so that a hostile answer
with thousands of entries and clauses stays linear."""
