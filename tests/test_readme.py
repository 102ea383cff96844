"""The README's commands and the examples of docs/ are what the code runs and reads."""

from __future__ import annotations

from pathlib import Path

from gate.commands.checkers import checker_table

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = README.parent / "docs"


def test_checker_table_matches_the_registry() -> None:
    """docs/checkers.md's table is the registry's: regenerate it with `gate checkers --markdown`."""
    text = (DOCS / "checkers.md").read_text(encoding="utf-8")
    inside = text.split("<!-- checkers:start -->\n", 1)[1].split("<!-- checkers:end -->", 1)[0]
    assert inside.strip() == checker_table(markdown=True).strip(), "run `gate checkers --markdown` and paste it into docs/checkers.md"


def test_readme_starts_with_the_two_commands() -> None:
    blocks = README.read_text(encoding="utf-8").split("```bash\n")[1:3]
    # the main job installs only what it needs; the test extra comes with the tests
    assert "gate check" in blocks[0] and "pip install -e . " in blocks[0] and "[test]" not in blocks[0]
    assert "pip install -e '.[test]'" in blocks[1] and "pytest" in blocks[1]


def test_the_pre_commit_hook_manifest_is_valid() -> None:
    from pre_commit.clientlib import load_manifest

    (hook,) = load_manifest(str(README.parent / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "gate-validate" and hook["entry"] == "gate validate" and hook["pass_filenames"] is False


def test_the_version_has_one_source() -> None:
    import pytest

    import gate

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    project = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gate.__version__"}
    assert f"## {gate.__version__}" in (README.parent / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_console_script_is_the_command_line() -> None:
    """pyproject.toml's `gate` script loads the command line `python -m gate` runs (gate.cli.app.main)."""
    from importlib.metadata import EntryPoint

    import pytest

    from gate.cli.app import main

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    project = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))
    (name, target), = project["project"]["scripts"].items()
    assert name == "gate"
    assert EntryPoint(name=name, value=target, group="console_scripts").load() is main


def test_the_documented_gate_yaml_is_a_valid_config() -> None:
    import yaml

    from gate.config.gate_yaml import GateConfig

    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    block = text.split("# gate.yaml and the thresholds", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    config = GateConfig.model_validate(yaml.safe_load(block))
    assert config.suites is not None and "B3" in config.suites


def test_the_documented_judge_section_is_a_valid_config() -> None:
    import yaml

    from gate.config.gate_yaml import GateConfig

    text = (DOCS / "semantic.md").read_text(encoding="utf-8")
    block = text.split("# The semantic tier", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    config = GateConfig.model_validate(yaml.safe_load(block))
    assert config.judge is not None and config.judge.samples == 3 and not config.judge.gate
    reviews = text.split("**Human review as data.**", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    from gate.semantic.reviews import ReviewsFile

    assert ReviewsFile.model_validate(yaml.safe_load(reviews)).reviews
