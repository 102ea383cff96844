"""The recommended items of an answer: entries of its main list, table, JSON array or numbering.

Candidates are the top-level Markdown lists (an ordered list interrupted by prose is merged back),
the data rows of each table, the elements of a JSON array (the whole answer, or a ```json block),
and runs of numbered headings or lines ("1." without a space, "1、", "一、", "第一家", "1️⃣"). The
largest candidate wins; lists that sit inside a numbered run's sections are sub-points of those
items, not candidates. Nested sub-points always belong to their item.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from gate.text.jsonanswer import main_array, parse_answer
from gate.text.markdown import Block, MarkdownDoc, plain_text
from gate.text.numerals import to_int
from gate.text.prices import Price, find_prices


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
    """The items of the main structure and where they came from (list, table, json, numbered)."""

    source: str
    items: tuple[Item, ...] = ()
    line: int = 0
    others: tuple[str, ...] = field(default=())

    def __len__(self) -> int:
        return len(self.items)


_MARKER_RE = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*"
    r"(?:(?P<arabic>\d{1,2})(?:[.．、)）]|\ufe0f?\u20e3)(?!\d)"
    r"|[（(](?P<paren>\d{1,2})[)）]"
    r"|(?P<cn>[一二三四五六七八九十]{1,3})[、.．]"
    r"|第\s*(?P<ordinal>[一二三四五六七八九十\d]{1,3})\s*(?=[家款个本名站部台位种道处条只件：:，,、\s])"
    r"|(?:No|NO|Top|TOP)\.?\s*(?P<no>\d{1,2})(?!\d))"
)
_SEPARATORS = ("：", ":", " - ", " — ", "——", " – ", "—", "｜", "|")
_WEAK_SEPARATORS = ("，", ",", "（", "(")
_NAME_KEYS = ("name", "title", "city", "city_name", "product", "model", "restaurant", "brand",
              "place", "spot", "location", "dish", "book", "名称", "名字", "城市")
_DESCRIPTION_HEADERS = re.compile(
    r"介绍|简介|描述|特点|亮点|理由|推荐|说明|点评|特色|卖点|description|intro|reason|highlight|why|note",
    re.IGNORECASE,
)
_PRICE_HEADERS = re.compile(r"价|预算|人均|price|cost", re.IGNORECASE)


def marker_number(line: str) -> int | None:
    """The ordinal a line starts with ("1." "1、" "一、" "第一家" "1️⃣"), or None."""
    match = _MARKER_RE.match(line)
    if not match:
        return None
    token = next(group for group in match.groups() if group)
    return to_int(token)


def strip_marker(line: str) -> str:
    """The line without its leading ordinal marker."""
    match = _MARKER_RE.match(line)
    return line[match.end() :].strip() if match else line.strip()


def split_name(head: str, bold: str | None = None) -> tuple[str, str]:
    """Name and description of an item's first line: bold lead, else text before a separator."""
    head = head.strip()
    if bold and head.startswith(bold):
        rest = head[len(bold) :].lstrip(" ：:-—–|｜，,")
        return bold.strip(), rest.strip()
    for separators in (_SEPARATORS, _WEAK_SEPARATORS):
        positions = [(head.find(sep), sep) for sep in separators if head.find(sep) > 0]
        if positions:
            index, sep = min(positions)
            return head[:index].strip(), head[index + len(sep) :].strip()
    return head, ""


def _leading_bold(block: Block) -> str | None:
    node = block.node
    if node is None or not node.children:
        return None
    inline = node.children[0] if node.type == "paragraph" else node
    if inline.type != "inline" or not inline.children:
        return None
    first = inline.children[0]
    if first.type == "text" and not first.content.strip() and len(inline.children) > 1:
        first = inline.children[1]
    if first.type in ("strong", "em"):
        return strip_marker(plain_text(first))
    return None


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
    described = [i for i, h in enumerate(header) if i > 0 and _DESCRIPTION_HEADERS.search(h)]
    priced = [i for i, h in enumerate(header) if _PRICE_HEADERS.search(h)]
    items = []
    for offset, row in enumerate(rows):
        name = strip_marker(row[0]) if row else ""
        if described:
            description = " ".join(row[i] for i in described if i < len(row))
        else:
            description = " ".join(
                cell for i, cell in enumerate(row) if i > 0 and i not in priced
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


@dataclass
class _Marked:
    number: int
    head: str
    line: int
    block_index: int
    heading_level: int  # 0 for a paragraph line
    bold: str | None
    body: list[str] = field(default_factory=list)


def _numbered_runs(doc: MarkdownDoc) -> list[list[_Marked]]:
    marked: list[_Marked] = []
    for index, block in enumerate(doc.blocks):
        if block.kind not in ("paragraph", "heading"):
            if marked and block.kind != "rule":
                marked[-1].body.append(block.text)
            continue
        level = block.level if block.kind == "heading" else 0
        bold = _leading_bold(block)
        for offset, line in enumerate(block.text.split("\n")):
            number = marker_number(line)
            if number is not None:
                marked.append(_Marked(number, line, block.line + offset, index, level,
                                      bold if offset == 0 else None))
            elif marked:
                marked[-1].body.append(line)
    runs: list[list[_Marked]] = []
    for entry in marked:
        if runs and entry.number == runs[-1][-1].number + 1:
            runs[-1].append(entry)
        elif entry.number == 1:
            runs.append([entry])
    return [run for run in runs if len(run) >= 2]


def _run_span(doc: MarkdownDoc, run: list[_Marked]) -> tuple[int, int]:
    """Lines a numbered run's sections cover: from the first marker to the next heading or end."""
    first, last = run[0], run[-1]
    end = 10**9
    for block in doc.blocks[last.block_index + 1 :]:
        if block.kind == "heading" and (last.heading_level == 0 or block.level <= last.heading_level):
            end = block.line - 1
            break
    return first.line, end


def extract(answer: str, doc: MarkdownDoc | None = None) -> ItemList:
    """The items of ``answer``'s main structure (see the module docstring)."""
    parsed = parse_answer(answer)
    if parsed.ok:
        found = main_array(parsed.value)
        if found is not None:
            return ItemList("json", tuple(_json_items(found[1])))
        return ItemList("json", ())
    doc = doc or MarkdownDoc(answer)
    candidates: list[ItemList] = []
    runs = _numbered_runs(doc)
    spans = [_run_span(doc, run) for run in runs if len({m.block_index for m in run}) > 1]
    for run in runs:
        items = tuple(
            _item(m.head, "\n".join([m.head, *m.body]).strip(), m.line, m.bold) for m in run
        )
        candidates.append(ItemList("numbered", items, run[0].line))
    for block_list in doc.lists():
        if any(start <= block_list.line <= end for start, end in spans):
            continue  # sub-points of a numbered item
        candidates.append(ItemList("list", tuple(_from_list_items(block_list.items)), block_list.line))
    for table in doc.tables():
        if len(table.cells) > 1:
            candidates.append(ItemList("table", tuple(_from_table(table)), table.line))
    for block in doc.blocks:
        if block.kind == "code" and block.info.startswith("json"):
            fenced = parse_answer(block.text)
            array = main_array(fenced.value) if fenced.ok else None
            if array is not None:
                candidates.append(ItemList("json", tuple(_json_items(array[1])), block.line))
    if not candidates:
        return ItemList("none", ())
    best = max(candidates, key=lambda c: (len(c.items), -c.line))
    others = tuple(f"{c.source}@{c.line}:{len(c.items)}" for c in candidates if c is not best)
    return ItemList(best.source, best.items, best.line, others)
