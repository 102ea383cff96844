"""`gate comment`: where to post (from the Actions environment), what to post, and the exit code.

Nothing here fails the gate for want of a token, a repository or a pull request: the command warns
with a workflow command and exits 0, since a local run or a push build has nothing to comment on.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import httpx

from gate.errors import GateError
from gate.files import safefiles
from gate.github.annotations import command
from gate.github.api import DEFAULT_API_URL, ApiError, github_retries, json_body, redact, request
from gate.github.comment import CommentResult, CommentStatus, upsert_comment
from gate.net.retry import RetryPolicy

DEFAULT_POLICY = github_retries()
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class Target:
    """Where the comment goes. ``token`` is kept out of ``repr``."""

    api_url: str
    repo: str
    pr: int
    token: str = field(repr=False)


def warn(message: str) -> None:
    """A ``::warning::`` workflow command on stdout (a plain line outside Actions)."""
    click.echo(command("warning", message, title="agent-gate comment"))


def pr_from_event(path: str | None) -> int | None:
    """``pull_request.number`` (or ``issue.number``) of the event file, if there is one."""
    if not path:
        return None
    try:
        event: Any = safefiles.read_event(path)
    except (GateError, ValueError):  # too large included: it is not read at all
        return None
    if not isinstance(event, dict):
        return None
    for key in ("pull_request", "issue"):
        number = event.get(key, {}).get("number") if isinstance(event.get(key), dict) else None
        if isinstance(number, int) and not isinstance(number, bool) and number > 0:
            return number
    return None


def resolve_target(env: Mapping[str, str], pr: int | None) -> Target | str:
    """The target from the environment, or the reason there is none (to warn about)."""
    token = env.get("GITHUB_TOKEN", "").strip()
    repo = env.get("GITHUB_REPOSITORY", "").strip()
    api_url = (env.get("GITHUB_API_URL", "").strip() or DEFAULT_API_URL).rstrip("/")
    if not token:
        return "GITHUB_TOKEN is not set; the PR comment was not posted"
    if not repo:
        return "GITHUB_REPOSITORY is not set; the PR comment was not posted"
    if not _REPO.match(repo):
        raise GateError(f"GITHUB_REPOSITORY must look like owner/name, not '{repo}'")
    if not api_url.startswith(("https://", "http://")):
        raise GateError(f"GITHUB_API_URL must be an http(s) URL, not '{api_url}'")
    number = pr if pr is not None else pr_from_event(env.get("GITHUB_EVENT_PATH"))
    if number is None:
        return ("no pull request number (pass --pr, or run on a pull_request event); "
                "the PR comment was not posted")
    return Target(api_url=api_url, repo=repo, pr=number, token=token)


def default_body(config: str | None) -> Path:
    """``comment.md`` in gate.yaml's ``out_dir`` (./gate.yaml when ``config`` is None).

    Without a gate.yaml that is ``gate-results/comment.md`` in the current directory.
    """
    from gate.config.gate_yaml import load_config

    cfg = load_config(config)
    return cfg.resolve(cfg.out_dir) / "comment.md"


def read_body(body_file: str | None, config: str | None = None) -> str:
    """The comment's Markdown: ``body_file``, else :func:`default_body` of ``config``."""
    path = Path(body_file) if body_file else default_body(config)
    if not path.exists() and not path.is_symlink():
        raise GateError("comment body not found (run `gate check` first, or pass --body-file)", where=str(path))
    # a fork's artifact may be anything: a regular file of bounded size, read only once known to be one
    return safefiles.read_bytes(path, what="the comment body").decode("utf-8", errors="replace")


def build_client(target: Target) -> httpx.Client:
    """The REST client: GitHub's media type and API version, a bounded timeout."""
    from gate.github.api import TIMEOUT, headers
    from gate.net.client import sync_client

    return sync_client(target.api_url, headers=headers(target.token), timeout=TIMEOUT)


def head_matches(client: httpx.Client, target: Target, head_sha: str, policy: RetryPolicy) -> str | None:
    """None when the PR's head is ``head_sha``, else why not (the caller skips the comment)."""
    url = f"{target.api_url}/repos/{target.repo}/pulls/{target.pr}"
    try:
        data: Any = json_body(request(client, "GET", url, policy=policy))
    except ApiError as exc:
        return f"could not read pull request #{target.pr}: {redact(str(exc), client)}"
    head = data.get("head") if isinstance(data, dict) else None
    sha = head.get("sha") if isinstance(head, dict) else None
    if sha != head_sha:
        return (f"pull request #{target.pr} is at {str(sha)[:12]}, not {head_sha[:12]}: "
                "the results belong to another commit or pull request; not posted")
    return None


def post(
    client: httpx.Client,
    target: Target,
    body: str,
    *,
    author: str,
    head_sha: str | None = None,
    policy: RetryPolicy | None = None,
) -> int:
    """Upsert the comment and report it; 0 unless the configuration is wrong (GateError)."""
    policy = policy or DEFAULT_POLICY
    if head_sha:
        mismatch = head_matches(client, target, head_sha, policy)
        if mismatch:
            warn(mismatch)
            return 0
    result: CommentResult = upsert_comment(
        client, api_url=target.api_url, repo=target.repo, pr=target.pr, body=body,
        author=author, policy=policy,
    )
    if result.status is CommentStatus.FAILED:
        raise GateError(f"{target.repo}#{target.pr}: could not post the PR comment: {result.reason}")
    if result.status is CommentStatus.SKIPPED:
        warn(f"PR comment skipped: {result.reason}")
        return 0
    click.echo(f"gate comment: {result.status} {result.url or f'{target.repo}#{target.pr}'}")
    return 0


def run_comment(body_file: str | None, config_path: str | None, pr: int | None, author: str,
                head_sha: str | None) -> int:
    """Post or update the sticky comment; 0 also when there is nothing to post to (with a warning)."""
    body = read_body(body_file, config_path)
    target = resolve_target(os.environ, pr)
    if isinstance(target, str):
        warn(target)
        return 0
    with build_client(target) as client:
        return post(client, target, body, author=author, head_sha=head_sha)
