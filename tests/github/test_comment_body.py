"""Fitting the body to GitHub's limit, reading rate-limit answers, keeping the token out of text."""

from __future__ import annotations

import time

import httpx
import pytest

from gate.github.api import github_retries, rate_limit_wait, redact
from gate.github.comment import COMMENT_MARKER, CommentStatus, fit_body, upsert_comment, with_marker


def test_a_body_that_fits_is_left_alone() -> None:
    body = f"{COMMENT_MARKER}\n## passed\n"
    assert fit_body(body) == body


def test_the_marker_is_added_when_missing() -> None:
    assert with_marker("## passed\n") == f"{COMMENT_MARKER}\n## passed\n"
    assert fit_body("## passed\n").startswith(f"{COMMENT_MARKER}\n")


def test_cut_at_a_line_boundary_with_a_note() -> None:
    body = f"{COMMENT_MARKER}\n" + "".join(f"line {i:03d}\n" for i in range(100))
    cut = fit_body(body, limit=500)
    assert len(cut.encode()) <= 500
    kept = cut.split("\n_The rest")[0].splitlines()
    assert kept[0] == COMMENT_MARKER and kept[1] == "line 000"
    assert all(line.startswith("line ") for line in kept[1:])
    missing = 101 - len(kept)
    assert f"{missing} more line(s) are in the job summary" in cut


def test_an_open_code_fence_is_closed() -> None:
    body = f"{COMMENT_MARKER}\n## failed\n```text\n" + "x" * 50 + "\n" + "evidence\n" * 200 + "```\n"
    cut = fit_body(body, limit=400)
    assert len(cut.encode()) <= 400
    assert cut.count("```") == 2 and "```\n\n_The rest" in cut


def test_one_huge_line_is_cut_at_a_character_boundary() -> None:
    body = f"{COMMENT_MARKER}\n" + "失败" * 100_000
    cut = fit_body(body, limit=1000)
    assert len(cut.encode()) <= 1000
    assert cut.startswith(f"{COMMENT_MARKER}\n失败失败") and "\ufffd" not in cut


@pytest.mark.parametrize(("status", "headers", "message", "wait"), [
    (429, {"retry-after": "12"}, "", 12.0),
    (403, {"retry-after": "Thu, 01 Jan 1970 00:17:00 GMT"}, "", 20.0),  # HTTP date, clock at 1000 s
    (403, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1045"}, "", 45.0),
    (403, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "900"}, "", 0.0),
    (403, {}, "You have exceeded a secondary rate limit", 60.0),
    (429, {}, "", 60.0),
    (403, {}, "Resource not accessible by integration", None),
    (403, {"x-ratelimit-remaining": "12"}, "Must have admin rights", None),
])
def test_rate_limit_wait(status: int, headers: dict[str, str], message: str, wait: float | None) -> None:
    response = httpx.Response(status, headers=headers, json={"message": message})
    assert rate_limit_wait(response, now=1000.0) == wait


def test_redact_hides_the_clients_token() -> None:
    with httpx.Client(headers={"Authorization": "Bearer ghs_abcdef"}) as client:
        assert redact("token ghs_abcdef leaked", client) == "token *** leaked"


def test_network_failure_is_skipped_with_the_token_redacted() -> None:
    token = "ghs_n3tw0rkT0ken"

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot connect (auth {token})", request=request)

    waited: list[float] = []
    with httpx.Client(transport=httpx.MockTransport(refuse), headers={"Authorization": f"Bearer {token}"}) as client:
        result = upsert_comment(client, api_url="https://api.github.com/", repo="o/r", pr=1, body="x",
                                policy=github_retries(sleep=waited.append))
    assert result.status is CommentStatus.SKIPPED and not result.posted
    assert result.reason == ("GET /repos/o/r/issues/1/comments: ConnectError: cannot connect (auth ***); "
                             "the gate's verdict stands")
    assert waited == [1.0, 2.0, 4.0]


def test_a_retry_after_date_in_minus_0000_is_utc_in_any_local_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "CST-8")  # POSIX form: no zone database needed
    time.tzset()
    try:
        response = httpx.Response(429, headers={"retry-after": "Thu, 01 Jan 1970 00:17:00 -0000"})
        assert rate_limit_wait(response, now=1000.0) == 20.0
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_body_the_gate_did_not_render_is_sanitised_and_keeps_its_marker_on_top() -> None:
    from gate.github.comment import COMMENT_MARKER, fit_body

    forged = ("## ✅ all good @octocat @org/team\n"
              "<img src=x onerror=alert(1)> <a href=\"https://evil.example\">click</a> <!-- hidden -->\n"
              "<details open><summary><b>ok</b></summary>\n\n```\n<b>@code stays as written</b>\n```\n</details>\n"
              + "filler line\n" * 8000 + COMMENT_MARKER + "\n")
    body = fit_body(forged)
    lines = body.splitlines()
    assert lines[0] == COMMENT_MARKER and body.count(COMMENT_MARKER) == 1  # on top, even when cut
    assert len(body.encode("utf-8")) <= 65_000 and "was cut to fit a GitHub comment" in body
    assert "@\u200doctocat @\u200dorg/team" in lines[1]
    assert lines[2] == "&lt;img src=x onerror=alert(1)> &lt;a href=\"https://evil.example\">click&lt;/a> &lt;!-- hidden -->"
    assert "<details open><summary><b>ok</b></summary>" in body  # the gate's own folding stays
    assert "<b>@code stays as written</b>" in body  # code is shown as code anyway
    assert fit_body(body) == body  # idempotent: our own comment passes through unchanged


def test_a_malformed_pagination_link_is_an_error_not_a_traceback() -> None:
    import httpx
    import pytest

    from gate.github.api import ApiError, github_retries
    from gate.github.comment import find_comment

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=[], headers={"link": '<http://[::1>; rel="next"'})

    client = httpx.Client(transport=httpx.MockTransport(reply))
    with pytest.raises(ApiError, match="pagination link is malformed"):
        find_comment(client, api_url="https://api.github.com", repo="o/r", pr=1, author="bot",
                     policy=github_retries(retries=0))


def test_an_api_that_never_answers_is_given_up_within_the_deadline() -> None:
    import httpx

    from gate.github.api import github_retries
    from gate.github.comment import DEADLINE_S, CommentStatus, upsert_comment

    now = [1000.0]
    calls = []

    def hang(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        now[0] += 30.0  # each request waits out its 30 s read timeout
        raise httpx.ReadTimeout("timed out", request=request)

    policy = github_retries(retries=9, base_s=1.0, sleep=lambda s: now.__setitem__(0, now[0] + s),
                            clock=lambda: now[0])
    client = httpx.Client(transport=httpx.MockTransport(hang))
    result = upsert_comment(client, api_url="https://api.github.com", repo="o/r", pr=1, body="## hi",
                            policy=policy)
    assert result.status is CommentStatus.SKIPPED and "ReadTimeout" in result.reason
    assert now[0] - 1000.0 <= DEADLINE_S + 30.0 and len(calls) == 2  # not 10 tries of 30 s
