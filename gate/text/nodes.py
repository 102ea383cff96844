"""markdown-it's syntax tree, built and read: a tree whose nodes hold their parents weakly, a node's
plain text (emphasis, links and code kept as their text), the bold span that leads it, its source
lines, a table's cells."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it.token import Token
    from markdown_it.tree import SyntaxTreeNode


def plain_text(node: SyntaxTreeNode) -> str:
    """The text a reader sees in ``node``, markup removed; breaks become newlines. Blocks, list items
    and their heads ask for the same nodes' text again, so it is kept on the node once read."""
    known: str | None = getattr(node, "_gate_plain_text", None)
    if known is not None:
        return known
    kind = node.type  # a computed property in markdown-it: read it once
    if kind in ("text", "code_inline", "html_inline", "fence", "code_block", "html_block"):
        text = node.content
    elif kind in ("softbreak", "hardbreak"):
        text = "\n"
    elif kind == "image":
        text = "".join(plain_text(child) for child in node.children) or node.content
    else:
        parts = [plain_text(child) for child in node.children]
        if kind == "inline" or not node.children:
            text = "".join(parts)
        elif kind == "tr":
            text = " | ".join(parts)
        else:
            text = "\n".join(part for part in parts if part)
    node._gate_plain_text = text  # type: ignore[attr-defined]
    return text


def leading_bold(node: SyntaxTreeNode) -> str | None:
    """The text of the bold (or italic) span a paragraph starts with, or None."""
    inline = node.children[0] if node.type == "paragraph" and node.children else node
    if inline.type != "inline" or not inline.children:
        return None
    first = inline.children[0]
    if first.type == "text" and not first.content.strip() and len(inline.children) > 1:
        first = inline.children[1]
    if first.type in ("strong", "em"):
        return plain_text(first).strip() or None
    return None


def source_lines(node: SyntaxTreeNode) -> tuple[int, int]:
    if node.map:
        return node.map[0] + 1, node.map[1]
    return 0, 0


def table_cells(node: SyntaxTreeNode) -> list[list[str]]:
    rows: list[list[str]] = []
    for section in node.children:  # thead, tbody
        for row in section.children:
            rows.append([plain_text(cell).strip() for cell in row.children])
    return rows


@lru_cache(maxsize=1)
def _weak_parent_type() -> type[SyntaxTreeNode]:
    import weakref

    from markdown_it.tree import SyntaxTreeNode

    class WeakParentNode(SyntaxTreeNode):
        """A node holding its parent weakly: a parsed answer is then a tree, not a web of cycles, and
        is freed with its answer instead of waiting for a full collection (a gate process collects
        its old objects rarely). The root lives as long as the document, so parents still resolve."""

        @property
        def parent(self) -> WeakParentNode | None:
            ref = self._parent
            return ref() if ref is not None else None

        @parent.setter
        def parent(self, value: WeakParentNode | None) -> None:
            self._parent = weakref.ref(value) if value is not None else None

    return WeakParentNode


def syntax_tree(tokens: Sequence[Token]) -> SyntaxTreeNode:
    """The syntax tree of a token stream, its nodes holding their parents weakly."""
    return _weak_parent_type()(tokens)
