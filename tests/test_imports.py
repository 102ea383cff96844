"""What a command imports: a check through the replay (or command) adapter, reports included, needs
neither httpx nor the GitHub client, and validating or judging a recording needs no runner either —
every local run would pay for their import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs `gate check`, then prints the modules it imported (the gate exits through SystemExit).
RUN = (
    "import json, runpy, sys\n"
    "sys.argv = ['gate', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('gate', run_name='__main__')\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(json.dumps(sorted(sys.modules)))\n"
)


def test_a_replayed_check_imports_no_http_client(tmp_path: Path) -> None:
    (tmp_path / "gate.yaml").write_text(json.dumps({
        "suites": {"B3": ["FC", "QC", "PC", "LC", "MC", "AC", "MM"], "X": ["OC", "SD", "SA", "FC", "CD"],
                   "ARTICLE": ["TC"]},
        "cases": {"path": str(ROOT / "cases"), "tags": ["golden", "consistency"]},
        "agent": {"adapter": "replay", "trajectories": str(ROOT / "examples" / "trajectories.jsonl")},
        "baseline": "none.json", "out_dir": "out"}), encoding="utf-8")
    imported = modules(tmp_path, "check")
    assert (tmp_path / "out" / "comment.md").exists() and (tmp_path / "out" / "junit.xml").exists()
    assert "gate.report.comment" in imported
    assert not {"httpx", "gate.github.comment", "gate.github.api"} & imported
    for command in (["validate"], ["eval", "--cases", str(ROOT / "cases"), "--trajectories",
                                   str(ROOT / "examples" / "trajectories.jsonl"), "--json", "eval.json"]):
        imported = modules(tmp_path, *command)
        assert "gate.evaluate" in imported and "markdown_it" in imported  # examples or answers were judged
        assert not {"httpx", "asyncio", "gate.runner", "gate.github"} & imported, command
    assert (tmp_path / "eval.json").exists()


def modules(project: Path, *command: str) -> set[str]:
    """The modules a `gate` command imported, run in ``project``."""
    done = subprocess.run([sys.executable, "-c", RUN, *command], cwd=project, capture_output=True, text=True,
                          timeout=120)
    found: set[str] = set(json.loads(done.stdout.strip().splitlines()[-1]))
    return found
