"""The bar comes from the base commit: a pull request that deletes the case it breaks, relaxes
fail_on or a threshold, drops a constraint or turns a never-rule off still fails against the base —
unless a maintainer acknowledges it — and every report says what was lowered."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from tests.commands.test_check import _case

SPECS = [("B3-QC-01", "QC", "推荐 3 款降噪耳机", 3, "1. a\n2. b\n3. c"),
         ("B3-QC-02", "QC", "推荐 2 款跑鞋", 2, "1. a\n2. b"),
         ("B3-FC-01", "FC", "推荐 3 款降噪耳机", 3, "1. a\n2. b\n3. c"),
         ("B3-FC-02", "FC", "推荐 2 款跑鞋", 2, "1. a\n2. b")]
CONFIG = {"cases": {"path": "cases", "tags": ["golden"]},
          "agent": {"adapter": "python", "function": "tests.commands.stub_agent:answer", "cache": False},
          "baseline": "baselines/main.json", "out_dir": "gate-results", "fail_on": "error"}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout.strip()


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A repository whose base commit holds the bar and a 5-run baseline; returns the base commit."""
    monkeypatch.chdir(tmp_path)
    for key in ("GITHUB_EVENT_PATH", "GITHUB_EVENT_NAME", "GATE_ACCEPT_LOWERED_BAR"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / "cases").mkdir()
    for spec in SPECS:
        (tmp_path / "cases" / f"{spec[0]}.yaml").write_text(_case(*spec), encoding="utf-8")
    (tmp_path / "gate.yaml").write_text(json.dumps(CONFIG), encoding="utf-8")
    assert invoke("baseline", "update")[0] == 0
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "gate.yaml", "cases", "baselines")
    git(tmp_path, "-c", "user.email=a@b", "-c", "user.name=n", "commit", "-qm", "base")
    return git(tmp_path, "rev-parse", "HEAD")


def test_an_unchanged_bar_passes_and_says_nothing(base: str) -> None:
    code, out = invoke("check", "--base-ref", base)
    assert code == 0 and "bar-lowered" not in out and "lowers the bar" not in out


def test_deleting_the_case_a_change_breaks_fails_against_the_base(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BREAK", "B3-QC-01")
    Path("cases/B3-QC-01.yaml").unlink()
    assert invoke("check")[0] == 0  # against its own bar the change looks fine
    code, out = invoke("check", "--base-ref", base)
    assert code == 1
    first = next(line for line in out.splitlines() if line.startswith("["))
    assert first == (f"[red-line] this change lowers the bar of {base[:12]}: case B3-QC-01 no longer runs (removed, or "
                     "no longer selected) — the base's bar applies; a maintainer acknowledges a deliberate lowering "
                     "(--accept-lowered-bar, e.g. from a label)")
    comment = Path("gate-results/comment.md").read_text(encoding="utf-8")
    assert "`bar-lowered` — this change lowers the bar of" in comment and "case B3-QC-01 no longer runs" in comment
    code, out = invoke("check", "--base-ref", base, "--accept-lowered-bar")
    assert code == 0 and f"[warning] acknowledged: this change lowers the bar of {base[:12]}: case B3-QC-01" in out


def test_relaxing_fail_on_is_decided_by_the_base_s_fail_on(base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BREAK", "B3-QC-01")
    Path("gate.yaml").write_text(json.dumps({**CONFIG, "fail_on": "red-line"}), encoding="utf-8")
    code, out = invoke("check", "--base-ref", base)
    assert code == 1 and "fail_on relaxed from error to red-line" in out
    assert "[error] B3-QC-01 (A): passes 0 of" in out  # the regression fails at the base's level
    monkeypatch.setenv("GATE_ACCEPT_LOWERED_BAR", "true")  # acknowledged: the change's own fail_on decides
    code, out = invoke("check", "--base-ref", base)
    assert code == 0 and "[warning] acknowledged: this change lowers the bar" in out


def test_a_fail_on_given_on_the_command_line_counts_too(base: str) -> None:
    code, out = invoke("check", "--base-ref", base, "--fail-on", "red-line")
    assert code == 1 and "fail_on relaxed from error to red-line" in out


@pytest.mark.parametrize(("edit", "lowered"), [
    (lambda: Path("gate.yaml").write_text(json.dumps({**CONFIG, "thresholds": {"min_a": 0.5}}), encoding="utf-8"),
     "thresholds.min_a lowered from 0.7 to 0.5"),
    (lambda: Path("gate.yaml").write_text(json.dumps({**CONFIG, "decision": {"alpha": 0.01}}), encoding="utf-8"),
     "decision.alpha lowered from 0.05 to 0.01 (fewer regressions confirmed)"),
    (lambda: Path("gate.yaml").write_text(json.dumps({**CONFIG, "cases": {"path": "cases", "tags": ["golden"],
                                                                          "ids": ["B3-QC-01"]}}), encoding="utf-8"),
     "case B3-FC-01 no longer runs"),
    (lambda: Path("cases/B3-QC-02.yaml").write_text(_case("B3-QC-02", "QC", "推荐 2 款跑鞋", 3, "1. a\n2. b\n3. c"),
                                                    encoding="utf-8"),
     "case B3-QC-02: constraint `count` changed (items:count → items:count, parameters or groups): a change may relax it"),
])
def test_every_kind_of_lowering_is_named(base: str, edit, lowered: str) -> None:  # type: ignore[no-untyped-def]
    edit()
    code, out = invoke("check", "--base-ref", base)
    assert code == 1 and lowered in out


def test_raising_the_bar_needs_no_consent(base: str) -> None:
    Path("gate.yaml").write_text(json.dumps({**CONFIG, "thresholds": {"min_a": 0.8, "min_delta": 0.05}}),
                                 encoding="utf-8")
    code, out = invoke("check", "--base-ref", base)
    assert code == 0 and "lowers the bar" not in out


def test_the_base_of_a_pull_request_is_read_from_its_event(base: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}, "head": {"sha": "f" * 40}}}), encoding="utf-8")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    Path("cases/B3-FC-02.yaml").unlink()
    code, out = invoke("check")
    assert code == 1 and "case B3-FC-02 no longer runs" in out


def test_an_unreadable_base_is_said_not_guessed(base: str) -> None:
    code, out = invoke("check", "--base-ref", "0" * 40)
    assert code == 0
    assert "[warning] could not read the bar at 000000000000 (" in out and "fetch-depth: 0" in out
