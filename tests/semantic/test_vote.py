"""Majority vote: a strict majority of the samples asked decides; a split is recorded as such."""

from __future__ import annotations

import pytest

from gate.semantic.client import Sample
from gate.semantic.reply import Vote
from gate.semantic.vote import tally
from gate.verdict import Status

P, F, E = Sample(vote=Vote(True, "yes")), Sample(vote=Vote(False, "no")), Sample(error="judge endpoint: HTTP 500")


@pytest.mark.parametrize("samples, status, split", [
    ([P, P, P], Status.PASS, False),
    ([F, F, F], Status.FAIL, False),
    ([P, P, F], Status.PASS, True),
    ([F, P, F], Status.FAIL, True),
    ([P, P, E], Status.PASS, False),
    ([P, F, E], Status.ERROR, True),
    ([P, E, E], Status.ERROR, False),
    ([E, E, E], Status.ERROR, False),
    ([P, F], Status.ERROR, True),
    ([P], Status.PASS, False),
    ([P, P, F, F, F], Status.FAIL, True),
])
def test_the_majority_of_all_samples_decides(samples: list[Sample], status: Status, split: bool) -> None:
    found = tally(samples)
    assert (found.status, found.split) == (status, split)
    assert (found.passes, found.fails, found.errors) == (samples.count(P), samples.count(F), samples.count(E))


def test_the_detail_gives_the_counts_and_the_majoritys_reason() -> None:
    assert tally([P, F, P]).detail == "2 pass · 1 fail: yes"
    assert tally([F, F, P]).detail == "1 pass · 2 fail: no"


def test_no_majority_names_the_counts_and_the_first_error() -> None:
    detail = tally([P, F, E]).detail
    assert detail == "no majority of 3 samples (1 pass · 1 fail · 1 error); first error: judge endpoint: HTTP 500"
