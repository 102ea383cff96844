"""The one table of checkers: namespaced id → checker, alphabetical. The CLI and docs/checkers.md read it too."""

from __future__ import annotations

from typing import Any

from gate.checkers import (
    items_checks,
    json_checks,
    language_checks,
    markdown_checks,
    order_checks,
    term_checks,
    text_checks,
    tool_checks,
)
from gate.checkers.base import Checker, Params

REGISTRY: dict[str, Checker[Any]] = {
    "items:count": items_checks.items_count,
    "items:length": items_checks.items_length,
    "items:price": items_checks.items_price,
    "json:count": json_checks.json_count,
    "json:fields": json_checks.json_fields,
    "json:schema": json_checks.json_schema,
    "json:valid": json_checks.json_valid,
    "markdown:list": markdown_checks.markdown_list,
    "markdown:no_list": markdown_checks.markdown_no_list,
    "markdown:plain_text": markdown_checks.markdown_plain_text,
    "markdown:table": markdown_checks.markdown_table,
    "terms:forbidden": term_checks.terms_forbidden,
    "terms:required": term_checks.terms_required,
    "text:acknowledges_limit": text_checks.text_acknowledges_limit,
    "text:asks_user": text_checks.text_asks_user,
    "text:days": text_checks.text_days,
    "text:language": language_checks.text_language,
    "text:length": text_checks.text_length,
    "text:no_repeated_sentences": text_checks.text_no_repeated_sentences,
    "text:sections": text_checks.text_sections,
    "text:sentences": text_checks.text_sentences,
    "tools:args": tool_checks.tools_args,
    "tools:forbidden": tool_checks.tools_forbidden,
    "tools:max_calls": tool_checks.tools_max_calls,
    "tools:no_repeat": tool_checks.tools_no_repeat,
    "tools:order": order_checks.tools_order,
    "tools:required": tool_checks.tools_required,
    "tools:sequence": order_checks.tools_sequence,
    "tools:uses_result": tool_checks.tools_uses_result,
}

assert list(REGISTRY) == sorted(REGISTRY), "keep the checker table alphabetical"
assert all(key == checker.id for key, checker in REGISTRY.items()), "table key must equal checker id"

__all__ = ["REGISTRY", "Checker", "Params"]
