"""The entities an answer speaks of, read across every structure it composes, each with its evidence.

Answers compose structures: the main list, a budget or comparison table, a 怎么选 guide, a list of
options set aside, a passage adding a pick. Every entry of every structure is evidence about one
entity (entries are matched by name, parenthetical remarks aside); an entity recommended anywhere
is recommended, and only recommended entities are items.

- The main structure's entries, and what a passage adds after it (see :mod:`gate.text.extras`),
  are recommended.
- Another structure that names recommended entities (a 按预算选择 table whose 推荐 column names
  two picks and a new one; a 怎么选 list mapping needs to picks: "预算有限 → 小米 Buds 5 Pro") is a
  structure of picks: its new entries are recommended too — unless its lead sets them aside or
  compares against them (对比 / 基线), or the entry itself is a baseline or a reference.
- A structure whose lead sets items aside (不推荐, 没放进主推, 落选, 已排除) holds rejected
  entities — unless an entry's own last word endorses it (「直接买它也完全没问题」).
- Anything else is merely mentioned.
"""

from __future__ import annotations

from collections.abc import Sequence

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.cues import excluded_lead
from gate.text.deferred import deferred
from gate.text.item import Entity, Evidence, Item, ItemList, Status
from gate.text.terms import fold

_COMPARED = 50
"""Known names an entry is compared with for containment ("WH-1000XM5" is "索尼 WH-1000XM5");
beyond them only by equality, so a hostile answer with thousands of entries stays linear."""
_remark_re = deferred(lambda: charset("open_bracket") + ".*$")


def key(name: str) -> str:
    """The name entries are matched by: folded, a parenthetical remark ("（约 2500 元）") dropped."""
    return fold(_remark_re().sub("", name)) or fold(name)


_token_re = deferred(lambda: rf"[0-9a-z]+|{source('han')}+")


def _token_of(short: str, long: str) -> bool:
    """``short`` names what ``long`` does: the same, a Chinese word within the other, or an
    abbreviation of a word ("qc" for "quietcomfort"); model numbers only the same."""
    if short == long:
        return True
    if short.isascii() != long.isascii():
        return False
    if not short.isascii():
        return short in long or long in short
    if not (short.isalpha() and long.isalpha()) or short[0] != long[0] or len(short) >= len(long):
        return False
    letters = iter(long)
    return all(letter in letters for letter in short)  # a subsequence, in one pass


def same(a: str, b: str) -> bool:
    """Two keys name one entity: one contains the other ("wh-1000xm5" in "索尼 wh-1000xm5"), or every
    word of the shorter names a word of the longer ("bose qc ultra" · "bose quietcomfort ultra 头戴式")."""
    if not a or not b:
        return False
    if a in b or b in a:
        return True
    short, long = sorted((_token_re().findall(a), _token_re().findall(b)), key=len)
    return len(short) >= 2 and all(any(_token_of(word, other) for other in long) for word in short)


def known_as(name_key: str, known: Sequence[str]) -> bool:
    """True when ``name_key`` names one of the first ``known`` entities."""
    return any(same(name_key, other) for other in known[:_COMPARED])


# A 怎么选 entry's pick after its arrow ("通勤为主 → AirPods Pro 2"), up to the first clause break.
_arrow_re = deferred(lambda: rf"(?:→|->|=>|⇒|➡\ufe0f?)\s*{source('pick_verb')}?\s*")
_pick_end_re = deferred(lambda: charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark",
                                        "open_bracket"))
_PICK_MAX_CHARS = 30


def _endorsed(text: str) -> bool:
    """What sets an entry aside and what endorses it: the later of the two in the entry decides
    ("没放进主推只是因为……直接买它也完全没问题" endorses; "降噪很强，但超预算" sets aside)."""
    endorsed = [m.start() for m in lexicon.pattern("endorses").finditer(text)]
    set_aside = [m.start() for m in lexicon.pattern("entry_sets_aside").finditer(text)]
    return bool(endorsed) and endorsed[-1] > max(set_aside, default=-1)


def _arrow_pick(item: Item) -> str | None:
    first = item.text.split("\n", 1)[0]
    arrows = list(_arrow_re().finditer(first))
    if not arrows:
        return None
    rest = first[arrows[-1].end():]
    end = _pick_end_re().search(rest)
    pick = (rest[: end.start()] if end else rest).strip(" *_`")
    return pick if 0 < len(pick) <= _PICK_MAX_CHARS else None


