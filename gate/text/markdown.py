"""Markdown structure read with a real CommonMark + GFM-table parser (markdown-it-py).

A hyphen in "2025-05-10" or "3-5 天" is text to the parser, not a list; that is why no regex is
used here.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from gate.text.cues import BOLD_LEAD_RE, marker, strip_marker
from gate.text.formatting import Formatting, formatting_of
from gate.text.nodes import leading_bold, plain_text, source_lines, syntax_tree, table_cells

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    # Indented code blocks are off: models fence their code, and a paragraph indented by four
    # spaces (as Chinese text often is) is prose, not code.
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).disable("code")


@dataclass
class ListBlock:
    """A top-level Markdown list: each item's full text (nested sub-points included)."""

    ordered: bool
    start: int
    line: int
    end_line: int
    items: list[Block] = field(default_factory=list)


@dataclass
class Block:
    """A piece of the document with its plain text, its lines and, for a table, its cells."""

    kind: str  # paragraph, heading, list, list_item, table, quote, code, rule, html
    text: str
    line: int
    end_line: int
    level: int = 0
    head: str = ""  # first line / paragraph of a list item, heading text
    cells: list[list[str]] = field(default_factory=list)  # table: header row first
    info: str = ""  # code fence info string
    node: SyntaxTreeNode | None = None
    bold: str | None = None  # list item: the bold (or italic) text it starts with


