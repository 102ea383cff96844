"""The README stays a front page, and every relative link in it and in docs/ leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gate.cli.app import main

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^()\s]+)\)")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks (a `#` in a YAML block is no heading, `](` in code no link)."""
    lines, fence = [], ""
    for line in text.split("\n"):
        marker = re.match(r"\s*(`{3,}|~{3,})", line)
        if marker and (not fence or marker.group(1).startswith(fence)):
            fence = "" if fence else marker.group(1)
            continue
        if not fence:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for line in prose_lines(page.read_text(encoding="utf-8")):
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            base = slug(heading.group(1))
            name, n = base, 0
            while name in found:  # a repeated heading gets -1, -2 …
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def relative_links(page: Path) -> list[str]:
    text = "\n".join(prose_lines(page.read_text(encoding="utf-8")))
    text = re.sub(r"`[^`\n]*`", "", text)  # a link inside inline code is no link
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_the_readme_is_a_front_page() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 400, f"README.md has {lines} lines: move reference text into docs/"


def test_the_slug_is_github_s() -> None:
    assert slug("gate.yaml and the thresholds") == "gateyaml-and-the-thresholds"
    assert slug("What `gate check` does") == "what-gate-check-does"
    assert slug("I. Every budget in one run (bench_all.py)") == "i-every-budget-in-one-run-bench_allpy"
    assert slug("Fork-safe PR comments: `pull_request` + `workflow_run`") == (
        "fork-safe-pr-comments-pull_request--workflow_run")


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[here](#title) [gone](#nowhere) [file](other.md)\n```\n[code](x.md)\n```\n",
                    encoding="utf-8")
    assert relative_links(page) == ["#title", "#nowhere", "other.md"]
    assert anchors(page) == {"title"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target}: no heading with that anchor in {goal.relative_to(REPO)}")
    assert not broken, f"{page.relative_to(REPO)}: " + "; ".join(broken)


def _gate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _shown(after: str, nth: int) -> list[str]:
    """The output lines of the README's nth text block after a heading, the commands (`$ …`) left out."""
    text = (REPO / "README.md").read_text(encoding="utf-8").split(after, 1)[1]
    block = text.split("```text\n")[nth + 1].split("```", 1)[0]
    return [line for line in block.split("\n")[:-1] if not line.startswith("$ ")]


def _line(line: str) -> str:
    return line.split(" · reports in ", 1)[0]  # where the reports land depends on the directory


def test_the_readme_s_first_green_and_first_red(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's walk-through, as a newcomer runs it: gate init, a pass, a baseline, a broken agent, a failure."""
    monkeypatch.chdir(tmp_path)
    for name in ("GITHUB_ACTIONS", "GITHUB_EVENT_PATH", "GITHUB_SHA", "GITHUB_STEP_SUMMARY"):
        monkeypatch.delenv(name, raising=False)
    assert _gate("init", "--adapter", "command")[0] == 0
    (validated, said), (checked, printed) = _gate("validate"), _gate("check")
    assert (validated, checked) == (0, 0), said + printed
    lines = {_line(line) for line in (said + printed).split("\n")}
    green = _shown("### First green, first red", 0)
    assert [line for line in green if _line(line) not in lines] == [], printed
    assert _gate("baseline", "update")[0] == 0
    agent = tmp_path / "agent.py"
    three = agent.read_text(encoding="utf-8")
    assert "\\n3. Contact support if the link has expired." in three
    agent.write_text(three.replace("\\n3. Contact support if the link has expired.", ""), encoding="utf-8")
    code, printed = _gate("check")
    assert code == 1, printed
    lines = {_line(line) for line in printed.split("\n")}
    red = _shown("### First green, first red", 1)
    assert [line for line in red if _line(line) not in lines] == [], printed


def test_the_readme_installs_agent_gate_as_the_pinning_rule_says() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (spec,) = re.findall(r'pip install ("agent-gate @ git\+[^"]+")', readme)
    assert f"pip install {spec}" in (REPO / "docs" / "github-actions.md").read_text(encoding="utf-8")
