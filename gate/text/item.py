"""An answer's recommended item, and the list of them with where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class ItemList:
    """The items of the main structure and where they came from.

    ``source``: list, table, json, numbered, bold, bullets, headings, single (one recommendation
    without a list of items), or none.
    """

    source: str
    items: tuple[Item, ...] = ()
    line: int = 0
    others: tuple[str, ...] = field(default=())
    hand_lists: tuple[tuple[int, str], ...] = ()
    """(line, numbered | bullets) where numbered lines ("1、") or bullet glyphs ("•") form a list
    without Markdown syntax."""
    by_columns: bool = False
    """A transposed table ("| 参数 | Bose | AirPods |"): its columns are the items."""
    extras: int = 0
    """How many of ``items``, at the end, were recommended after the main structure (「另外，X 也值得
    考虑」, 「备选：…」, a later section of other picks)."""

    def __len__(self) -> int:
        return len(self.items)
