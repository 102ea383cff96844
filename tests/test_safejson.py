"""The one JSON reader: strict RFC 8259 within bounds, fast on hostile input; and the strict writer."""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.files import safejson
from gate.files.atomic import dump_json

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(JSON_VALUES)
def test_ordinary_json_reads_as_json_loads_reads_it(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert safejson.loads(text) == json.loads(text)
    assert safejson.loads(text.encode("utf-8")) == json.loads(text)
    safejson.check_value(value)


def test_the_depth_bound_is_exact_and_brackets_in_strings_do_not_count() -> None:
    assert safejson.loads("[" * 100 + "]" * 100) is not None
    with pytest.raises(json.JSONDecodeError, match=r"^nested deeper than 100 levels: line 1 column 101"):
        safejson.loads("[" * 101 + "]" * 101)
    assert safejson.loads(json.dumps(["[" * 5000, "{" * 5000])) == ["[" * 5000, "{" * 5000]


@pytest.mark.parametrize(
    "text",
    ["[" * 1_000_000, "[" * 500_000 + "]" * 500_000, '{"a":' * 200_000 + "1" + "}" * 200_000,
     "[" + "9" * 1_000_000 + "]", '{"x": [' + "NaN, " * 200_000 + "1]}"],
    ids=["1MB-open-brackets", "1MB-balanced", "object-chain", "1MB-integer", "200000-NaN"],
)
def test_a_megabyte_of_hostile_json_is_refused_within_a_second(text: str) -> None:
    start = time.process_time()  # CPU time: a loaded machine stretches wall time, not this
    with pytest.raises(json.JSONDecodeError):
        safejson.loads(text)
    assert time.process_time() - start < 1.0


def test_a_leading_byte_order_mark_is_ignored_and_other_encodings_refused() -> None:
    assert safejson.loads(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}
    with pytest.raises(json.JSONDecodeError, match="not UTF-8"):
        safejson.loads('{"a": "é"}'.encode("utf-16"))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"a": (1, [2, {"b": math.inf}])}, "a[1][1].b: inf is not a JSON number"),
        ({"a": {3: "x"}}, "a: key 3 is not a string"),
        ({"a": b"bytes"}, "a: bytes is not a JSON type"),
        ({"a": [-(10**150)]}, "a[0]: an integer of more than 100 digits"),
    ],
)
def test_a_python_value_outside_json_is_named_by_its_path(value: Any, message: str) -> None:
    with pytest.raises(safejson.UnsafeValue) as raised:
        safejson.check_value(value)
    assert str(raised.value) == message


def test_reports_are_never_written_with_nan() -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        dump_json({"rate": math.nan})
    with pytest.raises(ValueError, match="not JSON compliant"):
        safejson.dumps([math.inf])
