"""Picks named by prose ordinals, no list markup: "首先是 Bose QC Ultra，…" "其次是…" "最后是…", a
paragraph each, or a sentence each within one ("第一款推荐 X，…；第二款是 Y，…；最后一款是 Z。")."""

from __future__ import annotations

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.alternatives import name_like
from gate.text.cues import attribute
from gate.text.deferred import deferred
from gate.text.item import Item, ItemList
from gate.text.markdown import MarkdownDoc
from gate.text.names import namelike
from gate.text.prices import find_prices


def _plain_pick(name: str) -> bool:
    """A name without a Latin model or a place word ("冒菜", "玉林路的串串香"), not a step of advice."""
    return name_like(name) and lexicon.pattern("advice_verb").match(name) is None



# Paragraphs that introduce products by prose ordinals: "首先是 Bose QC Ultra，…" "其次是…" "最后是…".
_ordinal_open_re = deferred(lambda: rf"^\s*(?P<word>(?P<first>{source('prose_ordinal_first')})|"
                                    rf"{source('prose_ordinal_next')}){source('measure_word')}?"
                                    rf"{source('introduces_pick')}?(?P<filler>{source('ordinal_filler')})?"
                                    rf"{source('introduces_pick')}?\s*{charset('comma')}?\s*")  # "首推玉林路的串串香", "第一家，四季民福", "第三个嘛，…"
# A name ends at a mark, or — in a transcript without marks — at a pause between two Chinese
# characters ("第一个推荐杭州 西湖边骑车…"; "漫步者 NeoBuds Pro 2" is one name).
_ordinal_name_end_re = deferred(lambda: rf"{charset('comma', 'full_stop', 'semicolon', 'colon', 'open_bracket')}"
                                        rf"|(?<={source('han')})\s+(?={source('han')})"
                                        # … or before a spoken amount ("AirPods Pro 2 一千八百九十九")
                                        rf"|\s+(?=(?:{source('price_hedge')}|{source('price_word')})?\s*"
                                        rf"{charset('cn_digit', 'cn_ten', 'cn_hundred', 'cn_thousand')}{{2,}})")

_sentence_break_re = deferred(lambda: rf"(?<={charset('full_stop', 'semicolon')})\s*"
                                      rf"|(?<=\S)\s*(?={source('circled_ordinal')})"  # "…：①乌敏岛营地，…②…"
                                      rf"|(?<={charset('comma', 'colon')})\s*(?=(?:{source('prose_ordinal_first')}|{source('prose_ordinal_next')})"
                                      rf"{source('measure_word')})"  # "一千块以内的笔记本，第一个是…", "推荐三款：第一款是…"
                                      # a transcript's pause: "…喝龙井 第二个是苏州…"
                                      rf"|(?<=\S)\s+(?=(?:{source('prose_ordinal_first')}|{source('prose_ordinal_next')})"
                                      rf"(?:{source('measure_word')}|{source('ordinal_filler')}))")


def _ordinal_segments(doc: MarkdownDoc) -> list[tuple[int, str]]:
    """Each paragraph's sentences (split after 。 and ；), with the paragraph's line: "第一款推荐 X，…；第二款
    是 Y，…；最后一款是 Z" names its picks one sentence at a time; a break between paragraphs is kept as
    an empty segment, so a run of ordinals stays within the passage that opens it."""
    found: list[tuple[int, str]] = []
    for block in doc.flow:
        if block.kind != "paragraph":
            found.append((block.line, ""))
            continue
        found += [(block.line, part) for part in _sentence_break_re().split(block.text) if part.strip()]
    return found


def ordinal_paragraphs(doc: MarkdownDoc) -> ItemList | None:
    """Two or more paragraphs or sentences in a row, the first opened by 首先/第一/首推, each naming a
    product or place after its ordinal: those are the items (no list markup needed)."""
    found: list[Item] = []
    unread = 0
    for line, text in _ordinal_segments(doc):
        match = _ordinal_open_re().match(text) if text else None
        if match is None or (not found and not match.group("first")):
            if len(found) >= 2:
                break
            found = []
            continue
        rest = text[match.end():]
        end = _ordinal_name_end_re().search(rest)
        name = (rest[: end.start()] if end else rest.split("\n", 1)[0]).strip()
        # after a filler ("第三个嘛，…") a speaker muses: only a clear name is taken for one
        plain = _plain_pick(name) and not match.group("filler")
        readable = bool(name) and len(name) <= 40 and not attribute(name) and (namelike(name) or plain)
        if not readable and len(found) < 2:
            found = []
            continue
        found.append(_pick(name or match.group(0).strip(), rest, line))
        if not readable:
            # The ordinal announces one more pick, but its clause ("魔都其实也不错", "看你想不想排队")
            # is no name the reader can take: it stands as the name, and the run ends here.
            unread = 1
            break
    return ItemList("ordinals", tuple(found), found[0].line, unread_picks=unread) if len(found) >= 2 else None


def _pick(name: str, rest: str, line: int) -> Item:
    return Item(name=name, description=rest[len(name):].lstrip("".join(lexicon.words("comma")) + " "), text=rest, line=line,
                prices=tuple(find_prices(rest)))

