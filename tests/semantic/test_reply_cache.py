"""The judge's reply cache answers only the request that produced an entry, and never from an entry a
pull request could have committed: in CI it is read only when its entries are signed with the key
the job was given (GATE_JUDGE_CACHE_KEY)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from gate.config.gate_yaml import JudgeConfig
from gate.net.retry import RetryPolicy
from gate.semantic.client import JudgeClient
from gate.semantic.reply import Vote
from gate.semantic.replycache import KEY_ENV, SCHEMA, open_cache
from tests.runner.loopback import Reply
from tests.semantic.cases import ANSWERS, write_cases
from tests.semantic.standin import Asked, config_text, judge_mocked, verdict

ASKED = [{"role": "system", "content": "judge"}, {"role": "user", "content": "is it friendly?"}]
OTHER = [{"role": "system", "content": "judge"}, {"role": "user", "content": "is it brief?"}]


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither CI nor a key unless a test sets one, wherever the suite runs."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(KEY_ENV, raising=False)


def _client(root: Path, env: dict[str, str] | None = None, **settings: Any) -> JudgeClient:
    config = JudgeConfig(**{"url": "http://judge.test/v1", "model": "stand-in", "cache": "cache", **settings})
    return JudgeClient(config, root, RetryPolicy(retries=0), env=env or {})


def _entry_path(root: Path, key: str) -> Path:
    return root / "cache" / key[:2] / f"{key}.json"


def _write(path: Path, entry: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")


def test_an_entry_answers_only_the_request_whose_digest_it_holds(tmp_path: Path) -> None:
    client = _client(tmp_path)
    asked, other = client.key(ASKED, 0), client.key(OTHER, 0)
    _write(_entry_path(tmp_path, asked), {"schema": SCHEMA, "prompt": asked, "passed": True, "reason": "友好"})
    found = client.cached(ASKED, 0)
    assert found is not None and found.vote == Vote(passed=True, reason="友好") and found.cached
    entry = json.loads(_entry_path(tmp_path, asked).read_text(encoding="utf-8"))
    _write(_entry_path(tmp_path, other), entry)  # the same entry, filed under another request
    assert client.cached(OTHER, 0) is None
    assert client.cached(ASKED, 1) is None  # another sample (another seed) is another request
    assert _client(tmp_path, model="another").cached(ASKED, 0) is None
    assert _client(tmp_path, temperature=0.7).cached(ASKED, 0) is None


@pytest.mark.parametrize("entry", [
    {"passed": True, "reason": "the format before the digest"},
    {"schema": "gate.judge-cache/1", "passed": True, "reason": "an unknown format"},
    {"schema": SCHEMA, "passed": True, "reason": "no digest"},
    {"schema": SCHEMA, "prompt": "{key}", "passed": "yes", "reason": "not a boolean"},
    [True, "not an object"],
], ids=["v1", "unknown-schema", "no-digest", "bad-passed", "not-an-object"])
def test_an_entry_of_another_format_is_a_miss_never_an_error(tmp_path: Path, entry: Any) -> None:
    client = _client(tmp_path)
    key = client.key(ASKED, 0)
    if isinstance(entry, dict) and entry.get("prompt") == "{key}":
        entry = {**entry, "prompt": key}
    _write(_entry_path(tmp_path, key), entry)
    assert client.cached(ASKED, 0) is None


def test_in_ci_without_a_key_the_cache_is_neither_read_nor_written(tmp_path: Path) -> None:
    local = _client(tmp_path)
    key = local.key(ASKED, 0)
    _write(_entry_path(tmp_path, key), {"schema": SCHEMA, "prompt": key, "passed": True, "reason": "committed"})
    assert local.cached(ASKED, 0) is not None  # a developer's machine trusts its cache
    assert _client(tmp_path, {"CI": "true"}).cached(ASKED, 0) is None
    assert open_cache(tmp_path / "cache", {"CI": "true"}) is None


def test_with_a_key_only_entries_signed_with_it_answer(tmp_path: Path) -> None:
    key = _client(tmp_path).key(ASKED, 0)
    path = _entry_path(tmp_path, key)
    _write(path, {"schema": SCHEMA, "prompt": key, "passed": True, "reason": "unsigned"})
    for env in ({KEY_ENV: "s3cret"}, {KEY_ENV: "s3cret", "CI": "true"}):
        assert _client(tmp_path, env).cached(ASKED, 0) is None
    signed = open_cache(tmp_path / "cache", {KEY_ENV: "s3cret", "CI": "true"})
    assert signed is not None
    signed.put(key, Vote(passed=False, reason="命令口吻"))
    found = _client(tmp_path, {KEY_ENV: "s3cret", "CI": "true"}).cached(ASKED, 0)
    assert found is not None and found.vote == Vote(passed=False, reason="命令口吻")
    assert _client(tmp_path, {KEY_ENV: "another", "CI": "true"}).cached(ASKED, 0) is None
    entry = json.loads(path.read_text(encoding="utf-8"))
    _write(path, {**entry, "passed": True})  # the verdict flipped, the signature kept
    assert _client(tmp_path, {KEY_ENV: "s3cret"}).cached(ASKED, 0) is None


def _judge(root: Path, script: Callable[[Asked, int], Reply]) -> tuple[int, int, set[str]]:
    """`gate judge` on two answers (12 samples) with the cache on: exit code, requests, verdicts."""
    runs = root / "runs.jsonl"
    runs.write_text("".join(json.dumps({"case_id": "B3-QC-09", "group": "A", "run": run, "final_answer": answer},
                                       ensure_ascii=False) + "\n"
                            for run, answer in enumerate([ANSWERS["good"], ANSWERS["cold"]])), encoding="utf-8")
    with judge_mocked(script) as server:
        (root / "gate.yaml").write_text(config_text(server.url, cases="cases", cache="judge-cache"), encoding="utf-8")
        result = CliRunner().invoke(main, ["judge", "--trajectories", str(runs)], catch_exceptions=False)
        requests = len(server.seen)
    document = json.loads((root / "gate-results" / "judge.json").read_text(encoding="utf-8"))
    return result.exit_code, requests, {r["judge"] for r in document["constraints"]}


def test_a_committed_cache_never_answers_in_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path)
    assert _judge(tmp_path, lambda a, i: verdict(True)) == (0, 12, {"pass"})  # written where it is trusted
    assert _judge(tmp_path, lambda a, i: verdict(False)) == (0, 0, {"pass"})  # and read there
    monkeypatch.setenv("CI", "true")  # the same entries, committed to a pull request
    assert _judge(tmp_path, lambda a, i: verdict(False)) == (0, 12, {"fail"})
    monkeypatch.setenv(KEY_ENV, "a secret of this repository")
    assert _judge(tmp_path, lambda a, i: verdict(False)) == (0, 12, {"fail"})  # unsigned: asked, then signed
    assert _judge(tmp_path, lambda a, i: verdict(True)) == (0, 0, {"fail"})  # the job's own entries answer
    monkeypatch.setenv(KEY_ENV, "a key the pull request chose")
    assert _judge(tmp_path, lambda a, i: verdict(True)) == (0, 12, {"pass"})
