"""Stable sharding over a CI matrix: balanced, and independent of file order.

Case ids are ordered by a hash of the id and dealt round-robin, so each shard gets a near-equal
share (±1 case) and the same case set always splits the same way on every machine.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from gate.errors import GateError

MAX_SHARDS = 256
"""Most shards a case set is split into: a GitHub Actions matrix runs at most 256 jobs, and
`gate merge` checks every shard of N is there."""


def parse_shard(text: str) -> tuple[int, int]:
    """'K/N' (1 ≤ K ≤ N ≤ MAX_SHARDS) as (K, N)."""
    match = re.fullmatch(r"\s*(\d{1,20})\s*/\s*(\d{1,20})\s*", text)
    if not match:
        raise GateError(f"--shard must look like K/N (e.g. 2/4), got '{text[:40]}'")
    k, n = int(match.group(1)), int(match.group(2))
    if n < 1 or not 1 <= k <= n:
        raise GateError(f"--shard {text}: K must be between 1 and N (N ≥ 1)")
    if n > MAX_SHARDS:
        raise GateError(f"--shard {text}: N must be at most {MAX_SHARDS}")
    return k, n


def _rank_key(case_id: str) -> tuple[bytes, str]:
    return hashlib.sha256(case_id.encode("utf-8")).digest(), case_id


def assign(case_ids: Iterable[str], total: int) -> dict[str, int]:
    """Each case id's 1-based shard among ``total`` shards."""
    ordered = sorted(set(case_ids), key=_rank_key)
    return {cid: index % total + 1 for index, cid in enumerate(ordered)}


def select_shard(case_ids: Iterable[str], shard: tuple[int, int]) -> list[str]:
    """The ids of ``case_ids`` in shard K of N, sorted."""
    k, n = shard
    return sorted(cid for cid, s in assign(case_ids, n).items() if s == k)
