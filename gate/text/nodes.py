"""Reading markdown-it's syntax tree: a node's plain text (emphasis, links and code kept as their text),
the bold span that leads it, its source lines, a table's cells."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
