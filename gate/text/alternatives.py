"""Several picks in one entry: alternatives a model offers side by side.

"AirPods Pro 2 / 华为 FreeBuds Pro 4 二选一", "苏州 或 无锡 都行", "首选 QCY MeloBuds Pro，备选 Redmi Buds
6 Pro", "《程序员修炼之道》或《代码整洁之道》都行": the user is given two picks, and a count of the
entries would be one short. An entry names alternatives when its name joins two name-like parts
with a link (``alternative_link``: 或, or, /), or when its name is a label (入门：, 算法方向：) and its
first clause offers a first choice and a backup (``first_choice`` … ``backup_choice``). Each part
becomes a pick of its own, with its own price where it states one.

A split is **sure** when the entry says the parts are alternatives — a closing "either will do"
(``alternative_tail``: 二选一, 都行), an explicit 或 / or, a first choice and a backup. A bare slash
between two names ("乌布皇宫 / 圣猴森林公园") may join two picks or name one thing two ways: that
split is **unsure**, and a count it changes is uncertain, both readings on the record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from gate import lexicon
from gate.text.deferred import deferred
from gate.text.item import Item
from gate.text.prices import find_prices

_MAX_PARTS = 4
"""More parts than this in one entry is a list written inline, read elsewhere, not alternatives."""
_spec_re = re.compile(r"^[\s\d.,+\-–~]*(?:[a-z%]{0,3}|[^\W\d_]?)[\s\d.,+\-–~]*$", re.IGNORECASE)
"""A part that is a number or a spec ("2680", "16G", "3150 元" without a name) names no pick."""


@dataclass(frozen=True)
class Split:
    """The picks an entry names, and whether the entry itself says they are alternatives."""

    picks: tuple[Item, ...]
    sure: bool


def _clause_end() -> str:
    return lexicon.charset("comma", "semicolon", "full_stop", "colon", also=lexicon.LINE_BREAK)


_link_re = deferred(lambda: rf"\s*(?:{lexicon.source('alternative_link')})\s*", re.IGNORECASE)
_tail_re = deferred(lambda: rf"\s*(?:{lexicon.source('alternative_tail')})\s*$", re.IGNORECASE)
_backup_re = deferred(lambda: rf"(?:{lexicon.source('backup_choice')})\s*{lexicon.charset('colon')}?\s*",
                      re.IGNORECASE)
_first_re = deferred(lambda: rf"^\s*(?:{lexicon.source('first_choice')})\s*{lexicon.charset('colon')}?\s*",
                     re.IGNORECASE)
_remark_re = deferred(lambda: rf"\s*{lexicon.charset('open_bracket')}.*$")


def _depths(text: str) -> list[int]:
    """The bracket depth at each character: a link inside （6/10） or 《A 或 B》 joins no picks."""
    opening = "".join((*lexicon.words("open_bracket"), *lexicon.words("title_open"), "["))
    closing = "".join((*lexicon.words("close_bracket"), *lexicon.words("title_close"), "]"))
    depth, found = 0, []
    for char in text:
        if char in closing:
            depth = max(0, depth - 1)
        found.append(depth)
        if char in opening:
            depth += 1
    return found


def _top_level_links(body: str) -> list[re.Match[str]]:
    depths = _depths(body)
    return [link for link in _link_re().finditer(body) if depths[link.start()] == 0 and link.group(0).strip()]


def name_like(part: str) -> bool:
    """A part that names something: two characters or more, not a number or a spec, not 这/以上/其他."""
    marks = "".join((*lexicon.words("title_open"), *lexicon.words("title_close"), *lexicon.words("quote_pair")))
    bare = _remark_re().sub("", part).strip(" \"'*" + marks)
    return len(bare) >= 2 and not _spec_re.match(bare) and lexicon.pattern("not_a_name").match(bare) is None


def _pick(base: Item, segment: str, shared: str) -> Item:
    """One part of an entry as a pick: its own price if it states one, else the entry's."""
    name = _remark_re().sub("", segment).strip(" *") or segment.strip()
    own = tuple(find_prices(segment))
    text = f"{segment}{lexicon.words('colon')[0]}{shared}" if shared else segment
    return replace(base, name=name, description=shared, text=text, prices=own or base.prices)


def _linked(base: Item, span: str, shared: str) -> Split | None:
    """"A 或 B 都行", "A / B 二选一", "《A》or《B》": the parts the links join, when each names a pick."""
    tail = _tail_re().search(_remark_re().sub("", span))  # "A / B 二选一（6/10）": the tail before a remark
    body = span[: tail.start()] if tail else span
    links = _top_level_links(body)
    parts, start = [], 0
    for link in links:
        parts.append(body[start:link.start()].strip())
        start = link.end()
    parts = [part for part in [*parts, body[start:].strip()] if part]
    if not 2 <= len(parts) <= _MAX_PARTS or not all(name_like(part) for part in parts):
        return None
    explicit = any(link.group(0).strip() != "/" for link in links)  # 或 / or says "alternatives"; a slash may not
    return Split(tuple(_pick(base, part, shared) for part in parts), sure=bool(tail) or explicit)


def _first_and_backup(base: Item, span: str) -> Split | None:
    """"首选 A（199 元），备选 B（249 元）": the first choice and the backup, each with its own clause."""
    backup = _backup_re().search(span)
    if backup is None:
        return None
    first = _first_re().sub("", span[: backup.start()]).rstrip(" " + lexicon.chars("comma") + lexicon.chars("semicolon"))
    second = re.split(_clause_end(), span[backup.end():], maxsplit=1)[0]
    if not (name_like(first) and name_like(second)):
        return None
    return Split((_pick(base, first.strip(), ""), _pick(base, second.strip(), "")), sure=True)


def split_entry(item: Item) -> Split | None:
    """The picks ``item`` names side by side, or None when it names one."""
    name = item.name.strip()
    if not name:
        return None
    if _top_level_links(name) or _backup_re().search(name):
        return _first_and_backup(item, item.text.split("\n", 1)[0]) or _linked(item, name, item.description)
    # A label before the picks ("入门：首选 A，备选 B", "晚饭：A 或 B 都行"): the first clauses of the text.
    lead = item.description.split("\n", 1)[0]
    if _first_re().match(lead):
        found = _first_and_backup(item, lead)
        if found is not None:
            return found
    backup = _backup_re().search(lead)
    if backup is not None:  # the entry names its pick, then a backup ("A，人均 280 元；备选 **B**，人均 220 元")
        second = re.split(_clause_end(), lead[backup.end():], maxsplit=1)[0].strip(" *")
        if name_like(second):
            return Split((item, _pick(item, second, "")), sure=True)
    first_clause = re.split(_clause_end(), lead, maxsplit=1)[0]
    if _tail_re().search(first_clause) or any(link.group(0).strip() != "/" for link in _top_level_links(first_clause)):
        rest = lead[len(first_clause):].lstrip(" " + lexicon.chars("comma"))
        return _linked(item, first_clause, rest)
    return None


def expand(items: tuple[Item, ...]) -> tuple[tuple[Item, ...], int]:
    """``items`` with each entry of alternatives read as its picks, and how many of the picks come
    from unsure splits (a bare slash): the count that reading adds."""
    found: list[Item] = []
    unsure = 0
    for item in items:
        split = split_entry(item)
        if split is None:
            found.append(item)
            continue
        found.extend(split.picks)
        if not split.sure:
            unsure += len(split.picks) - 1
    return tuple(found), unsure
