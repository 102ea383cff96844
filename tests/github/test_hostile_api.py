"""A GitHub API answer that is hostile JSON: `gate comment` exits 2 naming the request, never 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from .fake_github import PREFIX, REPO, FakeGitHub, Fault
from .test_comment_command import PR, body_file, env_for, run

LISTING = f"{PREFIX}/repos/{REPO}/issues/{PR}/comments"

HOSTILE = {
    "nested-100000-deep": (b"[" * 100_000 + b"]" * 100_000, "nested deeper than 100 levels at line 1 column 101"),
    "id-of-5000-digits": (b'[{"id": ' + b"7" * 5000 + b', "body": "x", "user": {"login": "github-actions[bot]"}}]',
                          "an integer of more than 100 digits at line 1 column 9"),
    "nan-id": (b'[{"id": NaN, "body": "<!-- agent-gate:pr-comment -->", "user": {"login": "github-actions[bot]"}}]',
               "NaN is not JSON; write null or a number at line 1 column 9"),
    "not-utf8": (b'[{"body": "\xff\xfe"}]', "not UTF-8 (byte 11) at line 1 column 1"),
}


@pytest.mark.parametrize(("raw", "problem"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_comment_listing_is_exit_2_naming_the_request(github: FakeGitHub, tmp_path: Path,
                                                                sleeps: list[float], raw: bytes, problem: str) -> None:
    github.faults.append(Fault("GET", "/comments$", 200, raw=raw))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"gate: error: {REPO}#{PR}: could not post the PR comment: "
                             f"GET {LISTING}: unreadable response ({problem})\n")
    assert github.calls("POST") == []  # nothing posted on the strength of an unreadable listing


def test_a_hostile_answer_to_the_post_is_exit_2(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("POST", "/comments$", 201, raw=b'{"id": 1, "html_url": "x", "n": 1e999}',
                               apply_first=True))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 2, result.output
    assert result.stderr.endswith(f"POST {LISTING}: unreadable response "
                                  "(the number 1e999 is too large for a float at line 1 column 33)\n")


def test_a_hostile_pull_request_answer_skips_the_comment(github: FakeGitHub, tmp_path: Path,
                                                         sleeps: list[float]) -> None:
    github.faults.append(Fault("GET", "/pulls/7$", 200, raw=b'{"head": {"sha": ' + b"[" * 50_000 + b"}}"))
    result = run(["--body-file", str(body_file(tmp_path)), "--head-sha", "abc123"], env_for(github, tmp_path))
    assert result.exit_code == 0, result.output
    assert "could not read pull request #7" in result.stdout
    assert "nested deeper than 100 levels" in result.stdout
    assert github.calls("POST") == []
