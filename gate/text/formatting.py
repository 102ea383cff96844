"""The formatting constructs of a parsed answer — headings, lists, emphasis, code, tables, rules,
links, HTML — each with its line, for the checks that want plain text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

# Formatting kinds reported by plain-text checks, keyed by syntax-tree node type.
FORMATTING_NODES: dict[str, str] = {
    "heading": "heading",
    "bullet_list": "list",
    "ordered_list": "list",
    "strong": "emphasis",
    "em": "emphasis",
    "s": "emphasis",
    "blockquote": "block quote",
    "code_inline": "code",
    "fence": "code",
    "code_block": "code",
    "table": "table",
    "hr": "rule",
    "link": "link",
    "image": "link",
    "html_block": "html",
    "html_inline": "html",
}
FORMATTING_KINDS = sorted(set(FORMATTING_NODES.values()))

# '**' or '__' pairs the parser left as text (CJK punctuation often defeats CommonMark's
# flanking rules), still formatting marks to a reader.
_LITERAL_STRONG_RE = re.compile(r"(\*\*|__)\S.*?\S?\1")
# An opening '**' never closed ("**清水寺、金阁寺……" to the end of the paragraph): the reader sees the mark.
_UNCLOSED_STRONG_RE = re.compile(r"(?<![*_\w])(?:\*\*|__)(?=[^\s*_])")
# "##京都": heading marks with no space after them, text to CommonMark but a heading meant; one "#" is
# a hashtag ("#巴厘岛#").
_LITERAL_HEADING_RE = re.compile(r"[ ]{0,3}#{2,6}(?=[^\s#])")


@dataclass(frozen=True)
class Formatting:
    """One formatting construct: its kind, the 1-based line, and a snippet."""

    kind: str
    line: int
    snippet: str


def formatting_of(root: SyntaxTreeNode, lines: list[str]) -> list[Formatting]:
    """Every formatting construct of the tree ``root`` parsed from ``lines``, in document order
    (plus literal '**' and '##' left as text, a '**' never closed too)."""
    found: list[Formatting] = []
    # Each line's snippet once: a long line holding thousands of constructs was stripped (copied
    # whole) once for each of them.
    snippets = [line.strip()[:40] for line in lines]
    for child in root.children:
        _collect(child, found, 0, snippets)
    emphasised = {f.line for f in found if f.kind == "emphasis"}
    headed = {f.line for f in found if f.kind == "heading"} | _code_lines(root)
    for number, line in enumerate(lines, start=1):
        match = (_LITERAL_STRONG_RE.search(line) or _UNCLOSED_STRONG_RE.search(line)) if number not in emphasised else None
        if match:
            found.append(Formatting("emphasis", number, match.group(0)[:40]))
        if number not in headed and _LITERAL_HEADING_RE.match(line):
            found.append(Formatting("heading", number, _snippet(snippets, number)))
    found.sort(key=lambda f: (f.line, f.kind))
    return found


def _code_lines(root: SyntaxTreeNode) -> set[int]:
    """The source lines of code blocks: what is written there is code, not formatting marks."""
    found: set[int] = set()
    pending = list(root.children)
    while pending:
        node = pending.pop()
        if node.type in ("fence", "code_block") and node.map:
            found.update(range(node.map[0] + 1, node.map[1] + 1))
        elif node.type != "inline":
            pending.extend(node.children)
    return found


def _collect(node: SyntaxTreeNode, found: list[Formatting], line: int, snippets: list[str]) -> None:
    if node.type == "inline":
        _collect_inline(node, found, line, snippets)
        return
    if node.map:
        line = node.map[0] + 1
    kind = FORMATTING_NODES.get(node.type)
    if kind is not None:
        found.append(Formatting(kind, line, _snippet(snippets, line)))
        if kind in ("code", "table"):  # their insides are content, not more formatting
            return
    for child in node.children:
        _collect(child, found, line, snippets)


def _collect_inline(node: SyntaxTreeNode, found: list[Formatting], line: int, snippets: list[str]) -> None:
    # Inline nodes carry no line map: count the breaks before each construct instead.
    for child in node.children:
        if child.type in ("softbreak", "hardbreak"):
            line += 1
            continue
        kind = FORMATTING_NODES.get(child.type)
        if kind is not None:
            found.append(Formatting(kind, line, _snippet(snippets, line)))
        elif child.children:
            _collect_inline(child, found, line, snippets)


def _snippet(snippets: list[str], line: int) -> str:
    return snippets[line - 1] if 1 <= line <= len(snippets) else ""
