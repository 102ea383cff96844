"""Item checks: how many recommended items, how long each description, what each costs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, model_validator

from gate.checkers.base import CountBounds, Params, checker, quote
from gate.subject import Subject
from gate.text import units
from gate.text.item import Item, ItemList
from gate.text.twice import named_twice
from gate.verdict import Outcome, Reading, Status

if TYPE_CHECKING:
    from gate.text.prices import Price


def _names(items: tuple[Item, ...] | list[Item], limit: int = 6) -> str:
    shown = ", ".join(quote(item.name or item.text, 16) for item in items[:limit])
    return shown + (", …" if len(items) > limit else "")


class ItemsCountParams(CountBounds):
    pass


def _verdict(params: ItemsCountParams, count: int) -> Status:
    return Status.PASS if params.admits(count) else Status.FAIL


def _two_counts(params: ItemsCountParams, names: tuple[str, ...], detail: str, as_read: tuple[str, str],
                fewer: tuple[int, str, str]) -> Outcome:
    """Uncertain between the count as read (every name in ``names``) and a smaller one: both readings."""
    count, label, why = fewer
    readings = (Reading(label=f"{len(names)} picks: {as_read[0]}", verdict=_verdict(params, len(names)), why=as_read[1]),
                Reading(label=f"{count} picks: {label}", verdict=_verdict(params, count), why=why))
    return Outcome.uncertain(f"{detail}; {params.describe()} required", readings, names)


@checker("items:count", ItemsCountParams, "the answer recommends the required number of items (its main list/table/JSON array, and whatever else it recommends)")
def items_count(subject: Subject, params: ItemsCountParams) -> Outcome:
    found = subject.items
    if not found.items:
        return Outcome.failed(f"no list, table, JSON array or numbered items found; {params.describe()} required")
    after = f"; {found.extras} recommended besides the main {found.source}: {_names(found.items[-found.extras:])}" if found.extras else ""
    aside = found.set_aside()
    after += f"; set aside, not counted: {_names([entity.item for entity in aside])}" if aside else ""
    detail = f"{len(found)} items found ({found.source}{after}): {_names(found.items)}; {params.describe()} required"
    names = tuple(item.name for item in found.items)
    one_each = len(found) - found.unsure_picks  # each entry joining names with a bare slash read as one pick
    if found.unsure_picks and params.admits(len(found)) != params.admits(one_each):
        joins = f"{found.unsure_picks} entr{'y joins' if found.unsure_picks == 1 else 'ies join'} names with a bare slash"
        return _two_counts(params, names, f"{len(found)} or {one_each} items ({found.source}): {joins}",
                           ("a slash between two names offers both", "each side names a pick of its own"),
                           (one_each, "each entry one pick", "a slash may name one thing two ways"))
    twice = named_twice(names)  # "索尼 WH-1000XM5" and later "Sony 1000XM5": one product, two lines
    if twice and params.admits(len(found)) != params.admits(len(found) - twice):
        return _two_counts(params, names, f"{len(found)} or {len(found) - twice} items ({found.source}): "
                           f"{twice} {'entry names' if twice == 1 else 'entries name'} a product an earlier entry already named",
                           ("every entry one pick", "the names differ"),
                           (len(found) - twice, "a product named twice counted once", "the same model under another name"))
    named = len(found) - found.unread_picks  # an ordinal that announces a pick it does not name
    if found.unread_picks and params.admits(len(found)) != params.admits(named):
        last = quote(found.items[-1].name, 16)
        if found.unread_why:  # cut off by a token limit
            return _two_counts(params, names, f"{len(found)} or {named} items ({found.source}): {found.unread_why} ('{last}')",
                               ("the cut entry counts", f"the user was given '{last}'"),
                               (named, "only the whole entries", "the entry was cut before it was written"))
        return _two_counts(params, names, f"{len(found)} or {named} items ({found.source}): the last ordinal names no clear pick ('{last}')",
                           ("the ordinal counts", f"the last ordinal announces a pick ('{last}')"),
                           (named, "only the named ones", "the last ordinal's clause names nothing the reader can take"))
    also = found.also_read
    if also:
        shown = "; ".join(f"{a.describe()} ({a.why})" for a in also[:2])
        detail += f"; also read: {shown}"
    return Outcome.of(params.admits(len(found)), detail, names, _on_record(found, params))


def _on_record(found: ItemList, params: ItemsCountParams) -> tuple[Reading, ...]:
    """The reading counted and the structures read beside it, each with the verdict it would give."""
    if not found.also_read:
        return ()
    chosen = Reading(label=f"{len(found)} items from the {found.source} at line {found.line}",
                     verdict=_verdict(params, len(found)), why=found.chosen or "the picks", chosen=True)
    return (chosen, *(Reading(label=a.describe(), verdict=_verdict(params, a.entries), why=f"set aside: {a.why}")
                      for a in found.also_read))


class ItemsLengthParams(Params):
    max: int | None = Field(None, ge=0)
    min: int | None = Field(None, ge=0)
    unit: units.Unit = "zi"
    part: Literal["description", "whole"] = "description"
    """description: the text after the item's name; whole: name and description."""

    @model_validator(mode="after")
    def _bounded(self) -> ItemsLengthParams:
        if self.max is None and self.min is None:
            raise ValueError("give max or min")
        return self


