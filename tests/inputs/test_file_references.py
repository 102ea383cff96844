"""Every file a committed file names stays in its folder and is a regular file of bounded size:
`gate check` and `gate validate` refuse anything else with exit 2, naming the file, the reference and
what was expected — before any agent call, and before a byte of a device or FIFO is read."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_preflight import TOOLS, both, configure, gate, in_case, openai, project, write  # noqa: F401

from gate.cli.app import main
from gate.errors import GateError
from gate.files import safefiles


def replaced(name: str, make: Callable[[Path], object]) -> Callable[[Path], None]:
    """An edit that puts what ``make`` creates where the project's file ``name`` was."""
    def edit(root: Path) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        make(path)
    return edit


def link(name: str, target: str) -> Callable[[Path], None]:
    return replaced(name, lambda path: path.symlink_to(target))


def fifo(name: str) -> Callable[[Path], None]:
    return replaced(name, os.mkfifo)


def folder(name: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        (root / name).unlink(missing_ok=True)
        (root / name).mkdir(parents=True)
    return edit


def secret_beside(root: Path) -> None:
    """A file outside the folders a reference may name: what a hostile case would have sent."""
    (root / "secret.md").write_text("THE-RUNNER-SECRET", encoding="utf-8")


SKILL = "B3-QC-01.yaml:13: active skill (case B3-QC-01, group B) "
REFERENCES: list[tuple[str, Callable[[Path], None], str]] = [
    ("skill-climbs-out", both(secret_beside, openai(), in_case("active_skills: [packing]", "active_skills: ['../secret']")),
     f"{SKILL}'../secret.md': resolves to "),
    ("skill-links-out", both(secret_beside, openai(), link("skills/packing.md", "../secret.md")),
     f"{SKILL}'packing.md': resolves to "),
    ("skill-is-a-fifo", both(openai(), fifo("skills/packing.md")), f"{SKILL}'packing.md': a FIFO ("),
    ("skill-is-a-directory", both(openai(), folder("skills/packing.md")), f"{SKILL}'packing.md': a directory ("),
    ("skill-too-large", both(openai(), write("skills/packing.md", "x" * (safefiles.SKILL_LIMIT + 1))),
     f"{SKILL}'packing.md': 1,048,577 bytes ("),
    ("skills-dir-climbs-out", openai(skills_dir="../.."), "gate.yaml:6: agent.skills_dir '../..': resolves to "),
    ("tools-file-climbs-out", openai(tools="../tools.json"), "gate.yaml:6: agent.tools '../tools.json': resolves to "),
    ("tools-file-links-to-a-device", both(link("tools.json", "/dev/zero"), openai(tools="tools.json")),
     "gate.yaml:6: agent.tools 'tools.json': resolves to /dev/zero, outside "),
    ("tools-file-is-a-fifo", both(fifo("tools.json"), openai(tools="tools.json")),
     "tools.json: a FIFO; expected a regular file"),
    ("tool-schema-refers-out", both(write("tools.json", json.dumps([{**TOOLS[0], "function": {
        **TOOLS[0]["function"], "parameters": {"type": "object", "properties": {"q": {"$ref": "https://x.invalid/s.json"}}}}}])),
        openai(tools="tools.json")),
     "tools.json: tools[0] (search_tickets): parameters.properties.q.$ref: 'https://x.invalid/s.json' points outside "
     "this schema; expected a reference into it ('#/$defs/…')"),
    ("case-schema-refers-out", in_case("{id: count, check: items:count, params: {exact: 3}}",
                                       "{id: count, check: 'json:schema', params: {schema: {$ref: '../../etc/x.json'}}}"),
     "$ref: '../../etc/x.json' points outside this schema"),
    ("replay-file-climbs-out", lambda p: configure(p, {"agent": {"adapter": "replay", "trajectories": "/etc/hostname"}}),
     "gate.yaml:3: agent.trajectories '/etc/hostname': resolves to /etc/hostname, outside "),
    ("replay-file-is-a-fifo", both(fifo("runs.jsonl"), lambda p: configure(p, {"agent": {"adapter": "replay",
                                                                                      "trajectories": "runs.jsonl"}})),
     "runs.jsonl: trajectory file: a FIFO; expected a regular file"),
    ("baseline-link-dangles", link("baselines/main.json", "gone.json"),
     "baselines/main.json: the baseline: a link to a missing file ("),
    ("baseline-links-to-a-device", link("baselines/main.json", "/dev/zero"),
     "baselines/main.json: the baseline: a character device (/dev/zero); expected a regular file"),
    ("case-file-links-out", both(secret_beside, link("cases/B3-QC-02.yaml", "../secret.md")),
     "cases/B3-QC-02.yaml: case file 'B3-QC-02.yaml': resolves to "),
    ("case-file-is-a-fifo", fifo("cases/B3-QC-02.yaml"), "B3-QC-02.yaml: not a readable case file: a FIFO"),
]


@pytest.mark.parametrize(("edit", "message"), [row[1:] for row in REFERENCES], ids=[row[0] for row in REFERENCES])
def test_a_reference_out_of_its_folder_or_to_no_regular_file_is_refused_before_any_call(
        project: Path, edit: Callable[[Path], None], message: str) -> None:  # noqa: F811
    edit(project)
    checked, check_errors = gate("check")
    assert checked == 2 and not (project / "called").exists()
    assert len(check_errors) == 1 and message in check_errors[0], check_errors
    assert "THE-RUNNER-SECRET" not in check_errors[0]
    assert gate("validate") == (2, check_errors)


def test_gate_yaml_linked_to_a_device_is_exit_2_not_out_of_memory(project: Path) -> None:  # noqa: F811
    link("gate.yaml", "/dev/zero")(project)
    assert gate("check") == (2, ["gate: error: gate.yaml: a character device (/dev/zero); expected a regular file"])


def test_the_size_is_checked_before_the_content_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: 1\n" * 10)
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with pytest.raises(GateError) as info:
        safefiles.read_bytes(path, limit=49)
    assert str(info.value) == f"{path}: 50 bytes, more than the 49 allowed"
    assert reads == []
    assert safefiles.read_bytes(path, limit=50) == b"a: 1\n" * 10


def test_a_comment_body_that_is_a_fifo_is_exit_2_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the fork-safe workflow posts a body a fork's run produced: it may be anything
    monkeypatch.chdir(tmp_path)
    fifo("body.md")(tmp_path)
    result = CliRunner().invoke(main, ["comment", "--body-file", "body.md"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr == "gate: error: body.md: the comment body: a FIFO; expected a regular file\n"


def test_shard_results_linked_to_a_device_are_exit_2_not_out_of_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    link("shard-1.json", "/dev/zero")(tmp_path)
    result = CliRunner().invoke(main, ["merge", "shard-1.json"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.stderr == ("gate: error: shard-1.json: results file: a character device (/dev/zero); "
                             "expected a regular file\n")


def test_a_nul_in_a_skill_name_is_exit_2_not_a_traceback(project: Path) -> None:  # noqa: F811
    openai()(project)
    in_case("active_skills: [packing]", 'active_skills: ["pack\\0ing"]')(project)
    code, errors = gate("check")
    assert code == 2
    assert errors == [f"gate: error: {project / 'cases' / 'B3-QC-01.yaml'}:13: active skill (case B3-QC-01, group B) "
                      "'pack\\x00ing.md': a NUL character in a file name; expected a file name"]


def test_a_fifo_planted_as_the_validation_stamps_is_a_miss_not_a_hang(tmp_path: Path) -> None:
    from gate.judging.validated import Stamps

    fifo("validated.json")(tmp_path)
    stamps = Stamps(tmp_path / "validated.json", "build-1")
    assert not stamps.unchanged("B3-QC-01", "digest")
