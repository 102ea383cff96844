"""A case's place (the line of its id, however the file writes it), and the examples a run can do without."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from casefiles import case_yaml

from gate.cases.loader import load_cases
from gate.errors import GateError

BODY = case_yaml(['{id: c, check: "items:count", params: {exact: 3}}'], ["1. a\\n2. b\\n3. c"], [("1. a", ["c"])])
REST = BODY.split("\n", 1)[1]  # everything but the id line


@pytest.mark.parametrize(("text", "line"), [
    (BODY, 1),
    ("# a case\n# of the B3 suite\n" + BODY, 3),
    (REST + "id: B3-QC-01\n", REST.count("\n") + 1),
    ('"id": B3-QC-01\n' + REST, 1),
    ("# x\nid: B3-QC-01   # the file's name\n" + REST, 2),
    ("# x\nid:\n  B3-QC-01\n" + REST, 3),  # the value's line
    ('notes: "a note that runs on\nid: B3-QC-01"\nid: B3-QC-01\n' + REST, 3),  # a second id line, in a string
], ids=["first", "after-comments", "last", "quoted-key", "comment-after", "value-below", "id-line-in-a-string"])
def test_the_line_of_the_id_is_where_the_file_writes_it(tmp_path: Path, text: str, line: int) -> None:
    (tmp_path / "B3-QC-01.yaml").write_text(text, encoding="utf-8")
    case = load_cases(tmp_path).cases["B3-QC-01"]
    assert case.line == line


def test_a_run_can_load_the_cases_without_their_examples_which_are_still_validated(tmp_path: Path) -> None:
    (tmp_path / "B3-QC-01.yaml").write_text("notes: why the rule reads the answer so\n" + BODY, encoding="utf-8")
    kept, dropped = load_cases(tmp_path), load_cases(tmp_path, examples=False)
    assert kept.cases["B3-QC-01"].examples is not None and dropped.cases["B3-QC-01"].examples is None
    assert kept.cases["B3-QC-01"].notes == "why the rule reads the answer so" and dropped.cases["B3-QC-01"].notes is None
    assert dropped.cases["B3-QC-01"].model_dump(exclude={"examples", "notes"}) == \
        kept.cases["B3-QC-01"].model_dump(exclude={"examples", "notes"})
    assert (dropped.cases["B3-QC-01"].path, dropped.cases["B3-QC-01"].line) == (kept.cases["B3-QC-01"].path, 2)
    assert dropped.digest == kept.digest and dropped.file_digests == kept.file_digests
    (tmp_path / "B3-QC-01.yaml").write_text(BODY.replace("fails: [c]", "fails: []"), encoding="utf-8")
    with pytest.raises(GateError, match=r"fail\[0\] must list the constraint ids it fails"):
        load_cases(tmp_path, examples=False)


def test_the_case_set_digest_reads_the_files_in_the_order_of_their_relative_paths_as_text(tmp_path: Path) -> None:
    # a committed baseline names the digest: sha256 over (relative path, bytes) sorted by the path's
    # text, which puts "b3-extra/" before "b3/" where sorting the paths' parts would not
    files = {"b3/B3-QC-01.yaml": BODY, "b3-extra/B3-QC-02.yaml": BODY.replace("B3-QC-01", "B3-QC-02"),
             "b3.old/B3-QC-03.yaml": BODY.replace("B3-QC-01", "B3-QC-03"), "B3-QC-04.yml": BODY.replace("B3-QC-01", "B3-QC-04")}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    hasher = hashlib.sha256()
    for rel in sorted(files):
        hasher.update(rel.encode() + b"\0" + files[rel].encode("utf-8") + b"\0")
    assert load_cases(tmp_path).digest == f"sha256:{hasher.hexdigest()}"
    assert sorted(files) != [p.relative_to(tmp_path).as_posix() for p in sorted(tmp_path.rglob("*.y*ml"))]


def _plant(kind: str, path: Path) -> None:
    import os

    if kind == "dangling-link":
        path.symlink_to(path.parent / "gone.yaml")
    elif kind == "link-to-a-device":
        path.symlink_to("/dev/null")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


@pytest.mark.parametrize(("kind", "said"), [
    ("dangling-link", r"a symbolic link to .*gone\.yaml, which does not exist"),
    ("link-to-a-device", r"a character device \(through a symbolic link\)"),
    ("fifo", r"a FIFO"),
    ("directory", r"a directory"),
])
def test_a_case_file_that_is_not_a_regular_file_is_an_error_naming_it_never_skipped(
        tmp_path: Path, kind: str, said: str) -> None:
    (tmp_path / "B3-QC-01.yaml").write_text(BODY, encoding="utf-8")
    planted = tmp_path / "B3-QC-02.yaml"
    _plant(kind, planted)
    with pytest.raises(GateError, match=said) as raised:
        load_cases(tmp_path)
    assert raised.value.where == str(planted) and "not a readable case file" in str(raised.value)


def test_every_unreadable_case_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "B3-QC-01.yaml").write_text(BODY, encoding="utf-8")
    for name in ("B3-QC-02.yaml", "B3-QC-03.yml"):
        (tmp_path / name).symlink_to(tmp_path / "gone.yaml")
    with pytest.raises(GateError) as raised:
        load_cases(tmp_path, every_problem=True)
    assert [p.where for p in raised.value.problems] == [str(tmp_path / "B3-QC-02.yaml"), str(tmp_path / "B3-QC-03.yml")]
