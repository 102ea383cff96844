"""An item's name and description, read from its first line: a bold lead, else text before a separator."""

from __future__ import annotations

import re

from gate.text.terms import fold
from gate.text.units import count

SEPARATORS = ("：", ":", " - ", " — ", "——", " – ", "—", "｜", "|")
_WEAK_SEPARATORS = ("，", ",", "（", "(")
_NAME_MAX_CHARS = 30
# Before a weak separator only a short name is a name: "塔公草原位于四川甘孜州康定市，海拔……" is a
# sentence, all of it description.
_WEAK_NAME_MAX = 12  # ideographs, a Latin word counting one ("Bose QC Ultra 耳塞" is 5)
_SENTENCE_RE = re.compile(r"是|位于|有|在")


def _first(head: str, separators: tuple[str, ...]) -> tuple[int, str] | None:
    positions = [(head.find(sep), sep) for sep in separators if head.find(sep) > 0]
    return min(positions) if positions else None


def split_name(head: str, bold: str | None = None) -> tuple[str, str]:
    """Name and description of an item's first line: bold lead, else text before a separator
    ("：" " - "), else a short name before "，" or "（"; a sentence is all description."""
    head = head.strip()
    if bold and head.startswith(bold):
        rest = head[len(bold) :].lstrip(" ：:-—–|｜，,")
        inside = _first(bold, SEPARATORS)
        if inside:  # the bold covers name and description ("**Bose QC Ultra：降噪最强**")
            index, sep = inside
            covered = bold[index + len(sep) :].strip()
            return bold[:index].strip(), " ".join(part for part in (covered, rest.strip()) if part)
        return bold.strip(), rest.strip()
    found = _first(head, SEPARATORS)
    if found:
        index, sep = found
        return head[:index].strip(), head[index + len(sep) :].strip()
    found = _first(head, _WEAK_SEPARATORS)
    if found:
        index, sep = found
        name = head[:index].strip()
        if count(name, "mixed") <= _WEAK_NAME_MAX and not _SENTENCE_RE.search(name):
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
    if rest and 0 < len(name) <= _NAME_MAX_CHARS and any(sep in head for sep in SEPARATORS):
        return fold(name)
    return None


# A name slot that says who or what the item is for, not what it is: "给爸爸" "送长辈" "商务之选".
_SCENE_LABEL_RE = re.compile(
    r"^(?:给|送给?|献给|推荐给|适合)\S{1,8}$|^\S{1,8}(?:之选|首选|优选|专属|必备)$"
    r"|^(?:爸爸|妈妈|父母|长辈|老人|爷爷|奶奶|外公|外婆|老公|老婆|男友|女友|男朋友|女朋友|孩子|同事|领导|老师|朋友|闺蜜|客户)$"
)
_CLAUSE_END_RE = re.compile(r"[，,。；;！!？?（(\n]")


def called(name: str, description: str) -> str:
    """What an item is called: its name, and when the name only labels a recipient or a scene
    ("**给爸爸**：天梭力洛克机械手表，约 980 元") also the first clause of its description."""
    if not _SCENE_LABEL_RE.search(name.strip()):
        return name
    first = _CLAUSE_END_RE.split(description.strip(), maxsplit=1)[0].strip()
    return f"{name} {first}".strip()


_BOLD_SPAN_RE = re.compile(r"(\*\*|__)(?P<bold>[^*_\n]+?)\1")
# A bold span its clause sets aside ("我不推荐**苹果**" "除了**火锅**") is no recommendation.
_SET_ASIDE_RE = re.compile(r"不|别|避|排除|除了|没")
_CLAUSE_WINDOW = 40  # how far back a set-aside word is looked for: a clause, not the paragraph
_SPANS = 50  # bold spans a title is tested against: bounded, so a hostile paragraph stays linear


_TITLE_RE = re.compile(r"(?P<bold>《[^》\n]{1,40}》)")  # a book or film named by its title marks


def kept_bold(raw: str, *, titles: bool = False) -> list[str]:
    """The bold spans of Markdown ``raw`` (with ``titles``, and the 《titles》 outside them), in
    order, that their clause does not set aside."""
    matches = list(_BOLD_SPAN_RE.finditer(raw))
    if titles:
        spans = [(m.start(), m.end()) for m in matches]
        matches += [m for m in _TITLE_RE.finditer(raw) if not any(a <= m.start() < b for a, b in spans[:_SPANS])]
        matches.sort(key=lambda m: m.start())
    found = []
    for match in matches:
        clause = re.split(r"[，,。；;！!？?\n]", raw[max(0, match.start() - _CLAUSE_WINDOW):match.start()])[-1]
        name = match.group("bold").strip()
        if name and _SET_ASIDE_RE.search(clause) is None:
            found.append(name)
    return found
