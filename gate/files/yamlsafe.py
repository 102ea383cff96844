"""A YAML loader that refuses what PyYAML silently accepts: duplicate keys and alias bombs.

PyYAML lets the second of two equal keys win — a second ``params:`` block can loosen a check, a
trailing ``constraints: []`` can empty a case — and it expands aliases only when the data is
walked, so a few hundred bytes of nested anchors (a "billion laughs") become 10^10 values as soon
as pydantic validates them. Both are refused here, before any value is built.

Scalars PyYAML cannot build (``!!int 0x``, ``!!float abc``, an integer of 5,000 digits) raise
ValueError from deep inside it; here each is a :class:`RefusedYaml` at its line. A date-looking
scalar (``2025-02-29``) stays the text it is: a field that wants a date reads it as one (and names
a day that does not exist), and one that wants a string — a case id, a note — gets it as written.
"""

from __future__ import annotations

from typing import Any

import yaml

MAX_NODES = 100_000
"""Most YAML nodes a document may hold once its aliases are expanded; a real case file has hundreds."""
MAX_DIGITS = 100
"""Longest integer read, in digits (as gate.files.safejson reads JSON): no count or threshold comes near."""

_MERGE_TAG = "tag:yaml.org,2002:merge"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_KINDS = {"tag:yaml.org,2002:int": "an integer", "tag:yaml.org,2002:float": "a number",
          "tag:yaml.org,2002:bool": "true or false", "tag:yaml.org,2002:binary": "base64 data"}
_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser, where PyYAML has it


class RefusedYaml(yaml.YAMLError):
    """A document that parses but that the gate will not read; ``line`` is 1-based."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _shown(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def check_expansion(root: yaml.Node, limit: int = MAX_NODES) -> None:
    """Refuse a node graph that is cyclic or expands to more than ``limit`` nodes.

    Aliases make the composed document a DAG whose nodes are shared; its expanded size is counted
    bottom-up with each shared node counted once per use but visited once, so this is linear in
    the document's text, not in its expansion. Iterative: a deep document cannot overflow the stack.
    """
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            on_path.discard(key)
            total = 1 + sum(size[id(child)] for child in _children(node))
            if total > limit:
                raise RefusedYaml(f"too large once aliases (*name) are expanded: more than {limit} YAML nodes",
                                  _line(node))
            size[key] = total
            continue
        if key in size:
            continue
        on_path.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in on_path:
                raise RefusedYaml("an alias refers to a collection that contains it (a recursive structure)",
                                  _line(child))
            if id(child) not in size:
                stack.append((child, False))


class StrictLoader(_Base):  # type: ignore[misc]
    """Safe loading, with duplicate keys and oversized or recursive alias graphs refused."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._checked_mappings: set[int] = set()
        # Without an anchor (&name) there is no alias (*name refers to one, or the parse fails), so
        # nothing is shared and nothing can expand: the graph walk is only for documents with one.
        self._may_alias = not isinstance(stream, str) or "&" in stream

    def get_single_data(self) -> Any:
        node = self.get_single_node()
        if node is None:
            return None
        if self._may_alias:
            check_expansion(node)
        return self.construct_document(node)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
            if not isinstance(node, yaml.ScalarNode):
                raise  # a collection's own errors are PyYAML's ConstructorErrors; a child's are raised below
            expected = _KINDS.get(node.tag, f"a value of tag {node.tag}")
            raise RefusedYaml(f"'{_shown(node.value)}' is not {expected}", _line(node)) from None

    def construct_yaml_int(self, node: yaml.ScalarNode) -> Any:
        value = str(node.value)
        if sum(char.isalnum() for char in value) > MAX_DIGITS:  # int() of 5,000 digits is a ValueError, 4,000 slow
            raise RefusedYaml(f"an integer of more than {MAX_DIGITS} digits", _line(node))
        return super().construct_yaml_int(node)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> Any:
        return self.construct_scalar(node)

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        # Checked before PyYAML folds `<<: *base` merges in: a key after a merge overrides it, by design.
        self._refuse_duplicates(node)
        super().flatten_mapping(node)

    def _refuse_duplicates(self, node: yaml.MappingNode) -> None:
        if id(node) in self._checked_mappings:
            return
        self._checked_mappings.add(id(node))
        first: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:
                continue
            key = self.construct_object(key_node, deep=False)
            try:
                earlier = first.setdefault(key, key_node)
            except TypeError:  # an unhashable key: PyYAML's own error says so
                continue
            if earlier is not key_node:
                raise RefusedYaml(f"duplicate key '{key}' (first at line {_line(earlier)})", _line(key_node))


StrictLoader.add_constructor("tag:yaml.org,2002:int", StrictLoader.construct_yaml_int)
StrictLoader.add_constructor(_TIMESTAMP_TAG, StrictLoader.construct_yaml_timestamp)
