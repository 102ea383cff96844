"""An item's name and description, read from its first line: a bold lead, else text before a separator."""

from __future__ import annotations

from gate.text.terms import fold

SEPARATORS = ("：", ":", " - ", " — ", "——", " – ", "—", "｜", "|")
_WEAK_SEPARATORS = ("，", ",", "（", "(")
_NAME_MAX_CHARS = 30


def split_name(head: str, bold: str | None = None) -> tuple[str, str]:
    """Name and description of an item's first line: bold lead, else text before a separator."""
    head = head.strip()
    if bold and head.startswith(bold):
        rest = head[len(bold) :].lstrip(" ：:-—–|｜，,")
        return bold.strip(), rest.strip()
    for separators in (SEPARATORS, _WEAK_SEPARATORS):
        positions = [(head.find(sep), sep) for sep in separators if head.find(sep) > 0]
        if positions:
            index, sep = min(positions)
            return head[:index].strip(), head[index + len(sep) :].strip()
    return head, ""


def named(head: str, bold: str | None = None) -> str | None:
    """The folded name when ``head`` reads like "name: description" or starts bold, else None.

    A sub-point such as "龙虾很新鲜" has no name; "**鹿回头海鲜楼**：人均 280 元" and "人均：280 元"
    do (the latter an attribute, recognised when the same name recurs across items).
    """
    head = head.strip()
    if bold and head.startswith(bold):
        return fold(bold.strip()) or None
    name, rest = split_name(head)
    if rest and 0 < len(name) <= _NAME_MAX_CHARS and any(sep in head for sep in SEPARATORS):
        return fold(name)
    return None
