"""The judge's reply cache, which a pull request must not be able to answer from.

An entry holds the digest of the whole request that produced it — the prompt's messages, model,
endpoint, temperature, seed and sample — and is a miss unless that digest is the one asked about.
Those digests are computable from public inputs, and a pull request can commit entries, so where
the cache is read is a matter of trust:

- with ``GATE_JUDGE_CACHE_KEY`` set, every entry is signed with it (HMAC-SHA256) and only an entry
  whose signature verifies is read: a CI job given the key as a secret can keep its cache between
  runs, and an entry committed by anyone without the key never answers;
- without a key, the cache is neither read nor written in CI (``CI`` set), like every cache of
  derived results, and it is trusted on a developer's machine.

Entries of an older format (no schema, no digest, no signature where one is needed) are misses."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gate.files.buildinfo import trusted
from gate.files.jsonstore import JsonStore
from gate.semantic.reply import Vote

SCHEMA = "gate.judge-cache/2"
KEY_ENV = "GATE_JUDGE_CACHE_KEY"
"""The environment variable whose value signs and verifies the entries."""


def request_digest(request: Mapping[str, Any]) -> str:
    """The digest of everything that shapes a reply (``request``: JSON-ready)."""
    canonical = json.dumps(request, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "replace")).hexdigest()


def _signature(secret: bytes, digest: str, vote: Vote) -> str:
    signed = json.dumps([SCHEMA, digest, vote.passed, vote.reason], ensure_ascii=False, separators=(",", ":"))
    return hmac.new(secret, signed.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


class ReplyCache:
    """Votes by request digest, signed with ``secret`` when one is given."""

    def __init__(self, directory: Path, secret: bytes | None) -> None:
        self._store = JsonStore(directory)
        self._secret = secret

    def get(self, digest: str) -> Vote | None:
        """The vote stored for the request ``digest``, or None: absent, unreadable, of another format,
        for another request, or unsigned or wrongly signed while a key is set."""
        data = self._store.get(digest)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("prompt") != digest:
            return None
        passed, reason = data.get("passed"), data.get("reason")
        if not isinstance(passed, bool) or not isinstance(reason, str):
            return None
        vote = Vote(passed=passed, reason=reason)
        if self._secret is not None:
            signature = data.get("signature")
            if not isinstance(signature, str) or not hmac.compare_digest(signature, _signature(self._secret, digest, vote)):
                return None
        return vote

    def put(self, digest: str, vote: Vote) -> None:
        entry: dict[str, Any] = {"schema": SCHEMA, "prompt": digest, "passed": vote.passed, "reason": vote.reason}
        if self._secret is not None:
            entry["signature"] = _signature(self._secret, digest, vote)
        self._store.put(digest, json.dumps(entry, ensure_ascii=False))


def open_cache(directory: Path, env: Mapping[str, str]) -> ReplyCache | None:
    """The reply cache at ``directory`` as far as ``env`` lets it be trusted, or None (not in use)."""
    secret = env.get(KEY_ENV, "")
    if secret:
        return ReplyCache(directory, secret.encode("utf-8"))
    return ReplyCache(directory, None) if trusted(env) else None
