"""Items read from a table (rows, or columns when products head them) or from a JSON array."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from gate import lexicon
from gate.lexicon import source
from gate.text.cues import attribute, strip_marker
from gate.text.deferred import deferred
from gate.text.item import Item, ItemList
from gate.text.jsonanswer import main_array, parse_answer
from gate.text.markdown import Block, MarkdownDoc
from gate.text.names import split_name
from gate.text.prices import Price, find_prices
from gate.text.terms import fold


@cache
def _name_keys() -> tuple[str, ...]:
    """The JSON keys that name an item, English before Chinese."""
    named = lexicon.word_class("name_key")
    return (*named.en, *named.zh)


# A price header or key — unless it names another currency (price_usd, 价格（美元）): those are not yuan.
_price_headers = deferred(lambda: rf"^(?!.*(?:{source('foreign_currency_code')}|{source('foreign_currency')}))"
                                  rf".*{source('price_header')}", re.IGNORECASE)
_rank_cell = deferred(lambda: rf"^\s*(?:#?\s*\d{{1,2}}|{source('ordinal_prefix')}\s*\S{{1,3}}\s*{source('rank_measure')}?"
                              rf"|{source('rank_word')}\.?\s*\d{{1,2}}|{source('cn_ordinal_numeral')}{{1,3}})\s*$",
                      re.IGNORECASE)
# Headers of a column that names the items (``name_header``), of one that describes them
# (``description_header``), of another attribute (``attribute_header``: a table with them after its
# first column has its items in rows), and a first header cell that makes the columns the items
# (``transposed_header``).
_transposed_header = deferred(lambda: rf"^{source('transposed_header')}$")


def _price_header(cell: str) -> bool:
    return _price_headers().search(cell) is not None


def _name_header(cell: str) -> bool:
    return lexicon.pattern("name_header").search(cell) is not None


def _backup_key(key: str) -> bool:
    return lexicon.pattern("backup_key").fullmatch(key.strip()) is not None


def _description_header(cell: str) -> bool:
    return lexicon.pattern("description_header").search(cell) is not None


def _pick_columns(header: list[str]) -> list[int]:
    """Columns headed 推荐 / 首选 / 备选 …: the picks themselves, beside a column saying what each is for."""
    return [i for i, h in enumerate(header) if lexicon.pattern("pick_header").search(_plain(h))]


def _name_column(header: list[str], rows: list[list[str]]) -> int:
    """The column naming each row: one headed 礼物 / 名称 / 餐厅 …, or 推荐 beside a column of what each
    is for (场景, 类型), else the first, unless it only ranks them (排名 1, 2, 3)."""
    by_header = [i for i, h in enumerate(header) if _name_header(h) and not _price_header(h)]
    if by_header:
        return by_header[0]
    picked = _pick_columns(header)
    if picked:
        return picked[0]
    ranks = [row[0] for row in rows if row and row_kind(row, 0, header) is None]  # not a 合计 or 基线 row
    if len(header) > 1 and ranks and all(_rank_cell().match(cell) for cell in ranks):
        return 1
    return 0


def _attribute_header(cell: str) -> bool:
    return (_name_header(cell) or _price_header(cell) or _description_header(cell)
            or lexicon.pattern("attribute_header").search(cell) is not None or attribute(cell))


def _transposed(header: list[str], names: set[str]) -> bool:
    """True when the table's columns are the items and its rows their attributes: its first
    header is 参数 / 对比项 …, or its other headers name items listed elsewhere in the answer."""
    columns = [fold(h.strip()) for h in header[1:] if h.strip()]
    if len(columns) < 2 or any(_attribute_header(h) for h in header[1:]):
        return False  # "| 项目 | 费用 | 备注 |" has its items in rows
    if _transposed_header().match(header[0].strip()):
        return True
    known = [c for c in columns if any(len(name) > 1 and (c in name or name in c) for name in names)]
    return 2 * len(known) >= len(columns)


# A row that sums the others up ("| **合计** | 8 款 | 599–1399 |", "| 均价 | 约 2279 元 |") is no item.
_summary_row_re = deferred(lambda: rf"^\s*{source('summary_row')}\s*{lexicon.charset('colon')}?\s*$")


_note_row_re = deferred(lambda: rf"^\s*(?:{source('note_row')})", re.IGNORECASE)
_continuation_re = deferred(lambda: rf"^\s*(?:{source('continuation_mark')})?\s*$", re.IGNORECASE)


def _plain(cell: str) -> str:
    return strip_marker(cell.replace("**", "").replace("__", "")).strip()


def row_kind(row: list[str], naming: int, header: list[str]) -> str | None:
    """What a data row is when it is not a pick: ``summary`` (合计, 均价), ``note`` (注：…, a row of one
    cell in a table of three columns or more: a group label or a remark), ``header`` (the header
    restated), ``reference`` (a baseline or a reference row), ``continuation`` (〃, 同上, an empty
    name: the row above carried on) — or None, a pick."""
    name = _plain(row[naming]) if naming < len(row) else ""
    filled = [cell for cell in row if _plain(cell)]
    if [fold(_plain(c)) for c in row] == [fold(_plain(c)) for c in header]:
        return "header"
    if _summary_row_re().match(name):
        return "summary"
    if _note_row_re().match(name) or (len(header) >= 3 and len(filled) == 1):
        return "note"
    labels = {name, _plain(row[0]) if row else ""}  # the name, or a first column that labels the row (方案 | 对比基线)
    if any(lexicon.pattern("reference").search(label) and not lexicon.pattern("recommends").search(label)
           for label in labels):
        return "reference"
    if _continuation_re().match(name) and len(filled) >= 1:
        return "continuation"
    return None


def from_table(table: Block, names: set[str]) -> ItemList:
    header, rows = table.cells[0], table.cells[1:]
    if _transposed(header, names):
        return ItemList("table", tuple(_from_columns(table)), table.line, by_columns=True)
    picked = _pick_columns(header)
    if len(picked) >= 2 and not any(_name_header(h) for h in header):
        return ItemList("table", tuple(_side_by_side(table, picked)), table.line)
    naming = _name_column(header, rows)
    described = [i for i, h in enumerate(header) if i > naming and _description_header(h)]
    priced = [i for i, h in enumerate(header) if i != naming and _price_header(h)]
    items: list[Item] = []
    for offset, row in enumerate(rows):
        name = strip_marker(row[naming]) if naming < len(row) else ""
        kind = row_kind(row, naming, header)
        if kind == "continuation" and items:  # a variant or the rest of the row above: the same pick
            last = items[-1]
            rest = " ".join(cell for i, cell in enumerate(row) if i != naming and _plain(cell))
            items[-1] = Item(name=last.name, description=f"{last.description} {rest}".strip(),
                             text=f"{last.text}\n{' | '.join(row)}", line=last.line, prices=last.prices,
                             priced_by_column=last.priced_by_column)
            continue
        if kind is not None:
            continue
        if described:
            description = " ".join(row[i] for i in described if i < len(row))
        else:
            description = " ".join(  # every other cell but a rank ("1" "第一")
                cell for i, cell in enumerate(row) if i != naming and i not in priced and not _rank_cell().match(cell)
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
    return ItemList("table", tuple(items), table.line)


def _side_by_side(table: Block, picked: list[int]) -> list[Item]:
    """"| 类型 | 首选 | 备选 |": every filled cell of the pick columns is a pick, its row's other cells
    its description (an empty or "—" cell offers none)."""
    header, rows = table.cells[0], table.cells[1:]
    items = []
    for offset, row in enumerate(rows):
        if row_kind(row, picked[0], header) not in (None, "continuation"):
            continue
        context = " ".join(cell for i, cell in enumerate(row) if i not in picked and _plain(cell))
        for column in picked:
            cell = row[column] if column < len(row) else ""
            if _continuation_re().match(_plain(cell)):
                continue
            name, description = split_name(cell)
            items.append(Item(name=strip_marker(name), description=f"{description} {context}".strip(), text=cell,
                              line=table.line + 2 + offset, prices=tuple(find_prices(cell))))
    return items


def _from_columns(table: Block) -> list[Item]:
    """A transposed table's items: each column after the first, its rows read as "attribute：value"."""
    header, rows = table.cells[0], table.cells[1:]
    items = []
    for column in range(1, len(header)):
        cells = [(row[0], row[column]) for row in rows if len(row) > column]
        description = "；".join(f"{label}：{value}" for label, value in cells)
        prices: list[Price] = []
        for label, value in cells:
            prices.extend(find_prices(value, bare_number_is_price=_price_header(label)))
        items.append(Item(name=strip_marker(header[column]), description=description,
                          text=f"{header[column]} | {description}", line=table.line, prices=tuple(prices),
                          priced_by_column=any(_price_header(label) for label, _ in cells)))
    return items