class MarkdownDoc:
    """A parsed answer: top-level blocks, lists, tables and every formatting construct."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.root = syntax_tree(_parser().parse(text))
        self.blocks: list[Block] = [self._block(node) for node in self.root.children]
        top = {id(block.node): block for block in self.blocks}
        self.flow: list[Block] = [top.get(id(node)) or self._block(node) for node in _unquoted(self.root.children)]
        """The top-level blocks with block quotes opened: a list quoted with "> " is still a list (a
        block outside any quote is the same object in both lists: nothing changes a block once read)."""

    @cached_property
    def lines(self) -> list[str]:
        """The source lines, split once: line-based readers index them instead of re-splitting."""
        return self.text.splitlines()

    @cached_property
    def list_blocks(self) -> list[ListBlock]:
        """:meth:`lists`, merged once, for readers that only look (one per run of entries would
        merge the whole answer's lists again for each)."""
        return self.lists()

    def _block(self, node: SyntaxTreeNode) -> Block:
        start, end = source_lines(node)
        kind = {
            "bullet_list": "list",
            "ordered_list": "list",
            "blockquote": "quote",
            "fence": "code",
            "code_block": "code",
            "hr": "rule",
            "html_block": "html",
        }.get(node.type, node.type)
        block = Block(kind=kind, text=plain_text(node).strip(), line=start, end_line=end, node=node)
        if node.type == "heading":
            block.level = int(node.tag[1:])
            block.head = block.text
        elif node.type == "table":
            block.cells = table_cells(node)
        elif node.type in ("fence", "code_block"):
            block.info = (node.info or "").strip().lower()
        return block

    def lists(self) -> list[ListBlock]:
        """Top-level lists (quoted ones included). An ordered list broken by prose or by
        mis-indented sub-points and then numbered on is merged back; what broke it belongs to the
        item before the break. Bullets right under a numbered item, not indented, are its sub-points."""
        merged: list[ListBlock] = []
        since: list[Block] = []  # blocks after the last ordered list
        last_ordered: ListBlock | None = None
        sub_bullets = False  # the numbered items' sub-points were written as separate bullet lists
        for block in self.flow:
            if block.kind != "list" or block.node is None:
                if block.kind == "heading":
                    last_ordered = None
                if last_ordered is not None and (numbered_on := self._numbered_on(block, last_ordered)):
                    last_ordered.items.extend(numbered_on)
                    last_ordered.end_line = numbered_on[-1].end_line
                    since = []
                    continue
                since.append(block)
                continue
            node = block.node
            ordered = node.type == "ordered_list"
            start = int(node.attrs.get("start", 1)) if ordered else 1
            items = self._ordered_items(node, start) if ordered else [self._list_item(child) for child in node.children]
            if not ordered and merged and not merged[-1].ordered and merged[-1].end_line == block.line - 1:
                merged[-1].items.extend(items)  # "- a / * b / + c": each new bullet starts a list in CommonMark
                merged[-1].end_line = block.end_line
                continue
            if not ordered and last_ordered is not None and not since and not self._after_blank(block.line):
                tail = last_ordered.items[-1]
                tail.text = f"{tail.text}\n{block.text}"
                tail.end_line = last_ordered.end_line = block.end_line
                sub_bullets = True
                continue
            if (
                ordered
                and last_ordered is not None
                and start > 1
                and start == last_ordered.start + len(last_ordered.items)
            ):
                tail = last_ordered.items[-1]
                for between in since:
                    tail.text = f"{tail.text}\n{between.text}".strip()
                    tail.end_line = between.end_line
                sub_bullets = sub_bullets or any(b.kind == "list" for b in since)
                gap = (last_ordered.end_line, block.line)
                while merged[-1] is not last_ordered and gap[0] < merged[-1].line < gap[1]:
                    merged.pop()  # the lists in the gap are the ones appended since last_ordered
                last_ordered.items.extend(items)
                last_ordered.end_line = block.end_line
                since = []
                continue
            current = ListBlock(ordered, start, block.line, block.end_line, items)
            merged.append(current)
            if ordered:
                last_ordered, since, sub_bullets = current, [], False
            else:
                since.append(block)
        if last_ordered is not None and sub_bullets and since and since[0].kind == "list":
            tail = last_ordered.items[-1]  # the last item's sub-points follow it the same way
            tail.text = f"{tail.text}\n{since[0].text}"
            merged = [m for m in merged if m.line != since[0].line]
        return merged

    def _numbered_on(self, block: Block, before: ListBlock) -> list[Block]:
        """The entries of a paragraph that numbers on from the ordered list ``before`` — "4." under a
        group's label line, which CommonMark reads as the label's text (only "1." may start a list
        inside a paragraph). The lines before the first label the group and stay prose."""
        if block.kind != "paragraph":
            return []
        return self._numbered_lines(block.line, block.text.split("\n"), before.start + len(before.items))[1]

    def _numbered_lines(self, first: int, texts: list[str], expected: int) -> tuple[int, list[Block]]:
        """The lines of a paragraph (from source line ``first``; ``texts`` its plain text by line) that
        number on from ``expected`` ("4. …", "3、…": what CommonMark lets no paragraph be interrupted
        by, or a delimiter it does not know), each an entry with the lines up to the next; and how
        many lines come before the first entry."""
        entries: list[Block] = []
        before = len(texts)
        for offset, text in enumerate(texts):
            line = first + offset
            source = unquote(self.lines[line - 1]) if 0 < line <= len(self.lines) else ""
            numbered = marker(source)
            if numbered is not None and numbered[0].startswith("arabic") and numbered[1] == expected + len(entries):
                before = min(before, offset)
                head = strip_marker(text)
                bold = BOLD_LEAD_RE.match(strip_marker(source))
                entries.append(Block(kind="list_item", text=head, line=line, end_line=line, head=head,
                                     bold=bold.group("bold").strip() if bold else None))
            elif entries:
                entries[-1].text = f"{entries[-1].text}\n{text}"
                entries[-1].end_line = line
        return before, entries

    def _ordered_items(self, node: SyntaxTreeNode, start: int) -> list[Block]:
        """The items of an ordered list, with the lines an item's paragraph numbers on from it taken
        out as the next items: "1. … / 2) … / 3、…" is one list to a reader, while CommonMark starts a
        new list at "2)" and reads "3、…" as the text of item 2."""
        items: list[Block] = []
        for child in node.children:
            item = self._list_item(child)
            items.append(item)
            if len(child.children) != 1 or child.children[0].type != "paragraph":
                continue  # lines of a paragraph only: sub-lists and code keep their own numbers
            texts = item.text.split("\n")
            kept, entries = self._numbered_lines(item.line + 1, texts[1:], start + len(items))
            if entries:
                item.text = item.head = "\n".join(texts[: 1 + kept])
                item.end_line = item.line + kept
                items.extend(entries)
        return items

    def _after_blank(self, line: int) -> bool:
        """True when source ``line`` follows a blank line (or starts the text)."""
        lines = self.lines
        return line < 2 or line - 2 >= len(lines) or not unquote(lines[line - 2]).strip()

    def _list_item(self, node: SyntaxTreeNode) -> Block:
        start, end = source_lines(node)
        head = plain_text(node.children[0]).strip() if node.children else ""
        first = node.children[0] if node.children else None
        return Block(
            kind="list_item",
            text=plain_text(node).strip(),
            line=start,
            end_line=end,
            head=head,
            node=first,
            bold=leading_bold(first) if first is not None else None,
        )

    def formatting(self) -> list[Formatting]:
        """Every formatting construct, in document order (plus literal '**' left as text)."""
        return formatting_of(self.root, self.lines)

    def tables(self) -> list[Block]:
        """Tables anywhere in the document, header row first in ``cells``."""
        return [block for block in self._walk_blocks() if block.kind == "table"]

    def _walk_blocks(self) -> list[Block]:
        found: list[Block] = []
        pending = deque(self.root.children)  # document order, depth first
        while pending:
            node = pending.popleft()
            if node.type == "table":
                found.append(self._block(node))
            elif node.type not in ("inline",):
                pending.extendleft(reversed(node.children))
        return found


_QUOTE_RE = re.compile(r"^\s*(?:>\s?)+")


def unquote(line: str) -> str:
    """A source line without its block-quote marks ("> ")."""
    return _QUOTE_RE.sub("", line)


def _unquoted(nodes: list[SyntaxTreeNode]) -> list[SyntaxTreeNode]:
    found: list[SyntaxTreeNode] = []
    for node in nodes:
        found += _unquoted(node.children) if node.type == "blockquote" else [node]
    return found


def parse(text: str) -> MarkdownDoc:
    """Parse ``text`` as CommonMark with GFM tables."""
    return MarkdownDoc(text)
