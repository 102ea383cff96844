"""An answer's recommended item, the entities it speaks of, and the list of items with where they came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from gate.text.prices import Price


@dataclass(frozen=True)
class Item:
    """One recommended item: its name, its description (the rest) and its full text."""

    name: str
    description: str
    text: str
    line: int = 0
    prices: tuple[Price, ...] = ()
    priced_by_column: bool = False
    named: bool = True
    """False when no name is marked (bold lead, "name：description", a name column or key)."""


Status = Literal["recommended", "rejected", "mentioned"]


@dataclass(frozen=True)
class Evidence:
    """Where an entity appears and what that place makes of it."""

    structure: str
    """The structure and its line: "table@11", "list@9", "passage@20"."""
    line: int
    status: Status
    reason: str
    """main · added · restated · beside the picks · set aside · endorsed · mentioned."""


@dataclass(frozen=True)
class Entity:
    """One thing the answer speaks of: as first described, what it is to the answer, and why."""

    item: Item
    status: Status
    evidence: tuple[Evidence, ...]

    @property
    def name(self) -> str:
        return self.item.name


@dataclass(frozen=True)
class AlsoRead:
    """A structure read beside the picks: what it is, where, how many entries, and why it is not them."""

    source: str
    line: int
    entries: int
    why: str

    def describe(self) -> str:
        return f"{self.entries} entr{'y' if self.entries == 1 else 'ies'} of the {self.source} at line {self.line}"


@dataclass(frozen=True)
class ItemList:
    """The items of the main structure and where they came from.

    ``source``: list, table, json, numbered, bold, bullets, headings, single (one recommendation
    without a list of items), or none.
    """

    source: str
    items: tuple[Item, ...] = ()
    line: int = 0
    also_read: tuple[AlsoRead, ...] = field(default=())
    """The other structures read, and why each is not the picks (on the record of a count)."""
    hand_lists: tuple[tuple[int, str], ...] = ()
    """(line, numbered | bullets) where numbered lines ("1、") or bullet glyphs ("•") form a list
    without Markdown syntax."""
    by_columns: bool = False
    """A transposed table ("| 参数 | Bose | AirPods |"): its columns are the items."""
    extras: int = 0
    """How many of ``items``, at the end, were recommended outside the main structure (「另外，X 也值得
    考虑」, 「备选：…」, a later section of other picks, a budget table naming one more)."""
    chosen: str = ""
    """Why these are the picks: "a lead-in states their count", "the list a correction gives", …"""
    unsure_picks: int = 0
    """Of ``items``, how many come from reading an entry's bare slash as alternatives ("乌布皇宫 /
    圣猴森林公园"): a count they change is uncertain (see :mod:`gate.text.alternatives`)."""
    unread_picks: int = 0
    """Of ``items``, how many an ordinal announces without a name the reader can take ("第三个嘛，魔都其实
    也不错"), or a token limit cut inside ("5. **春园海鲜广"): the clause stands as the name, and a count
    it changes is uncertain."""
    unread_why: str = ""
    """Why the last of them may be no pick, for the report; empty: an ordinal names no clear pick."""
    entities: tuple[Entity, ...] = ()
    """Everything the answer's structures name, recommended or not, with the evidence (see
    :mod:`gate.text.entities`); ``items`` are the recommended ones."""

    def set_aside(self) -> tuple[Entity, ...]:
        """The entities a structure sets aside (不推荐, 没放进主推) and nothing recommends."""
        return tuple(entity for entity in self.entities if entity.status == "rejected")

    def __len__(self) -> int:
        return len(self.items)