def json_items(array: list[Any]) -> list[Item]:
    items = []
    for element in array:
        if isinstance(element, dict):
            keys = {str(k).lower(): k for k in element}
            name_key = next((keys[k] for k in _name_keys() if k in keys), None)
            name = str(element[name_key]) if name_key is not None else ""
            rest = {k: v for k, v in element.items() if k != name_key}
            description = " ".join(
                str(v) for k, v in rest.items() if isinstance(v, str) and not _price_header(str(k))
            )
            prices: list[Price] = []
            for k, v in rest.items():
                if _price_header(str(k)) and isinstance(v, (int, float, str)):
                    prices.extend(find_prices(str(v), bare_number_is_price=True))
            prices.extend(find_prices(description))
            text = json.dumps(element, ensure_ascii=False)
            backups = [str(v) for k, v in rest.items() if _backup_key(str(k)) and isinstance(v, str) and v.strip()]
            if backups:  # {"alternative": "Bose QC45"}: a pick beside the element's own, not a property of it
                description = " ".join(str(v) for k, v in rest.items()
                                       if isinstance(v, str) and not _price_header(str(k)) and not _backup_key(str(k)))
            items.append(Item(name, description, text, prices=tuple(prices),
                              priced_by_column=any(_price_header(str(k)) for k in rest)))
            items.extend(Item(backup, "", backup, prices=tuple(find_prices(backup))) for backup in backups)
        else:
            text = element if isinstance(element, str) else json.dumps(element, ensure_ascii=False)
            name, description = split_name(text)
            items.append(Item(name, description, text, prices=tuple(find_prices(text))))
    return items


# A model's "JSON" fence with a `// 注释` line: read without it when it does not parse as written.
_COMMENT_LINE_RE = re.compile(r"^[ \t]*//[^\n]*\n?", re.MULTILINE)


def fenced_arrays(doc: MarkdownDoc) -> list[ItemList]:
    """The JSON arrays of ```json fences, read again without `//` comment lines when they do not parse."""
    found = []
    for block in doc.blocks:
        if block.kind == "code" and block.info.startswith("json"):
            fenced = parse_answer(block.text)
            if not fenced.ok:
                fenced = parse_answer(_COMMENT_LINE_RE.sub("", block.text))
            array = main_array(fenced.value) if fenced.ok else None
            if array is not None:
                found.append(ItemList("json", tuple(json_items(array[1])), block.line))
    return found
