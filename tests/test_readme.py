"""The README's checker table is the registry's: regenerate it with `gate checkers --markdown`."""

from __future__ import annotations

from pathlib import Path

from gate.docs import checker_table

README = Path(__file__).resolve().parents[1] / "README.md"


def test_checker_table_matches_the_registry() -> None:
    text = README.read_text(encoding="utf-8")
    inside = text.split("<!-- checkers:start -->\n", 1)[1].split("<!-- checkers:end -->", 1)[0]
    assert inside.strip() == checker_table(markdown=True).strip(), "run `gate checkers --markdown` and paste it into the README"


def test_readme_starts_with_the_two_commands() -> None:
    blocks = README.read_text(encoding="utf-8").split("```bash\n")[1:3]
    assert "gate check" in blocks[0] and "pip install -e '.[test]'" in blocks[0]
    assert "pytest" in blocks[1]
