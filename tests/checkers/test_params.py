"""Checker parameters are validated before anything runs, with messages that say what to fix."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from gate.checkers import REGISTRY


def _error(check: str, params: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as caught:
        REGISTRY[check].params.model_validate(params)
    error = caught.value.errors(include_url=False)[0]
    return f"{'.'.join(map(str, error['loc']))}: {str(error['msg']).removeprefix('Value error, ')}"


@pytest.mark.parametrize(
    ("check", "params", "message"),
    [
        ("items:count", {}, ": give exact, min or max"),
        ("items:count", {"exact": 3, "max": 5}, ": exact cannot be combined with min or max"),
        ("items:count", {"min": 8, "max": 5}, ": min (8) is greater than max (5)"),
        ("text:length", {"max": -1}, ": max must be ≥ 0"),
        ("text:length", {"max": 200, "unit": "bytes"}, "unit: Input should be 'zi', 'chars', 'mixed' or 'words'"),
        ("items:length", {"unit": "zi"}, ": give max or min"),
        ("items:price", {"max": 100, "missing": "pass"}, "missing: Input should be 'fail' or 'ignore'"),
        ("terms:forbidden", {}, ": give terms or groups"),
        ("terms:forbidden", {"groups": ["sonny"]}, "groups: unknown alias group 'sonny' — did you mean 'sony'?"),
        ("terms:forbidden", {"terms": ["re:["]}, "terms: bad regular expression 're:[': unterminated character set at position 0"),
        ("terms:forbidden", {"terms": ["re:a*"]}, "terms: regular expression 're:a*' matches the empty string"),
        ("terms:forbidden", {"terms": [" "]}, "terms: a term must not be empty"),
        ("terms:forbidden", {"terms": ["索尼"], "scope": "names"}, "scope: Input should be 'answer', 'items' or 'item_names'"),
        ("tools:args", {"tool": "search", "args": {"q": "re:("}},
         "args: bad regular expression 're:(': missing ), unterminated subpattern at position 0"),
        ("tools:args", {"tool": "search", "args": {"filters": {"city": "re:?"}}},
         "args: bad regular expression 're:?': nothing to repeat at position 0"),
        ("tools:args", {"tool": "search", "args": {}}, "args: Dictionary should have at least 1 item after validation, not 0"),
        ("tools:required", {"tools": []}, "tools: List should have at least 1 item after validation, not 0"),
        ("tools:max_calls", {"max": -1}, "max: Input should be greater than or equal to 0"),
        ("json:schema", {"schema": {"type": "nonsense"}}, "schema: not a valid JSON Schema: 'nonsense' is not valid under any of the given schemas"),
        ("json:valid", {"type": "list"}, "type: Input should be 'array', 'object' or 'any'"),
        ("markdown:plain_text", {"forbid": ["bold"]},
         "forbid: unknown formatting kinds ['bold']; known: ['block quote', 'code', 'emphasis', 'heading', 'html', 'link', 'list', 'rule', 'table']"),
        ("text:days", {"days": 0}, "days: Input should be greater than or equal to 1"),
        ("markdown:no_list", {"strict": True}, "strict: Extra inputs are not permitted"),
    ],
)
def test_bad_parameters(check: str, params: dict[str, Any], message: str) -> None:
    assert _error(check, params) == message


def test_parameters_are_frozen() -> None:
    params = REGISTRY["items:count"].params.model_validate({"exact": 3})
    with pytest.raises(ValidationError):
        params.exact = 4  # type: ignore[misc]