def _entries(candidate: ItemList, known: Sequence[str]) -> list[tuple[str, Item]]:
    """Each entry of ``candidate`` as (the entity's name, its item). A table's entities are in the
    column that names a known entity (a 推荐 column beside a 预算 column), else its name column;
    a 怎么选 entry's entity is the pick after its arrow; an unnamed entry is none."""
    if candidate.source == "table" and not candidate.by_columns:
        rows = [item.text.split(" | ") for item in candidate.items]
        width = max((len(row) for row in rows), default=0)
        column = next((c for c in range(width)
                       if any(c < len(row) and known_as(key(row[c]), known) for row in rows)), None)
        if column is not None:
            return [(row[column].strip(), item) for row, item in zip(rows, candidate.items, strict=True) if column < len(row)]
    # an unnamed clause ("降噪最强的是 Bose") speaks of entities without naming one
    return [(pick or item.name, item) for item in candidate.items
            for pick in [_arrow_pick(item)] if pick or item.named]


def _as_item(name: str, item: Item) -> Item:
    if name == item.name:
        return item
    description = item.text.replace(name, "", 1).strip(" |")
    return Item(name=name, description=description, text=item.text, line=item.line, prices=item.prices,
                priced_by_column=item.priced_by_column, named=True)


class _Ledger:
    """Entities by key in the order first seen, with the keys of the recommended ones."""

    def __init__(self) -> None:
        self.entities: dict[str, Entity] = {}
        self.recommended: list[str] = []
        self.is_recommended: set[str] = set()

    def note(self, name_key: str, item: Item, evidence: Evidence) -> None:
        found = self.entities.get(name_key)
        if found is None:
            self.entities[name_key] = Entity(item, evidence.status, (evidence,))
            if evidence.status == "recommended":
                self._recommend(name_key)
            return
        status: Status = "recommended" if "recommended" in (found.status, evidence.status) else found.status
        if status == "recommended" and found.status != "recommended":
            self._recommend(name_key)
            found = Entity(item, status, found.evidence)
        self.entities[name_key] = Entity(found.item, status, (*found.evidence, evidence))

    def _recommend(self, name_key: str) -> None:
        self.recommended.append(name_key)
        self.is_recommended.add(name_key)

    def match(self, name_key: str) -> str | None:
        if name_key in self.entities:
            return name_key
        return next((known for known in self.recommended[:_COMPARED] if same(name_key, known)), None)


def read(main: ItemList, added: Sequence[Item], others: Sequence[ItemList], leads: dict[int, str]) -> tuple[Entity, ...]:
    """Every entity of the main structure, the items added after it, and the entries of the other
    structures (``leads``: a structure's line → the text right before it), in the order first seen."""
    ledger = _Ledger()
    where = f"{main.source}@{main.line}"
    for item in main.items:  # the main structure's entries are its items, a name listed twice too
        name_key = key(item.name)
        ledger.note(name_key if name_key not in ledger.entities else f"{name_key}@{item.line}", item,
                    Evidence(where, item.line, "recommended", "main"))
    for item in added:
        ledger.note(key(item.name), item, Evidence(f"passage@{item.line}", item.line, "recommended", "added"))
    for candidate in others:
        _read_structure(ledger, candidate, leads.get(candidate.line, ""))
    return tuple(ledger.entities.values())


def _read_structure(ledger: _Ledger, candidate: ItemList, lead: str) -> None:
    where = f"{candidate.source}@{candidate.line}"
    known = ledger.recommended
    entries = _entries(candidate, known)
    matched = [ledger.match(key(name)) for name, _ in entries]
    rejecting = excluded_lead(lead)
    beside_picks = not rejecting and not lexicon.pattern("compares").search(lead) and any(
        found is not None and found in ledger.is_recommended for found in matched)
    for (name, item), found in zip(entries, matched, strict=True):
        if not name:
            continue
        if found is not None:
            ledger.note(found, item, Evidence(where, item.line, ledger.entities[found].status, "restated"))
        elif rejecting:
            endorsed = _endorsed(item.text)
            ledger.note(key(name), _as_item(name, item), Evidence(
                where, item.line, "recommended" if endorsed else "rejected", "endorsed" if endorsed else "set aside"))
        elif beside_picks and not lexicon.pattern("reference").search(item.text):
            ledger.note(key(name), _as_item(name, item), Evidence(where, item.line, "recommended", "beside the picks"))
        else:
            ledger.note(key(name), _as_item(name, item), Evidence(where, item.line, "mentioned", "mentioned"))


def recommended(entities: Sequence[Entity]) -> list[Item]:
    """The items: the recommended entities, as first described."""
    return [entity.item for entity in entities if entity.status == "recommended"]
