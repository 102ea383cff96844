"""`gate comment` end to end against a local server speaking GitHub's issue-comments API."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gate.cli.app import main
from gate.commands import comment as commentcmd
from gate.errors import GateError
from gate.formats.commentmark import COMMENT_MARKER
from gate.github.comment import MAX_BODY_BYTES
from tests.tlscontext import trusts_nothing

from .fake_github import PREFIX, REPO, TOKEN, FakeGitHub, Fault

PR = 7
FOREIGN = "mallory"


def body_file(tmp_path: Path, text: str = "## ✅ agent-gate passed\n") -> Path:
    path = tmp_path / "comment.md"
    path.write_text(f"{COMMENT_MARKER}\n{text}", encoding="utf-8")
    return path


def event_file(tmp_path: Path, data: dict[str, object], name: str = "event.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def env_for(github: FakeGitHub, tmp_path: Path, **overrides: str) -> dict[str, str]:
    env = {
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_API_URL": github.api_url,
        "GITHUB_EVENT_PATH": str(event_file(tmp_path, {"pull_request": {"number": PR}})),
    }
    env.update(overrides)
    return env


def run(args: list[str], env: dict[str, str]) -> Result:
    result = CliRunner().invoke(main, ["comment", *args], env=env, catch_exceptions=False)
    assert TOKEN not in result.stdout and TOKEN not in result.stderr
    return result


def ours(github: FakeGitHub) -> list[dict[str, object]]:
    return [c for c in github.comments if c["user"] == {"login": "github-actions[bot]"}]


def test_creates_the_comment_with_the_api_headers(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("gate comment: created https://github.example/")
    assert [c["body"] for c in github.comments] == [f"{COMMENT_MARKER}\n## ✅ agent-gate passed\n"]
    first = github.requests[0]
    assert (first.method, first.path, first.query["per_page"]) == ("GET", f"{PREFIX}/repos/{REPO}/issues/{PR}/comments", ["100"])
    assert first.accept == "application/vnd.github+json" and first.api_version == "2022-11-28"
    assert github.calls("POST")[0].path == f"{PREFIX}/repos/{REPO}/issues/{PR}/comments"
    assert sleeps == []


def test_second_run_updates_in_place_and_a_third_changes_nothing(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    env = env_for(github, tmp_path)
    assert run(["--body-file", str(body_file(tmp_path, "first\n"))], env).exit_code == 0
    second = run(["--body-file", str(body_file(tmp_path, "second\n"))], env)
    assert second.exit_code == 0 and second.stdout.startswith("gate comment: updated")
    assert [c["body"] for c in github.comments] == [f"{COMMENT_MARKER}\nsecond\n"]
    assert len(github.calls("POST")) == 1 and len(github.calls("PATCH")) == 1
    third = run(["--body-file", str(body_file(tmp_path, "second\n"))], env)
    assert third.stdout.startswith("gate comment: unchanged")
    assert len(github.calls("PATCH")) == 1


def test_finds_its_comment_past_the_first_hundred_by_following_link_headers(
        github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    for i in range(230):
        github.add_comment(f"review note {i}", login=f"user{i % 7}")
    github.add_comment("an unmarked bot comment")  # ours by login, but not the gate's
    mine = github.add_comment(f"{COMMENT_MARKER}\nold report")
    for i in range(20):
        github.add_comment(f"later note {i}", login="reviewer")
    result = run(["--body-file", str(body_file(tmp_path, "new report\n"))], env_for(github, tmp_path))
    assert result.exit_code == 0, result.stderr
    pages = [r.query.get("page", ["1"])[0] for r in github.calls("GET")]
    assert pages == ["1", "2", "3"]
    assert github.calls("POST") == []
    assert github.calls("PATCH")[0].path == f"{PREFIX}/repos/{REPO}/issues/comments/{mine}"
    assert next(c for c in github.comments if c["id"] == mine)["body"] == f"{COMMENT_MARKER}\nnew report\n"


def test_a_foreign_comment_carrying_the_marker_is_left_alone(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    planted = github.add_comment(f"{COMMENT_MARKER}\nfake: all green", login=FOREIGN)
    result = run(["--body-file", str(body_file(tmp_path, "real\n"))], env_for(github, tmp_path))
    assert result.stdout.startswith("gate comment: created")
    assert next(c for c in github.comments if c["id"] == planted)["body"] == f"{COMMENT_MARKER}\nfake: all green"
    assert [c["body"] for c in ours(github)] == [f"{COMMENT_MARKER}\nreal\n"]


def test_author_option_picks_whose_comment_is_ours(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    app = github.add_comment(f"{COMMENT_MARKER}\nold", login="gate-app[bot]")
    result = run(["--body-file", str(body_file(tmp_path, "new\n")), "--author", "gate-app[bot]"], env_for(github, tmp_path))
    assert result.stdout.startswith("gate comment: updated")
    assert github.calls("PATCH")[0].path.endswith(f"/issues/comments/{app}")


def test_fork_read_only_token_warns_and_exits_zero(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.read_only = True
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0
    assert result.stdout.startswith(
        "::warning title=agent-gate comment::PR comment skipped: "
        f"POST {PREFIX}/repos/{REPO}/issues/{PR}/comments: 403 Resource not accessible by integration"
    )
    assert "pull-requests%3A write" not in result.stdout  # data, not a property: ':' stays
    assert "pull-requests: write" in result.stdout
    assert github.comments == [] and sleeps == []


def test_server_errors_are_retried_with_backoff(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults += [Fault("GET", "/comments$", 502, times=2), Fault("POST", "/comments$", 500)]
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0 and result.stdout.startswith("gate comment: created")
    assert sleeps == [1.0, 2.0, 1.0]  # two GET back-offs, then one before the whole upsert is retried
    assert len(github.comments) == 1


def test_a_post_stored_despite_a_5xx_is_found_again_not_duplicated(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("POST", "/comments$", 502, apply_first=True))
    result = run(["--body-file", str(body_file(tmp_path, "once\n"))], env_for(github, tmp_path))
    assert result.exit_code == 0 and result.stdout.startswith("gate comment: unchanged")
    assert [c["body"] for c in github.comments] == [f"{COMMENT_MARKER}\nonce\n"]


def test_persistent_server_errors_warn_and_exit_zero(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("GET", "/comments$", 503, times=99))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0
    assert "::warning title=agent-gate comment::PR comment skipped: GET" in result.stdout
    assert "503 Server Error" in result.stdout and sleeps == [1.0, 2.0, 4.0]


def test_429_honours_retry_after(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("POST", "/comments$", 429, headers={"Retry-After": "7"},
                               body={"message": "You have exceeded a secondary rate limit"}))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0 and result.stdout.startswith("gate comment: created")
    assert sleeps == [7.0] and len(github.comments) == 1


def test_403_with_exhausted_quota_waits_until_the_reset(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("GET", "/comments$", 403, headers={
        "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1030"}, body={"message": "API rate limit exceeded"}))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0 and result.stdout.startswith("gate comment: created")
    assert sleeps == [30.0]


def test_a_rate_limit_that_persists_is_a_warning_not_a_failure(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("GET", "/comments$", 429, headers={"Retry-After": "3600"}))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 0
    assert "rate limited; GitHub asks to wait 3600 s, more than the 60 s allowed" in result.stdout
    assert result.stdout.startswith("::warning ") and sleeps == [] and github.comments == []


@pytest.mark.parametrize("missing", ["GITHUB_TOKEN", "GITHUB_REPOSITORY"])
def test_missing_token_or_repository_warns_without_calling_github(
        github: FakeGitHub, tmp_path: Path, missing: str) -> None:
    env = env_for(github, tmp_path)
    env[missing] = ""
    result = run(["--body-file", str(body_file(tmp_path))], env)
    assert result.exit_code == 0
    assert result.stdout == f"::warning title=agent-gate comment::{missing} is not set; the PR comment was not posted\n"



def test_no_pull_request_in_a_push_event_warns(github: FakeGitHub, tmp_path: Path) -> None:
    env = env_for(github, tmp_path, GITHUB_EVENT_PATH=str(event_file(tmp_path, {"ref": "refs/heads/main"}, "push.json")))
    result = run(["--body-file", str(body_file(tmp_path))], env)
    assert result.exit_code == 0 and "no pull request number (pass --pr" in result.stdout



def test_pr_number_from_an_issue_event_and_from_the_option(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    env = env_for(github, tmp_path, GITHUB_EVENT_PATH=str(event_file(tmp_path, {"issue": {"number": 12}}, "issue.json")))
    run(["--body-file", str(body_file(tmp_path))], env)
    run(["--body-file", str(body_file(tmp_path)), "--pr", "31"], env)
    assert [r.path for r in github.calls("POST")] == [
        f"{PREFIX}/repos/{REPO}/issues/12/comments", f"{PREFIX}/repos/{REPO}/issues/31/comments"]


def test_bad_credentials_fail_with_the_token_redacted(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.faults.append(Fault("GET", "/comments$", 401, body={"message": f"Bad credentials: {TOKEN}"}))
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (f"gate: error: {REPO}#{PR}: could not post the PR comment: "
                             f"GET {PREFIX}/repos/{REPO}/issues/{PR}/comments: 401 Bad credentials: ***\n")


def test_missing_body_file_is_unusable_input(github: FakeGitHub, tmp_path: Path) -> None:
    result = run(["--body-file", str(tmp_path / "nope.md")], env_for(github, tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (f"gate: error: {tmp_path / 'nope.md'}: comment body not found "
                             "(run `gate check` first, or pass --body-file)\n")


def test_the_default_body_is_in_gate_yaml_out_dir(github: FakeGitHub, tmp_path: Path, sleeps: list[float],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "gate.yaml").write_text("out_dir: reports\n", encoding="utf-8")
    (tmp_path / "reports").mkdir()
    body_file(tmp_path / "reports", "from reports\n")
    (tmp_path / "gate-results").mkdir()
    body_file(tmp_path / "gate-results", "stale\n")
    monkeypatch.chdir(tmp_path)
    result = run([], env_for(github, tmp_path))
    assert result.exit_code == 0, result.stderr
    assert [c["body"] for c in github.comments] == [f"{COMMENT_MARKER}\nfrom reports\n"]


def test_without_gate_yaml_the_default_body_is_gate_results(github: FakeGitHub, tmp_path: Path, sleeps: list[float],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "gate-results").mkdir()
    body_file(tmp_path / "gate-results", "default\n")
    monkeypatch.chdir(tmp_path)
    result = run([], env_for(github, tmp_path))
    assert result.exit_code == 0, result.stderr
    assert [c["body"] for c in github.comments] == [f"{COMMENT_MARKER}\ndefault\n"]
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    missing = run([], env_for(github, tmp_path))
    assert missing.exit_code == 2
    assert missing.stderr == ("gate: error: gate-results/comment.md: comment body not found "
                              "(run `gate check` first, or pass --body-file)\n")


def test_a_named_config_puts_the_body_under_its_own_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    (project / "out").mkdir(parents=True)
    (project / "ci.yaml").write_text("out_dir: out\n", encoding="utf-8")
    body_file(project / "out", "named\n")
    monkeypatch.chdir(tmp_path)
    assert commentcmd.default_body(str(project / "ci.yaml")) == project.resolve() / "out" / "comment.md"
    assert commentcmd.read_body(None, "project/ci.yaml") == f"{COMMENT_MARKER}\nnamed\n"
    assert commentcmd.read_body(str(project / "out" / "comment.md"), "nope.yaml").endswith("named\n")
    assert commentcmd.default_body(None) == Path("gate-results") / "comment.md"
    with pytest.raises(GateError, match="config file not found"):
        commentcmd.read_body(None, "nope.yaml")


def test_an_oversized_body_is_cut_to_fit_keeping_the_marker_and_head(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    rows = "".join(f"| B3-QC-{i:04d} | 失败：列表只有 4 项，要求恰好 5 项 |\n" for i in range(3000))
    run(["--body-file", str(body_file(tmp_path, "## ❌ agent-gate failed\n" + rows))], env_for(github, tmp_path))
    posted = github.comments[0]["body"]
    assert len(posted.encode("utf-8")) <= MAX_BODY_BYTES
    assert posted.startswith(f"{COMMENT_MARKER}\n## ❌ agent-gate failed\n| B3-QC-0000 |")
    assert posted.endswith("more line(s) are in the job summary and the `gate-results` artifact._\n")


def test_head_sha_guard_posts_only_on_the_tested_commit(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    github.heads[PR] = "a" * 40
    env = env_for(github, tmp_path)
    moved = run(["--body-file", str(body_file(tmp_path)), "--pr", str(PR), "--head-sha", "b" * 40], env)
    assert moved.exit_code == 0 and github.comments == []
    assert f"pull request #{PR} is at aaaaaaaaaaaa, not bbbbbbbbbbbb" in moved.stdout
    same = run(["--body-file", str(body_file(tmp_path)), "--pr", str(PR), "--head-sha", "a" * 40], env)
    assert same.stdout.startswith("gate comment: created") and len(github.comments) == 1


def test_a_next_link_to_another_host_is_not_followed(github: FakeGitHub, tmp_path: Path, sleeps: list[float]) -> None:
    for i in range(101):
        github.add_comment(f"note {i}", login="reviewer")
    github.link_host = "collector.invalid:8080"
    result = run(["--body-file", str(body_file(tmp_path))], env_for(github, tmp_path))
    assert result.exit_code == 2 and "pagination link is malformed or leaves 127.0.0.1" in result.stderr
    assert len(github.requests) == 1 and github.comments[-1]["body"] == "note 100"


def test_the_installed_command_posts_and_never_prints_the_token(github: FakeGitHub, tmp_path: Path) -> None:
    env = {**os.environ, **env_for(github, tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "gate", "comment", "--body-file", str(body_file(tmp_path))],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("gate comment: created")
    assert TOKEN not in done.stdout + done.stderr
    assert github.requests[0].authorization == f"Bearer {TOKEN}"


def test_a_token_echoed_in_a_long_github_error_leaves_no_prefix() -> None:
    import httpx

    from gate.github import api

    token = "ghp_4f9c2a7be1d04b8f0000"
    for offset in (280, 285, 290):  # the 300-character cut falls inside the token
        def reply(request: httpx.Request, offset: int = offset) -> httpx.Response:
            return httpx.Response(422, json={"message": "x" * offset + request.headers["authorization"]})

        client = httpx.Client(transport=httpx.MockTransport(reply), headers=api.headers(token),
                              base_url="https://api.example")
        try:
            api.request(client, "GET", "/repos/o/r/issues/1/comments", policy=api.github_retries(retries=0))
        except api.ApiError as exc:
            message = str(exc)
        else:  # pragma: no cover
            raise AssertionError("a 422 must raise")
        assert "ghp" not in message, (offset, message[-40:])


@pytest.mark.usefixtures("no_proxy")
@pytest.mark.parametrize(("api_url", "default_verification"), [("http://127.0.0.1:9/api", False),
                                                               ("https://api.github.com", True)])
def test_the_api_client_loads_the_ca_bundle_only_where_it_can_be_used(
        verify_seen: dict[str, object], api_url: str, default_verification: bool) -> None:
    commentcmd.build_client(commentcmd.Target(api_url=api_url, repo=REPO, pr=PR, token=TOKEN)).close()
    verify = verify_seen["Client"]
    assert verify is True if default_verification else trusts_nothing(verify)


@pytest.mark.usefixtures("no_proxy")
def test_a_ca_bundle_the_environment_names_but_lacks_is_unusable_input_before_any_request(
        github: FakeGitHub, tmp_path: Path) -> None:
    missing = tmp_path / "corporate-ca.pem"
    env = env_for(github, tmp_path, GITHUB_API_URL="https://github.example/api/v3", SSL_CERT_FILE=str(missing),
                  SSL_CERT_DIR="")
    result = run(["--body-file", str(body_file(tmp_path))], env)
    assert result.exit_code == 2
    assert result.stderr == (f"gate: error: the CA certificates could not be loaded (SSL_CERT_FILE={missing}): "
                             "[Errno 2] No such file or directory\n")
