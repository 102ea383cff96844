"""The sticky PR comment: found by a hidden marker and its author, updated in place, never duplicated.

Anyone can paste the marker into a comment, so a comment is ours only when it carries the marker
AND was written by ``author``. When the comment cannot be posted for reasons that are no fault of
the change under test (a fork's read-only token, a rate limit that does not clear, GitHub being
down) the result says "skipped" and why, and the gate's verdict stands.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

import httpx

from gate.formats.commentmark import COMMENT_MARKER
from gate.github.api import (
    ApiError,
    Forbidden,
    RateLimited,
    Unavailable,
    github_retries,
    json_body,
    redact,
    request,
)
from gate.net.errors import NetError
from gate.net.retry import RetryPolicy, retry_blocking
from gate.redaction.secrets import public

DEFAULT_AUTHOR = "github-actions[bot]"
MAX_BODY_BYTES = 65_000
"""GitHub allows 65,536 characters; bytes are stricter, so any body under this fits."""
MAX_PAGES = 100
DEADLINE_S = 60.0
"""Posting the comment gives up after about a minute (a warning; the gate's verdict stands)."""
"""10,000 comments: enough for any real PR, bounded for a misbehaving server."""
CUT_NOTE = (
    "\n_The rest of this report was cut to fit a GitHub comment: {lines} more line(s) are in the "
    "job summary and the `gate-results` artifact._\n"
)


class CommentStatus(str, Enum):
    """What happened to the comment."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    """Not posted, for a reason that must not fail the gate (see ``reason``)."""
    FAILED = "failed"
    """Not posted because of a misconfiguration (bad token, unknown repository or PR)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class CommentResult:
    """The outcome of :func:`upsert_comment`; ``reason`` never contains the token."""

    status: CommentStatus
    reason: str = ""
    comment_id: int | None = None
    url: str | None = None

    @property
    def posted(self) -> bool:
        return self.status in (CommentStatus.CREATED, CommentStatus.UPDATED, CommentStatus.UNCHANGED)


def with_marker(body: str) -> str:
    """``body`` with the marker as its first line, and nowhere else: a cut can never drop it,
    and a copy planted further down cannot make another comment look like ours."""
    rest = body.replace(COMMENT_MARKER, "")
    return f"{COMMENT_MARKER}\n{rest.lstrip(chr(10))}"


# The tags the gate's own comment uses; any other tag, attribute or HTML comment is shown as text.
_ALLOWED_TAGS = {"details", "/details", "summary", "/summary", "b", "/b", "sub", "/sub", "br"}
_TAG_RE = re.compile(r"<(/?[A-Za-z][A-Za-z0-9-]*)([^<>]*)>|<!--")
_MENTION_RE = re.compile(r"@(?=[A-Za-z0-9])")


def _safe_tag(match: re.Match[str]) -> str:
    name, attributes = match.group(1), (match.group(2) or "").strip()
    if name is not None and name.lower() in _ALLOWED_TAGS and attributes in ("", "open"):
        return match.group(0)
    return "&lt;" + match.group(0)[1:]


def sanitize_body(body: str) -> str:
    """A body the gate may not have rendered itself (a fork's artifact posted by the bot): raw HTML
    other than the gate's own folding tags shown as text, @-mentions neutralised (a zero-width
    joiner after '@'), outside code fences; idempotent on the gate's own comment."""
    out, in_fence = [], False
    for line in body.splitlines(keepends=True):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            out.append(line)
            continue
        out.append(line if in_fence else _MENTION_RE.sub("@\u200d", _TAG_RE.sub(_safe_tag, line)))
    return "".join(out)


def fit_body(body: str, limit: int = MAX_BODY_BYTES) -> str:
    """``body`` cut at a line boundary to at most ``limit`` UTF-8 bytes, marker and head kept.

    An open code fence is closed and a note says how much was left out.
    """
    # redacted before the cut, so no prefix of a secret survives it
    body = with_marker(sanitize_body(public(body.replace(COMMENT_MARKER, ""))))
    if len(body.encode("utf-8")) <= limit:
        return body
    lines = body.splitlines(keepends=True)
    budget = limit - len(CUT_NOTE.format(lines=len(lines)).encode("utf-8")) - len("\n```\n")
    kept: list[str] = []
    size = 0
    for line in lines:
        n = len(line.encode("utf-8"))
        if size + n > budget:
            if len(kept) <= 1:  # one huge line right after the marker: cut inside it
                head = line.encode("utf-8")[: budget - size].decode("utf-8", errors="ignore")
                kept.append(head.rstrip("\r\n") + "\n")
            break
        kept.append(line)
        size += n
    text = "".join(kept)
    if not text.endswith("\n"):
        text += "\n"
    if sum(line.lstrip().startswith("```") for line in kept) % 2:
        text += "```\n"
    return text + CUT_NOTE.format(lines=len(lines) - len(kept))


def _is_ours(comment: Any, author: str) -> bool:
    if not isinstance(comment, dict):
        return False
    user = comment.get("user")
    login = user.get("login") if isinstance(user, dict) else None
    text = comment.get("body")
    return (
        login == author and isinstance(comment.get("id"), int)
        and isinstance(text, str) and COMMENT_MARKER in text
    )


def _same_origin(url: str, api_url: str) -> bool:
    try:
        a, b = httpx.URL(url), httpx.URL(api_url)
    except (httpx.InvalidURL, ValueError):
        return False  # a malformed Link is no page of ours
    return (a.scheme, a.host, a.port) == (b.scheme, b.host, b.port)


def find_comment(
    client: httpx.Client, *, api_url: str, repo: str, pr: int, author: str, policy: RetryPolicy
) -> dict[str, Any] | None:
    """Our comment on the PR (the oldest one if several), following ``Link: rel="next"`` pages."""
    url: str | None = f"{api_url}/repos/{repo}/issues/{pr}/comments?per_page=100"
    for _ in range(MAX_PAGES):
        if url is None:
            break
        response = request(client, "GET", url, policy=policy)
        page = json_body(response)
        if not isinstance(page, list):
            raise ApiError(f"GET {httpx.URL(url).path}: expected a list of comments")
        for comment in page:
            if _is_ours(comment, author):
                return dict(comment)
        url = response.links.get("next", {}).get("url")
        if url is not None and not _same_origin(url, api_url):
            # Never send the token to another host, whatever a Link header says.
            raise ApiError(f"pagination link is malformed or leaves {httpx.URL(api_url).host}: {url[:80]!r}")
    return None


def _result(status: CommentStatus, data: Any, reason: str) -> CommentResult:
    data = data if isinstance(data, dict) else {}
    comment_id = data.get("id")
    url = data.get("html_url")
    return CommentResult(
        status=status,
        reason=reason,
        comment_id=comment_id if isinstance(comment_id, int) else None,
        url=url if isinstance(url, str) else None,
    )


class _NotPosted(Unavailable):
    """A POST of the comment that failed: it may still have been stored, so it is not retried alone."""


def _posted_again(error: NetError) -> bool:
    return isinstance(error, _NotPosted)


def _upsert_once(
    client: httpx.Client, *, api_url: str, repo: str, pr: int, body: str, author: str,
    policy: RetryPolicy,
) -> CommentResult:
    existing = find_comment(client, api_url=api_url, repo=repo, pr=pr, author=author, policy=policy)
    if existing is not None:
        if existing.get("body") == body:
            return _result(CommentStatus.UNCHANGED, existing, "the comment already says this")
        url = f"{api_url}/repos/{repo}/issues/comments/{existing['id']}"
        response = request(client, "PATCH", url, policy=policy, json={"body": body})
        return _result(CommentStatus.UPDATED, json_body(response), "updated in place")
    try:
        # Not retried inside: a POST answered with a 5xx may still have been stored, so the
        # next try looks for it again before posting.
        response = request(
            client, "POST", f"{api_url}/repos/{repo}/issues/{pr}/comments",
            policy=policy, json={"body": body}, retry_server_errors=False,
        )
    except Unavailable as exc:
        raise _NotPosted(str(exc), exc.status) from None
    return _result(CommentStatus.CREATED, json_body(response), "created")


def _upsert(
    client: httpx.Client, *, api_url: str, repo: str, pr: int, body: str, author: str,
    policy: RetryPolicy,
) -> CommentResult:
    """Rounds of find-then-post through the shared policy: only a failed POST starts another round
    (each request has retried its own failures), after the plain backoff, deadline or not."""
    rounds = dataclasses.replace(policy, retryable=_posted_again, deadline=None)
    result, _ = retry_blocking(lambda: _upsert_once(client, api_url=api_url, repo=repo, pr=pr, body=body,
                                                    author=author, policy=policy), rounds)
    return result


def upsert_comment(
    client: httpx.Client,
    *,
    api_url: str,
    repo: str,
    pr: int,
    body: str,
    author: str = DEFAULT_AUTHOR,
    policy: RetryPolicy | None = None,
) -> CommentResult:
    """Create the PR comment, or update ours in place; never raises for an API answer.

    ``body`` gets the marker if it lacks it and is cut to fit GitHub's limit.
    """
    policy = policy or github_retries()
    if policy.deadline is None:
        policy = dataclasses.replace(policy, deadline=policy.clock() + DEADLINE_S)
    api_url = api_url.rstrip("/")
    try:
        return _upsert(
            client, api_url=api_url, repo=repo, pr=pr, body=fit_body(body), author=author,
            policy=policy,
        )
    except Forbidden as exc:
        return CommentResult(
            CommentStatus.SKIPPED,
            f"{redact(str(exc), client)} — the token may not comment here (a pull request from a "
            "fork gets a read-only token; otherwise the job needs `permissions: pull-requests: "
            "write`); the gate's verdict stands",
        )
    except (RateLimited, Unavailable) as exc:
        return CommentResult(
            CommentStatus.SKIPPED, f"{redact(str(exc), client)}; the gate's verdict stands"
        )
    except ApiError as exc:
        return CommentResult(CommentStatus.FAILED, redact(str(exc), client))
    except ValueError as exc:  # a response that is not JSON
        return CommentResult(CommentStatus.FAILED, f"unreadable API response: {redact(str(exc), client)}")
