"""action.yml, the workflows and the documented examples: schema-valid, audited, pinned, least privilege."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from .composite import steps_of

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
DOCS = (*sorted((REPO / "docs").glob("*.md")), REPO / "README.md")
PLACEHOLDER_SHA = "0123456789abcdef0123456789abcdef01234567"


def tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is a test dependency: pip install -e '.[test]'"
    return found


def run(args: list[str], cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def doc_workflows() -> list[str]:
    """The complete workflows of docs/ and the README, placeholders filled in."""
    text = "".join(doc.read_text(encoding="utf-8") for doc in DOCS)
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    return [b.replace("FULL_COMMIT_SHA", PLACEHOLDER_SHA) for b in blocks if "\non:\n" in f"\n{b}"]


def test_action_matches_the_actions_schema() -> None:
    done = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_workflows_match_the_workflows_schema() -> None:
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "gate.yml", "gate-comment.yml"}
    done = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS)])
    assert done.returncode == 0, done.stdout + done.stderr


def test_zizmor_finds_nothing() -> None:
    done = run([tool("zizmor"), "--offline", "--persona", "auditor", "."])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No findings to report" in done.stdout


@pytest.mark.parametrize("path", [REPO / "action.yml", *WORKFLOWS], ids=lambda p: p.name)
def test_actions_pinned_by_full_sha_with_a_version_comment(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    uses = re.findall(r"uses:\s*(\S+)(.*)", text)
    assert uses
    for ref, rest in uses:
        if ref.startswith(("./", "$/")):
            continue
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), ref
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", rest), f"{ref}: add a '# vX.Y.Z' comment"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_least_privilege_and_no_persisted_credentials(path: Path) -> None:
    data = load(path)
    assert "permissions" in data, "top-level permissions"
    top = data["permissions"]
    assert top == {} or set(top.values()) == {"read"}, top
    for step in steps_of(data):
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["persist-credentials"] is False


def test_the_gate_workflow_runs_the_action_read_only_and_uploads_always() -> None:
    data = load(REPO / ".github" / "workflows" / "gate.yml")
    assert list(data[True]) == ["pull_request"]  # YAML 1.1 reads the key `on` as true
    steps = data["jobs"]["gate"]["steps"]
    gate = next(s for s in steps if s.get("uses") in ("./", "$/"))
    assert gate["with"]["comment"] == "false"
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact@"))
    assert upload["if"] == "always()" and upload["with"]["path"] == "gate-results/"


def test_the_comment_workflow_never_checks_out_pull_request_code() -> None:
    data = load(REPO / ".github" / "workflows" / "gate-comment.yml")
    assert data[True]["workflow_run"]["workflows"] == ["gate"]
    job = data["jobs"]["comment"]
    assert job["permissions"]["pull-requests"] == "write"
    for step in job["steps"]:
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert step["with"]["ref"] == "${{ github.event.repository.default_branch }}"
        assert "head_sha }}" not in str(step.get("with", {})) and "head_branch" not in str(step.get("with", {}))
    post = job["steps"][-1]["run"]
    assert 'gate comment --pr "$pr" --head-sha "$HEAD_SHA"' in post


def test_documented_workflows_are_valid_and_clean(tmp_path: Path) -> None:
    examples = doc_workflows()
    assert len(examples) >= 6  # PR gate, fork-safe pair, release, sharded, baseline
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    for index, text in enumerate(examples):
        (folder / f"example-{index}.yml").write_text(text, encoding="utf-8")
    files = sorted(map(str, folder.glob("*.yml")))
    done = run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *files])
    assert done.returncode == 0, done.stdout + done.stderr
    done = run([tool("zizmor"), "--offline", "."], cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for text in examples:
        for script in (s["run"] for s in steps_of(yaml.safe_load(text)) if "run" in s):
            assert "${{" not in script


def test_documented_shard_and_merge_commands() -> None:
    text = "\n".join(doc_workflows())
    assert 'gate check --shard "$SHARD/4" --out-dir "shard-$SHARD"' in text
    assert "name: shard-${{ matrix.shard }}" in text
    assert "gate merge shard-*/results.json --out-dir gate-results" in text
    assert "gate baseline update" in text


def _post_script() -> str:
    job = load(REPO / ".github" / "workflows" / "gate-comment.yml")["jobs"]["comment"]
    return str(next(s for s in job["steps"] if s.get("name") == "Post the PR comment")["run"])


@pytest.mark.parametrize(("number", "posted"), [(42, True), ("42; touch pwned", False), (None, False), (0, False)])
def test_comment_workflow_posts_only_for_a_plain_pull_request_number(
        tmp_path: Path, number: object, posted: bool) -> None:
    tool("jq")
    reports, bin_dir = tmp_path / "reports", tmp_path / "bin"
    reports.mkdir()
    bin_dir.mkdir()
    (reports / "event.json").write_text(json.dumps({"pull_request": {"number": number}}), encoding="utf-8")
    (reports / "comment.md").write_text("<!-- agent-gate:pr-comment -->\n", encoding="utf-8")
    log = tmp_path / "gate.log"
    stub = bin_dir / "gate"
    stub.write_text(f'#!/usr/bin/env bash\nprintf "%s\\n" "$*" >> {log}\n', encoding="utf-8")
    stub.chmod(0o755)
    script = tmp_path / "post.sh"
    script.write_text(_post_script(), encoding="utf-8")
    env = {"PATH": f"{bin_dir}:{os.environ['PATH']}", "REPORTS": str(reports), "HEAD_SHA": "c" * 40,
           "GITHUB_TOKEN": "t"}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert not list(tmp_path.glob("pwned*"))
    if posted:
        assert log.read_text(encoding="utf-8") == (
            f"comment --pr 42 --head-sha {'c' * 40} --body-file {reports}/comment.md\n")
    else:
        assert not log.exists()
        assert done.stdout.startswith("::warning title=agent-gate::no pull request number")


def test_the_nightly_judge_workflow_calibrates_judges_and_keeps_every_report() -> None:
    data = load(REPO / ".github" / "workflows" / "nightly-judge.yml")
    assert set(data[True]) == {"schedule", "workflow_dispatch"}  # nightly and by hand, never on a pull request
    job = data["jobs"]["judge"]
    assert job["environment"] == "nightly-judge" and "permissions" not in job
    runs = [str(s.get("run", "")) for s in job["steps"]]
    assert any(r.startswith("gate judge --calibrate") for r in runs)
    assert any(r.startswith("gate judge --all-cases") and "--fail-under" in r for r in runs)
    upload = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact@"))
    assert upload["if"].startswith("always()")
    assert {"gate-results/judge.json", "gate-results/judge.md", "gate-results/review-queue.jsonl"} <= set(
        upload["with"]["path"].split())
    keyed = [s for s in job["steps"] if "GATE_JUDGE_API_KEY" in s.get("env", {})]
    assert keyed and all(str(s["run"]).startswith("gate judge") for s in keyed)  # the key reaches the judge only
