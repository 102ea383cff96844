"""A secret in any spelling reaches no sink: the terminal, the annotations, results.json, junit.xml,
comment.md, trajectories.jsonl, the step summary and the posted comment all pass gate/redaction/secrets.py."""

from __future__ import annotations

import base64
import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
from test_faults import AGENT, CASE, Project

from gate.github.comment import fit_body

TOKEN = "s3cr3t/Tok+en_0123456789abcdef"
"""A token with a '/' (JSON may write it '\\/') and a '+' (a URL writes it '%2B')."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """A case and a command agent in ``tmp_path``, as tests/test_faults.py builds them."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    (tmp_path / "agent.py").write_text(AGENT, encoding="utf-8")
    return Project(tmp_path)


def spellings(token: str) -> dict[str, str]:
    """How a careless server or agent may print ``token``."""
    return {
        "json": json.dumps(token).strip('"').replace("/", "\\/"),
        "unicode": "".join(f"\\u{ord(c):04x}" for c in token),
        "url": urllib.parse.quote(token, safe=""),
        "url-lower-hex": re.sub("%..", lambda m: m.group().lower(), urllib.parse.quote_plus(f"a {token}", safe="")),
        "basic": base64.b64encode(f"user:{token}".encode()).decode(),
        "basic-urlsafe": base64.urlsafe_b64encode(f"me:{token}".encode()).decode().rstrip("="),
    }


def assert_hidden(text: str, where: str) -> None:
    for name, spelt in spellings(TOKEN).items():
        middle = spelt[len(spelt) // 3: 2 * len(spelt) // 3]
        assert middle not in text, f"{where}: the {name} spelling of the token is shown"


def test_an_agent_error_quoting_the_token_encoded_is_hidden_in_every_report_and_the_log(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_API_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(project.root / "summary.md"))
    quoted = " ".join(spellings(TOKEN).values())
    project.agent(f"sys.stderr.write({quoted!r})\nsys.exit(1)")
    code, output = project.check()
    assert code == 4 and "***" in output
    assert_hidden(output, "terminal and annotations")
    for name, text in project.reports().items():
        assert_hidden(text, name)
    assert "***" in project.run()["error"]


def test_an_answer_quoting_the_token_encoded_is_hidden_in_every_report(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_API_TOKEN", TOKEN)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(project.root / "summary.md"))
    answer = "1. a\n2. " + " ".join(spellings(TOKEN).values())  # two items: the run fails, its answer is quoted
    project.agent(f'record["final_answer"] = {answer!r}\nprint(json.dumps(record))')
    code, output = project.check()
    assert code == 1
    assert_hidden(output, "terminal")
    reports = project.reports()
    assert "***" in reports["trajectories.jsonl"]
    for name, text in reports.items():
        assert_hidden(text, name)
    assert_hidden((project.root / "summary.md").read_text(encoding="utf-8"), "step summary")


def test_a_401_body_echoing_the_header_json_escaped_is_hidden(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    from runner.loopback import Reply, serve

    monkeypatch.setenv("LLM_KEY", TOKEN)  # a name that does not look secret: only gate.yaml says it is

    def unauthorised(seen: Any, index: int) -> Reply:
        # as PHP's json_encode writes it: every '/' escaped
        body = json.dumps({"error": f"bad credentials {seen.headers.get('authorization')}"}).replace("/", "\\/")
        return Reply(401, raw=body.encode())

    with serve(unauthorised) as server:
        project.config(agent={"adapter": "http", "url": server.url, "cache": False, "retries": 0,
                              "headers": {"Authorization": "Bearer ${LLM_KEY}"}})
        code, output = project.check()
    assert code == 4 and "bad credentials ***" in output
    assert_hidden(output, "terminal")
    for name, text in project.reports().items():
        assert_hidden(text, name)


def test_the_posted_comment_hides_the_github_token_in_any_spelling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    body = fit_body("a fork's artifact: " + " ".join(spellings(TOKEN).values()))
    assert_hidden(body, "comment body")
    assert body.count("***") == len(spellings(TOKEN))


def test_a_report_written_in_pieces_hides_a_token_split_between_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.files.atomic import write_text

    monkeypatch.setenv("AGENT_API_TOKEN", TOKEN)
    spelt = spellings(TOKEN)["json"]
    target = write_text(tmp_path / "trajectories.jsonl", iter(["{\"a\": \"", spelt[:9], spelt[9:], "\"}\n", "{}\n"]))
    assert target.read_text(encoding="utf-8") == "{\"a\": \"***\"}\n{}\n"
