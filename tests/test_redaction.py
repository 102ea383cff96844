"""Every spelling of a secret is redacted, short values are not, and any input is scanned in linear time."""

from __future__ import annotations

import base64
import json
import time
import urllib.parse
from pathlib import Path

import pytest

from gate.config.gate_yaml import load_config
from gate.redaction.secrets import public, redact, remember

SECRET = "s3cr3t/Tok+en \"q\"_ü€0123456789"
HEADERS = {"x-api-key": SECRET}


@pytest.mark.parametrize("spelt", [
    SECRET,
    json.dumps(SECRET).strip('"').replace("/", "\\/"),
    json.dumps(SECRET, ensure_ascii=True).strip('"'),
    json.dumps(json.dumps(SECRET, ensure_ascii=True).strip('"').replace("/", "\\/")).strip('"'),
    "".join(f"\\u{ord(c):04X}" for c in SECRET),
    urllib.parse.quote(SECRET, safe=""),
    urllib.parse.quote(SECRET, safe="").replace("%2F", "%2f").replace("%C3%BC", "%c3%bc"),
    urllib.parse.quote_plus(SECRET, safe=""),
    base64.b64encode(SECRET.encode()).decode(),
    base64.b64encode(SECRET.encode()).decode().rstrip("="),
    base64.urlsafe_b64encode(SECRET.encode()).decode(),
    base64.urlsafe_b64encode(SECRET.encode()).decode().rstrip("="),
], ids=["raw", "json-slash", "json-ascii", "json-twice", "unicode-all", "url", "url-lower-hex", "url-plus",
        "b64", "b64-unpadded", "b64-urlsafe", "b64-urlsafe-unpadded"])
def test_each_spelling_is_redacted_whole(spelt: str) -> None:
    assert redact(f"got <{spelt}>", HEADERS) == "got <***>"


@pytest.mark.parametrize("user", ["", "u:", "us:", "user:", "a-longer-user:"])
def test_a_secret_inside_a_base64_blob_is_hidden_at_each_byte_offset(user: str) -> None:
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        blob = encode(f"{user}{SECRET}!trailing".encode()).decode()
        shown = redact(f"Authorization: Basic {blob}", HEADERS)
        assert "***" in shown
        left, _, right = shown.removeprefix("Authorization: Basic ").partition("***")
        # only the letters shared with the neighbours remain: at most one either side of the secret
        assert len(left) <= len(encode(user.encode()).decode().rstrip("=")) + 1
        assert len(right) <= len(encode(b"!trailing").decode()) + 2


def test_short_values_do_not_mask_ordinary_words() -> None:
    assert redact("abc is a word, YWJj too", {"x": "Bearer abc"}) == "abc is a word, YWJj too"
    # a four-letter value is hidden as written, but has no base64 spellings (they would be 4 letters)
    assert redact("pass and cGFzcw==", {"x": "pass"}) == "*** and cGFzcw=="


def test_an_escape_is_never_cut_in_half() -> None:
    # a JSON '\\\\' is one backslash of the secret, never the raw one and the start of the next escape
    assert redact('"ab\\\\cdefgh" "ab\\cdefgh"', {"x": "ab\\cdefgh"}) == '"***" "***"'
    assert redact('"ab\\\\\\\\cdefgh" "ab\\\\cdefgh"', {"x": "ab\\\\cdefgh"}) == '"***" "***"'
    assert redact("100%25 of abcdefgh%", {"x": "abcdefgh%"}) == "100%25 of ***"


def test_remembered_secrets_and_secret_looking_variables_are_hidden_by_public() -> None:
    remember(["Zm9vYmFyYmF6cXV4"])
    assert public("a Zm9vYmFyYmF6cXV4 b", {}) == "a *** b"
    assert public("https://user:pw@host/x", {}) == "https://***@host/x"
    assert public("c2VjcmV0LXZhbHVlLTE= ok", {"MY_API_KEY": "secret-value-1"}) == "*** ok"
    assert public("secret-value-1", {"MY_SETTING": "secret-value-1"}) == "secret-value-1"


@pytest.mark.slow  # timed at two sizes
@pytest.mark.parametrize("hostile", [
    "s", "\\", "%", "&", "@", "\\u0073", "%73", "s3cr3t/Tok+en \"q\"_ü€012345678",
])
def test_redaction_is_linear_in_the_input(hostile: str) -> None:
    secrets = {"a": "\\\\%%&&@@" * 4 + SECRET, "b": SECRET}
    redact("x", secrets)  # the pattern compiled once, outside the timing

    def seconds(size: int) -> float:
        text = hostile * (size // len(hostile))
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            redact(text, secrets)
            best = min(best, time.process_time() - started)
        return best

    small, large = seconds(50_000), seconds(200_000)
    assert large < 10 * max(small, 0.002)  # four times the input: about 4 when linear, 16 when quadratic


def test_gate_yaml_names_its_secrets_but_not_its_plain_headers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_KEY", "k3y-from-the-environment")
    monkeypatch.setenv("JUDGE_KEY", "judge-k3y-value")
    (tmp_path / "gate.yaml").write_text(
        "agent: {adapter: openai, url: 'http://127.0.0.1:9/v1', model: m, api_key_env: LLM_KEY,\n"
        "        headers: {Content-Type: application/json, X-Api-Key: literal-k3y-123, X-Org: '${LLM_KEY}'}}\n"
        "judge: {url: 'http://127.0.0.1:9/v1', model: m, api_key_env: JUDGE_KEY}\n", encoding="utf-8")
    load_config(tmp_path / "gate.yaml")
    shown = public("k3y-from-the-environment literal-k3y-123 judge-k3y-value application/json", {})
    assert shown == "*** *** *** application/json"


def test_an_answer_is_judged_with_its_secrets_hidden_and_nothing_else_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.runner.base import to_trajectory

    monkeypatch.setenv("AGENT_API_TOKEN", "tok-0123456789")
    record = {"final_answer": "clone ssh://git@github.com/o/r with dG9rLTAxMjM0NTY3ODk=", "tool_calls": []}
    trajectory = to_trajectory(record, ("c", "A", 0))
    assert trajectory.final_answer == "clone ssh://git@github.com/o/r with ***"
