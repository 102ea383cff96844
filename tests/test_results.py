"""results.json written a run at a time is byte for byte the document written whole."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.files.atomic import dump_json
from gate.results import _encode, _encode_parts, results_document, results_head, results_text
from gate.verdict import ConstraintVerdict, RunVerdict, Status

text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)  # \x1b, \n, 中文, U+2028
scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | text | st.floats(allow_nan=False, allow_infinity=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                      max_leaves=8)
constraints = st.lists(st.builds(
    ConstraintVerdict, id=text, check=st.sampled_from(["items:count", "terms:forbidden", "judge"]),
    status=st.sampled_from(list(Status)), detail=text, evidence=st.lists(text, max_size=2).map(tuple),
    source=st.none() | st.sampled_from(["judge", "human"]),
), max_size=3).map(tuple)


@st.composite
def verdicts(draw: st.DrawFn) -> list[RunVerdict]:
    """Runs in any order, repeats sharing one constraints tuple and one metadata dict, as a
    deterministic agent's do."""
    shared = draw(st.lists(constraints, min_size=1, max_size=3))
    recorded = draw(st.lists(st.dictionaries(text, values, max_size=3), min_size=1, max_size=3))
    keys = draw(st.lists(st.tuples(st.sampled_from(["B3-01", "X-CD-02", "中文"]), st.sampled_from(["A", "B"]),
                                   st.integers(0, 30)), unique=True, max_size=8))
    return [RunVerdict(case_id=case_id, group=group, run=run, status=draw(st.sampled_from(list(Status))),
                       error=draw(st.none() | text), constraints=draw(st.sampled_from(shared)),
                       ).model_copy(update={"metadata": draw(st.sampled_from(recorded))})  # the same dict, uncopied
            for case_id, group, run in keys]


def head(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return results_head(cases_digest="sha256:" + "0" * 64, metrics={"overall": {"A": 0.5}}, findings=[], passed=True,
                        extra={"consistency": None, "interrupted": False} if extra is None else extra)


@given(runs=verdicts(), extra=st.dictionaries(st.sampled_from(["zeta", "baseline", "rate", "a"]), values, max_size=3))
def test_streamed_text_is_the_whole_documents_text(runs: list[RunVerdict], extra: dict[str, Any]) -> None:
    assert "".join(results_text(head(extra), runs)) == dump_json(results_document(head(extra), runs))


@pytest.mark.parametrize("runs", [[], [RunVerdict(case_id="a", group="A", run=0, status=Status.ERROR, error="boom")]])
def test_no_runs_and_a_run_without_constraints(runs: list[RunVerdict]) -> None:
    assert "".join(results_text(head(), runs)) == dump_json(results_document(head(), runs))


def test_a_nan_is_refused_while_streaming_too() -> None:
    run = RunVerdict(case_id="a", group="A", run=0, status=Status.PASS, metadata={"latency": math.nan})
    with pytest.raises(ValueError, match="not JSON compliant"):
        "".join(results_text(head(), [run]))


@given(value=values, level=st.sampled_from([0, 2, 6]), size=st.integers(1, 40))
def test_a_value_encoded_in_parts_is_the_value_encoded_at_once(value: Any, level: int, size: int) -> None:
    assert "".join(_encode_parts(value, level, size)) == _encode(value, level)


def test_the_heads_large_values_are_written_in_bounded_parts() -> None:
    # the metrics of 6,000 cases encoded at once were ~15 MiB of pieces and copies beside the text
    metrics = {"cases": {f"B3-QC-{n:05d}": {"groups": {"A": "pass", "B": "fail"}, "counts": {"A": [1, 1]}}
                         for n in range(3000)}}
    parts = list(_encode_parts(metrics, 2))
    assert "".join(parts) == _encode(metrics, 2)
    assert len(parts) > 5 and max(len(part) for part in parts) < 2 * (1 << 16)
