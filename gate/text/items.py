"""The recommended items of an answer: entries of its main list, table, JSON array or numbering.

Candidates are the top-level Markdown lists (an ordered list interrupted by prose is merged back),
the data rows of each table, the elements of a JSON array (the whole answer, or a ```json block),
and runs of hand-written entries (see :mod:`gate.text.runs`): numbered lines or headings ("1."
without a space, "1、", "一、", "第一家", "1️⃣"), bold-led paragraphs, bullet glyphs, same-level
headings. Lists inside an item's section are its sub-points, not candidates; lists under section
labels ("一、推荐餐厅") or group labels ("### 海鲜") are. A list led by "注意事项" / "小贴士" holds notes
and loses to any other candidate. Otherwise the largest candidate wins, the earlier on a tie.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from gate.text.jsonanswer import main_array, parse_answer
from gate.text.markdown import Block, ListBlock, MarkdownDoc
from gate.text.names import split_name
from gate.text.prices import Price, find_prices
from gate.text.runs import Run, Unit, find_runs, role, strip_marker, units


@dataclass(frozen=True)
class Item:
    """One recommended item: its name, its description (the rest) and its full text."""

    name: str
    description: str
    text: str
    line: int = 0
    prices: tuple[Price, ...] = ()
    priced_by_column: bool = False


@dataclass(frozen=True)
class ItemList:
    """The items of the main structure and where they came from.

    ``source``: list, table, json, numbered, bold, bullets, headings, or none.
    """

    source: str
    items: tuple[Item, ...] = ()
    line: int = 0
    others: tuple[str, ...] = field(default=())
    hand_lists: tuple[tuple[int, str], ...] = ()
    """(line, numbered | bullets) where numbered lines ("1、") or bullet glyphs ("•") form a list
    without Markdown syntax."""

    def __len__(self) -> int:
        return len(self.items)


_NAME_KEYS = ("name", "title", "city", "city_name", "product", "model", "restaurant", "brand",
              "place", "spot", "location", "dish", "book", "名称", "名字", "城市")
_DESCRIPTION_HEADERS = re.compile(
    r"介绍|简介|描述|特点|亮点|理由|推荐|说明|点评|特色|卖点|description|intro|reason|highlight|why|note",
    re.IGNORECASE,
)
# 价 but not 性价比 (value for money), 评价 (reviews) or 价值 (worth).
_PRICE_HEADERS = re.compile(r"(?<![性评])价(?![比值])|预算|人均|price|cost", re.IGNORECASE)
_RANK_CELL = re.compile(r"^\s*(?:#?\s*\d{1,2}|第\s*\S{1,3}\s*[名位]?|no\.?\s*\d{1,2}|top\s*\d{1,2}|[一二三四五六七八九十]{1,3})\s*$",
                        re.IGNORECASE)


def _name_column(header: list[str], rows: list[list[str]]) -> int:
    """The column naming each row: the first, unless it only ranks them (排名 1, 2, 3)."""
    ranks = [row[0] for row in rows if row]
    if len(header) > 1 and ranks and all(_RANK_CELL.match(cell) for cell in ranks):
        return 1
    return 0


def _leading_bold(block: Block) -> str | None:
    return strip_marker(block.bold) if block.bold else None


def _item(head: str, text: str, line: int, bold: str | None = None) -> Item:
    head = strip_marker(head)
    name, first_rest = split_name(head, bold)
    body = text.split("\n", 1)[1] if "\n" in text else ""
    description = "\n".join(part for part in (first_rest, body.strip()) if part)
    return Item(name=name, description=description, text=text, line=line,
                prices=tuple(find_prices(text)))


def _from_list_items(blocks: list[Block]) -> list[Item]:
    return [_item(b.head.split("\n", 1)[0], b.text, b.line, _leading_bold(b)) for b in blocks]


def _from_table(table: Block) -> list[Item]:
    header, rows = table.cells[0], table.cells[1:]
    named = _name_column(header, rows)
    described = [i for i, h in enumerate(header) if i > named and _DESCRIPTION_HEADERS.search(h)]
    priced = [i for i, h in enumerate(header) if i != named and _PRICE_HEADERS.search(h)]
    items = []
    for offset, row in enumerate(rows):
        name = strip_marker(row[named]) if named < len(row) else ""
        if described:
            description = " ".join(row[i] for i in described if i < len(row))
        else:
            description = " ".join(
                cell for i, cell in enumerate(row) if i > named and i not in priced
            )
        prices: list[Price] = []
        for i in priced:
            if i < len(row):
                prices.extend(find_prices(row[i], bare_number_is_price=True))
        others = [cell for i, cell in enumerate(row) if i not in priced]
        prices.extend(find_prices(" | ".join(others)))
        items.append(Item(name=name, description=description, text=" | ".join(row),
                          line=table.line + 2 + offset, prices=tuple(prices),
                          priced_by_column=bool(priced)))
    return items


def _json_items(array: list[Any]) -> list[Item]:
    items = []
    for element in array:
        if isinstance(element, dict):
            keys = {str(k).lower(): k for k in element}
            name_key = next((keys[k] for k in _NAME_KEYS if k in keys), None)
            name = str(element[name_key]) if name_key is not None else ""
            rest = {k: v for k, v in element.items() if k != name_key}
            description = " ".join(
                str(v) for k, v in rest.items() if isinstance(v, str) and not _PRICE_HEADERS.search(str(k))
            )
            prices: list[Price] = []
            for k, v in rest.items():
                if _PRICE_HEADERS.search(str(k)) and isinstance(v, (int, float, str)):
                    prices.extend(find_prices(str(v), bare_number_is_price=True))
            prices.extend(find_prices(description))
            text = json.dumps(element, ensure_ascii=False)
            items.append(Item(name, description, text, prices=tuple(prices),
                              priced_by_column=any(_PRICE_HEADERS.search(str(k)) for k in rest)))
        else:
            text = element if isinstance(element, str) else json.dumps(element, ensure_ascii=False)
            name, description = split_name(text)
            items.append(Item(name, description, text, prices=tuple(find_prices(text))))
    return items


def _from_run(run: Run) -> list[Item]:
    items = []
    for entry in run.entries:
        body = "\n".join(unit.text for unit in entry.body if unit.text)
        text = "\n".join(part for part in (entry.head, body) if part)
        items.append(_item(entry.head, text, entry.line, entry.bold))
    return items


_RUN_SOURCES = {"numbered": "numbered", "bold": "bold", "bullets": "bullets", "headings": "headings"}
# A list led by "注意事项：" or "小贴士" holds notes, not the recommended items.
_NOTES_LEAD_RE = re.compile(r"注意|提示|贴士|须知|备注|提醒|温馨|\b(?:tips?|notes?|reminders?)\b", re.IGNORECASE)


def _notes(all_units: list[Unit], line: int) -> bool:
    lead: list[Unit] = []  # the text right before the candidate, back to the previous block
    for unit in reversed([u for u in all_units if u.line < line]):
        if unit.kind not in ("line", "heading") or len(lead) == 2:
            break
        lead.append(unit)
    return any(len(u.text) <= 30 and _NOTES_LEAD_RE.search(u.text) for u in lead)


def _fenced_arrays(doc: MarkdownDoc) -> list[ItemList]:
    found = []
    for block in doc.blocks:
        if block.kind == "code" and block.info.startswith("json"):
            fenced = parse_answer(block.text)
            array = main_array(fenced.value) if fenced.ok else None
            if array is not None:
                found.append(ItemList("json", tuple(_json_items(array[1])), block.line))
    return found


def _list_candidate(lists: list[ListBlock]) -> ItemList:
    blocks = [item for block in lists for item in block.items]
    return ItemList("list", tuple(_from_list_items(blocks)), lists[0].line)


def _from_runs(runs: list[Run], lists: list[ListBlock]) -> tuple[list[tuple[ItemList, Run]], list[Run]]:
    """Candidates from runs (each with its run), and the runs whose sections hold sub-points."""
    found: list[tuple[ItemList, Run]] = []
    owners: list[Run] = []
    for run in runs:
        run_role = role(run, lists, runs)
        if run_role == "categories":
            grouped = [b for b in lists if run.owner(b.line) and b.line > run.line]
            found.append((_list_candidate(grouped), run))
        elif run_role in ("items", "open"):
            found.append((ItemList(_RUN_SOURCES[run.kind], tuple(_from_run(run)), run.line), run))
        if run_role in ("items", "categories"):
            owners.append(run)
    return found, owners


def _candidates(doc: MarkdownDoc, runs: list[Run]) -> list[ItemList]:
    lists = doc.lists()
    found, owners = _from_runs(runs, lists)

    def inside(line: int, source: Run | None = None) -> bool:
        return any(o is not source and o.line < line and o.owner(line) for o in owners)

    candidates = [c for c, source in found if not inside(c.line, source)]
    candidates += [_list_candidate([b]) for b in lists if not inside(b.line)]
    candidates += [
        ItemList("table", tuple(_from_table(t)), t.line)
        for t in doc.tables() if len(t.cells) > 1 and not inside(t.line)
    ]
    return candidates + _fenced_arrays(doc)


def extract(answer: str, doc: MarkdownDoc | None = None) -> ItemList:
    """The items of ``answer``'s main structure (see the module docstring)."""
    parsed = parse_answer(answer)
    if parsed.ok:
        array = main_array(parsed.value)
        return ItemList("json", tuple(_json_items(array[1])) if array is not None else ())
    doc = doc or MarkdownDoc(answer)
    all_units = units(doc)
    runs = find_runs(doc, all_units)
    candidates = _candidates(doc, runs)
    hand = tuple(
        (r.line, r.kind) for r in runs if r.lines_only and r.kind in ("numbered", "bullets") and not r.outline
    )
    main = [c for c in candidates if c.items and not _notes(all_units, c.line)] or candidates
    if not main:
        return ItemList("none", (), hand_lists=hand)
    best = max(main, key=lambda c: (len(c.items), -c.line))
    others = tuple(f"{c.source}@{c.line}:{len(c.items)}" for c in candidates if c is not best)
    return ItemList(best.source, best.items, best.line, others, hand)
