"""An item's name and description, read from its first line: a bold lead, else text before a separator."""

from __future__ import annotations

import re
from functools import cache

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.deferred import deferred
from gate.text.terms import fold
from gate.text.units import count


def separators() -> tuple[str, ...]:
    """What ends an item's name on its first line ("：" " - " "｜")."""
    return lexicon.words("name_separator")


@cache
def _weak_separators() -> tuple[str, ...]:
    """A comma or an opening bracket, which ends a short name only."""
    return lexicon.words("comma") + lexicon.words("open_bracket")


@cache
def _after_bold() -> str:
    """What may stand between a bold name and its description: separators, commas and spaces."""
    return "".join(dict.fromkeys("".join((*separators(), *lexicon.words("comma")))))

_NAME_MAX_CHARS = 30
# Before a weak separator only a short name is a name: "塔公草原位于四川甘孜州康定市，海拔……" is a
# sentence, all of it description.
_WEAK_NAME_MAX = 12  # ideographs, a Latin word counting one ("Bose QC Ultra 耳塞" is 5)


def _first(head: str, separators: tuple[str, ...]) -> tuple[int, str] | None:
    positions = [(head.find(sep), sep) for sep in separators if head.find(sep) > 0]
    return min(positions) if positions else None


def _labels_a_pick(text: str) -> bool:
    """A label before the pick itself ("备选", "首选", "推荐")."""
    return any(lexicon.pattern(word_class).fullmatch(text.strip()) for word_class in ("other_picks", "recommendation_label"))


def split_name(head: str, bold: str | None = None) -> tuple[str, str]:
    """Name and description of an item's first line: bold lead, else text before a separator
    ("：" " - "), else a short name before "，" or "（"; a sentence is all description."""
    head = head.strip()
    if bold and head.startswith(bold):
        rest = head[len(bold) :].lstrip(_after_bold())
        inside = _first(bold, separators())
        if inside:  # the bold covers name and description ("**Bose QC Ultra：降噪最强**")
            index, sep = inside
            covered = bold[index + len(sep) :].strip()
            if covered and _labels_a_pick(bold[:index]):  # "**备选：京兆尹（雍和宫店）**": the label's pick
                return covered, rest.strip()
            return bold[:index].strip(), " ".join(part for part in (covered, rest.strip()) if part)
        return bold.strip(), rest.strip()
    found = _first(head, separators())
    if found:
        index, sep = found
        name, rest = head[:index].strip(), head[index + len(sep) :].strip()
        picked = _first(rest, _weak_separators()) if lexicon.pattern("condition_label").match(name) else None
        if picked:  # "从上海出发：苏州，园林和平江路": the pick follows its condition
            return rest[: picked[0]].strip(), rest[picked[0] + len(picked[1]) :].strip()
        return name, rest
    found = _first(head, _weak_separators())
    if found:
        index, sep = found
        name = head[:index].strip()
        if count(name, "mixed") <= _WEAK_NAME_MAX and not lexicon.pattern("sentence_verb").search(name):
            return name, head[index + len(sep) :].strip()
        return name, head
    return head, ""


def named(head: str, bold: str | None = None) -> str | None:
    """The folded name when ``head`` reads like "name: description" or starts bold, else None.

    A sub-point such as "龙虾很新鲜" has no name; "**鹿回头海鲜楼**：人均 280 元" and "人均：280 元"
    do (the latter an attribute, recognised when the same name recurs across items).
    """
    head = head.strip()
    if bold and head.startswith(bold):
        return fold(split_name(head, bold)[0]) or None
    name, rest = split_name(head)
    if rest and 0 < len(name) <= _NAME_MAX_CHARS and any(sep in head for sep in separators()):
        return fold(name)
    return None


# A name slot that says who or what the item is for, not what it is: "给爸爸" "送长辈" "商务之选".
_scene_label_re = deferred(lambda: rf"^{source('gift_for')}\S{{1,8}}$|^\S{{1,8}}{source('choice_for')}$"
                                   rf"|^{source('recipient')}$")
_clause_end_re = deferred(lambda: charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark",
                                          "open_bracket", also=r"\n"))


def called(name: str, description: str) -> str:
    """What an item is called: its name, and when the name only labels a recipient or a scene
    ("**给爸爸**：天梭力洛克机械手表，约 980 元") also the first clause of its description."""
    if not _scene_label_re().search(name.strip()):
        return name
    first = _clause_end_re().split(description.strip(), maxsplit=1)[0].strip()
    return f"{name} {first}".strip()


_BOLD_SPAN_RE = re.compile(r"(\*\*|__)(?P<bold>[^*_\n]+?)\1")
# A bold span its clause sets aside ("我不推荐**苹果**" "除了**火锅**") is no recommendation.
_clause_break_re = deferred(lambda: charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark",
                                            also=r"\n"))
_CLAUSE_WINDOW = 40  # how far back a set-aside word is looked for: a clause, not the paragraph
_SPANS = 50  # bold spans a title is tested against: bounded, so a hostile paragraph stays linear


def _title_pattern() -> str:
    inside = charset("title_close", also=r"\n", negated=True)
    return rf"(?P<bold>{charset('title_open')}{inside}{{1,40}}{charset('title_close')})"


_title_re = deferred(_title_pattern)  # a book or film named by its title marks


def kept_bold(raw: str, *, titles: bool = False) -> list[str]:
    """The bold spans of Markdown ``raw`` (with ``titles``, and the 《titles》 outside them), in
    order, that their clause does not set aside."""
    matches = list(_BOLD_SPAN_RE.finditer(raw))
    if titles:
        spans = [(m.start(), m.end()) for m in matches]
        matches += [m for m in _title_re().finditer(raw) if not any(a <= m.start() < b for a, b in spans[:_SPANS])]
        matches.sort(key=lambda m: m.start())
    found = []
    for match in matches:
        clause = _clause_break_re().split(raw[max(0, match.start() - _CLAUSE_WINDOW):match.start()])[-1]
        name = match.group("bold").strip()
        if name and lexicon.pattern("clause_sets_aside").search(clause) is None:
            found.append(name)
    return found


_namelike_re = deferred(lambda: rf"[A-Za-z0-9]|^{charset('title_open')}|{source('place_name_end')}")


def namelike(name: str) -> bool:
    """True when a bold span reads as a product or place name, not as bold advice."""
    return _namelike_re().search(name) is not None
