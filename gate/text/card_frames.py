"""Glyph-led lines that frame one list of picks — an in-product card's title and footer ("🎁 送长辈 ·
3 款精选" above a numbered list, "🚚 今日下单明天达" below it) — rather than label groups of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gate.text.cues import attribute
from gate.text.names import named, separators

if TYPE_CHECKING:
    from gate.text.markdown import ListBlock
    from gate.text.runs import Run

_LIST_PROBE = 8  # the first entries tell a list of picks from one of details
_CARD_DOT = " \u00b7 "


def _list_of_picks(found: ListBlock) -> bool:
    """A list whose entries each name a pick ("1. **🍵 西湖龙井礼盒** ¥588", "1. 🏯 **苏州**：园林古镇"),
    not details ("降噪：顶级")."""
    heads = [(item.head.split("\n", 1)[0], item.bold) for item in found.items[:_LIST_PROBE]]
    # a card's facts after its name, set apart by spaced dots ("⛺ 白河湾露营地 · 怀柔 · 86km")
    names = [named(head, bold) or named(head.replace(_CARD_DOT, separators()[0], 1), bold) for head, bold in heads]
    return len(heads) >= 2 and all(name is not None and not attribute(name) for name in names)


def frames_one_list(run: Run, lists: list[ListBlock]) -> bool:
    """Of the run's entries one owns a list of picks and the others none: they are a title and a
    footer, and the list under them is not their sub-points. Group labels each own a list
    ("🏮 **老牌名店**" / "1. …", "✨ **网红人气店**" / "1. …")."""
    by_line = {found.line: found for found in lists}
    owning = [e for e in run.entries if any(u.block_kind == "list" and u.line in by_line and _list_of_picks(by_line[u.line])
                                           for u in e.body)]
    return len(owning) == 1 and len(run.entries) > len(owning)