@checker("items:length", ItemsLengthParams, "each item's description is within the length bound (in 字 by default)")
def items_length(subject: Subject, params: ItemsLengthParams) -> Outcome:
    items = subject.items.items
    if not items:
        return Outcome.failed("no items found to measure")
    unit = units.UNIT_NAMES[params.unit]
    bad: list[str] = []
    lengths: list[int] = []
    for item in items:
        text = item.description if params.part == "description" else item.text
        length = units.count(text, params.unit)
        lengths.append(length)
        if params.max is not None and length > params.max:
            bad.append(f"'{quote(item.name, 16)}' {length} {unit} > {params.max}")
        if params.min is not None and length < params.min:
            bad.append(f"'{quote(item.name, 16)}' {length} {unit} < {params.min}")
    if bad:
        return Outcome.failed(f"{len(bad)} of {len(items)} items out of bounds: " + "; ".join(bad[:4]), tuple(bad))
    return Outcome.passed(f"all {len(items)} items within bounds ({min(lengths)}–{max(lengths)} {unit})")


class ItemsPriceParams(Params):
    max: float | None = None
    min: float | None = None
    missing: Literal["fail", "ignore"] = "fail"
    """An item with no stated price fails by default, so silence is not a pass."""
    per: Literal["item", "person"] = "item"
    """person: the bound is a head's ("人均 ≤ 300"), so a price for a stated party ("4 人套餐 ¥1,088")
    is shared among it."""

    @model_validator(mode="after")
    def _bounded(self) -> ItemsPriceParams:
        if self.max is None and self.min is None:
            raise ValueError("give max or min")
        return self


def _fmt(value: float) -> str:
    return f"{value:g}"


def _priced(price: Price, per: str) -> tuple[float, str]:
    """The price against the bound, and how a detail shows it ("¥1,088 for 4 = 272 a head")."""
    if per == "person" and price.party > 1:
        share = round(price.value / price.party, 1)
        return share, f"{price.text} for {price.party} = {_fmt(share)} a head"
    return price.value, price.text


@checker("items:price", ItemsPriceParams, "every item's stated price (ranges by their upper end) is within the bound")
def items_price(subject: Subject, params: ItemsPriceParams) -> Outcome:
    items = subject.items.items
    if not items:
        return Outcome.failed("no items found to price")
    problems: list[str] = []
    for item in items:
        if not item.prices:
            if params.missing == "fail":
                problems.append(f"'{quote(item.name, 16)}' states no price")
            continue
        for price in item.prices:
            value, shown = _priced(price, params.per)
            if params.max is not None and value > params.max:
                problems.append(f"'{quote(item.name, 16)}' {shown} > {_fmt(params.max)}")
            if params.min is not None and value < params.min:
                problems.append(f"'{quote(item.name, 16)}' {shown} < {_fmt(params.min)}")
    if problems:
        return Outcome.failed(f"{len(problems)} price problem(s): " + "; ".join(problems[:4]), tuple(problems))
    priced = [_priced(p, params.per)[0] for item in items for p in item.prices]
    span = f" ({_fmt(min(priced))}–{_fmt(max(priced))})" if priced else ""
    return Outcome.passed(f"all {len(items)} items priced within bounds{span}")
