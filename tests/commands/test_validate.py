"""`gate validate` judges again only the examples of case files that changed since they last passed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.files import buildinfo
from gate.judging import validated

THREE = '{id: three, check: "items:count", params: {exact: 3}}'


def case(case_id: str, passing: str = "1. a\n2. b\n3. c") -> str:
    return case_yaml([THREE], [passing], [("1. a", ["three"])], case_id=case_id)


@pytest.fixture(autouse=True)
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)  # stamps are read outside CI only
    (tmp_path / "gate.yaml").write_text("cases: {path: cases}\n", encoding="utf-8")  # a project: caches beside it
    (tmp_path / "cases").mkdir()
    for case_id in ("QC-01", "QC-02", "QC-03"):
        (tmp_path / "cases" / f"{case_id}.yaml").write_text(case(case_id), encoding="utf-8")
    return tmp_path


def validate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", "--cases", "cases", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_an_unchanged_case_set_is_not_judged_again() -> None:
    assert validate() == (0, "3 cases valid; 6 examples judged as their cases say\n")
    assert validate() == (0, "3 cases valid; 0 examples judged as their cases say; "
                             "those of 3 unchanged cases passed before (--full judges them again)\n")
    assert validate("--full") == (0, "3 cases valid; 6 examples judged as their cases say\n")


def test_an_edited_case_is_judged_again_and_its_failure_reported(project: Path) -> None:
    validate()
    (project / "cases" / "QC-02.yaml").write_text(case("QC-02", passing="1. a\n2. b"), encoding="utf-8")
    code, output = validate()
    assert code == 1
    assert "QC-02: pass[0]: constraint 'three' is fail, expected pass" in output
    assert "QC-01" not in output and "QC-03" not in output
    code, output = validate()  # a case that failed is never stamped: it is judged until it passes
    assert code == 1 and "QC-02: pass[0]" in output
    (project / "cases" / "QC-02.yaml").write_text(case("QC-02"), encoding="utf-8")
    assert validate()[1].startswith("3 cases valid; 2 examples judged as their cases say; those of 2 unchanged")


def test_another_build_ci_or_an_unreadable_stamps_file_judges_everything(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    everything = (0, "3 cases valid; 6 examples judged as their cases say\n")
    validate()
    stamps = project / ".gate-cache" / validated.STAMPS
    assert json.loads(stamps.read_text(encoding="utf-8"))["cases"].keys() == {"QC-01", "QC-02", "QC-03"}
    with monkeypatch.context() as patched:
        patched.setattr(validated, "build", lambda: "an edited checker")  # as imported by the stamps
        assert validate() == everything
    validate()
    monkeypatch.setenv("CI", "true")  # a pull request could commit a stamps file
    assert validate() == everything
    monkeypatch.delenv("CI")
    stamps.write_text("{not json", encoding="utf-8")
    assert validate() == everything


def test_outside_a_project_nothing_is_kept(project: Path) -> None:
    (project / "gate.yaml").unlink()
    assert validate()[0] == validate()[0] == 0
    assert validate()[1] == "3 cases valid; 6 examples judged as their cases say\n"
    assert not (project / ".gate-cache").exists()


def test_the_build_changes_with_the_gates_own_modules_and_lexicon(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import gate

    build = buildinfo.build.__wrapped__  # uncached: each call reads the modules again
    before = build()
    assert build() == before
    package = tmp_path / "gate"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(gate, "__file__", str(package / "__init__.py"))
    copy = build()
    assert copy != before  # other modules
    (package / "__init__.py").write_text("# edited\n", encoding="utf-8")
    assert build() != copy
    edited = build()
    (package / "lexicon").mkdir()
    (package / "lexicon" / "recommends.yaml").write_text("recommends: {}\n", encoding="utf-8")
    assert build() != edited  # a phrase added to the lexicon reads answers differently


def test_the_build_changes_when_a_parsing_library_is_reinstalled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import importlib.util

    build = buildinfo.build.__wrapped__
    before = build()
    installed = tmp_path / "markdown_it" / "__init__.py"
    installed.parent.mkdir()
    installed.write_text("__version__ = '9.9'\n", encoding="utf-8")
    real = importlib.util.find_spec

    def found(name: str, package: str | None = None) -> object:
        return importlib.util.spec_from_file_location(name, installed) if name == "markdown_it" else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", found)
    upgraded = build()
    assert upgraded != before
    installed.write_text("__version__ = '9.10'\n", encoding="utf-8")
    assert build() != upgraded
