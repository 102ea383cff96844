"""Product cards: picks laid out as emoji-led lines, as shopping and travel assistants write them.

    🎧 Bose QuietComfort Ultra          📍 安吉江南天池（浙江）｜高山湖泊营地
    💰 券后 ¥2,699｜降噪深度顶级          📍 莫干山（浙江）｜竹林营地

A bullets reading takes every emoji line for an entry, so a card of a name line and a price line is
two "picks". Read as a reader sees it: when the blocks (lines without a blank between them) are
cards alike — each opening with the same glyph, or each going on with the same glyphs (💰 then ✨) —
each block is one card, its first line the pick and the rest its details, and a lone line beside
them a remark; otherwise the glyph most lines share marks the picks and the other lines are a
title or a pick's details; where the glyphs all differ, lines that each name a pick are picks,
blocks that open with a name are cards, and anything else is one card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from gate import lexicon
from gate.lexicon import charset
from gate.text.cues import BULLET_RE, attribute, notes_label
from gate.text.deferred import deferred
from gate.text.item import Item, ItemList
from gate.text.markdown import MarkdownDoc
from gate.text.prices import find_prices


def _glyph(line: str) -> str:
    found = BULLET_RE.match(line)
    return found.group(0).strip() if found else ""


def _blocks(items: tuple[Item, ...], doc: MarkdownDoc) -> list[list[Item]]:
    """The entries in runs of adjacent lines (no blank line between)."""
    blocks: list[list[Item]] = []
    for item in items:
        previous = blocks[-1][-1] if blocks else None
        gap = previous is not None and any(not doc.lines[n - 1].strip() for n in range(previous.line + 1, item.line)
                                           if 0 < n <= len(doc.lines))
        if previous is None or gap or item.line <= previous.line:
            blocks.append([item])
        else:
            blocks[-1].append(item)
    return blocks


def _card(entries: list[Item]) -> Item:
    """One pick from its name entry and its detail entries."""
    head, details = entries[0], entries[1:]
    text = "\n".join(entry.text for entry in entries)
    description = " ".join(part for part in (head.description, *(d.text for d in details)) if part)
    return replace(head, description=description, text=text, prices=tuple(find_prices(text)))


def read_cards(found: ItemList, doc: MarkdownDoc) -> ItemList:
    """``found`` (a bullets reading) with its emoji cards read as one pick each; unchanged otherwise."""
    if found.source != "bullets" or len(found.items) < 2:
        return found
    glyphs = {item.line: _glyph(doc.lines[item.line - 1]) if 0 < item.line <= len(doc.lines) else ""
              for item in found.items}
    if not all(glyphs.values()) or len(set(glyphs.values())) < 2:
        return found  # one glyph for every line: a plain list
    # a block that opens with a remark ("⚠️ 说明：…") is a note under the cards, not one of them
    blocks = [block for block in _blocks(found.items, doc) if not _remark(block[0].text)]
    if not blocks:
        return found
    entries = [item for block in blocks for item in block]
    if all(_priced_pick(doc.lines[item.line - 1]) for item in entries if 0 < item.line <= len(doc.lines)):
        return found  # "🥟 【钟水饺】… ｜券后 ¥19.9" line after line: a pick each, whatever the glyphs
    shaped = [block for block in blocks if len(block) > 1]
    same_head = len({glyphs[block[0].line] for block in shaped}) == 1
    same_tail = len({tuple(glyphs[item.line] for item in block[1:]) for block in shaped}) == 1
    if len(shaped) >= 2 and (same_head or same_tail):
        # cards alike — 🍵 name / 💰 price / ✨ why, again and again; a lone line beside them is a remark
        cards = [_card(block) for block in shaped]
    elif len(blocks) >= 2 and len({glyphs[block[0].line] for block in blocks}) == 1:
        cards = [_card(block) for block in blocks]
    else:
        mark, times = Counter(glyphs[item.line] for item in entries).most_common(1)[0]
        if times < 2:
            cards = _every_glyph_different(blocks)
        else:
            cards, current = [], list[Item]()
            for item in entries:
                if glyphs[item.line] == mark:
                    if current:
                        cards.append(_card(current))
                    current = [item]
                elif current:  # a detail of the pick above; lines before the first pick are a title
                    current.append(item)
            cards.append(_card(current))
    return replace(found, items=tuple(cards))


# A line that opens with a marked name — 【钟水饺】, **Bose QC Ultra** — after its glyph.
_marked_name_re = deferred(lambda: rf"\s*(?:\*\*|{charset('label_open')})")


def _priced_pick(line: str) -> bool:
    """The line names a pick and prices it: a pick of its own, not a card's name or detail line."""
    glyph = BULLET_RE.match(line)
    rest = line[glyph.end():] if glyph else line
    return _marked_name_re().match(rest) is not None and bool(find_prices(rest))


def _names_a_pick(item: Item) -> bool:
    return item.named and not attribute(item.name) and lexicon.pattern("call_to_action").match(item.name) is None


def _every_glyph_different(blocks: list[list[Item]]) -> list[Item]:
    """Lines whose glyphs all differ: lines that each name a pick ("🏯 苏州 ｜ 园林古城" / "🌊 舟山 ｜ …")
    are a pick each; else blocks that open with a name ("🦆 **四季民福** ｜ 人均 ¥198" and its blurb)
    are a card each, a title or a footer beside them a remark; else it is all one card
    ("🏮 **京兆尹**" / "💰 人均 ¥268" / "📍 五道营胡同 2 号")."""
    listed = [item for block in blocks if len(block) >= 2 and all(map(_names_a_pick, block)) for item in block]
    if listed:
        return listed
    headed = [block for block in blocks if _names_a_pick(block[0])]
    if len(headed) >= 2:
        return [_card(block) for block in headed]
    return [_card([item for block in blocks for item in block])]


def _remark(text: str) -> bool:
    return notes_label(text) or lexicon.pattern("note_row").match(text.strip()) is not None
