"""What a command imports: a check through the replay (or command) adapter, reports included, needs
neither httpx nor the GitHub client, and validating or judging a recording needs no runner either —
every local run would pay for their import."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Runs `gate` commands one after the other in one interpreter; after each, prints the modules imported
# so far (the gate exits through SystemExit). What a command did not import, the ones before it did not
# import either, so the commands that must import least go first.
RUN = (
    "import json, runpy, sys\n"
    "for command in json.loads(sys.argv[1]):\n"
    "    sys.argv = ['gate', *command]\n"
    "    try:\n"
    "        runpy.run_module('gate', run_name='__main__')\n"
    "    except SystemExit:\n"
    "        pass\n"
    "    print('imported:', json.dumps(sorted(sys.modules)))\n"
)


@pytest.mark.slow  # a fresh interpreter running validate, eval and check on the repository's cases
def test_a_replayed_check_imports_no_http_client(tmp_path: Path) -> None:
    # the replay file gate.yaml names lies in the project (a path out of it is refused)
    shutil.copyfile(ROOT / "examples" / "trajectories.jsonl", tmp_path / "trajectories.jsonl")
    write_config(tmp_path, {"path": str(ROOT / "cases"), "tags": ["golden", "consistency"]},
                 {"adapter": "replay", "trajectories": "trajectories.jsonl"})
    validate, evaluate, check = modules(tmp_path, ["validate"], [
        "eval", "--cases", str(ROOT / "cases"), "--trajectories", str(ROOT / "examples" / "trajectories.jsonl"),
        "--json", "eval.json"], ["check"])
    assert "gate.judging.evaluate" in validate and "markdown_it" in validate  # the examples were judged
    for imported in (validate, evaluate):  # validating or judging a recording needs no runner
        assert not {"httpx", "asyncio", "gate.runner", "gate.github"} & imported
    assert (tmp_path / "eval.json").exists()
    assert (tmp_path / "out" / "comment.md").exists() and (tmp_path / "out" / "junit.xml").exists()
    assert "gate.report.comment" in check
    assert not {"httpx", "gate.github.comment", "gate.github.api"} & check


def write_config(project: Path, cases: dict[str, Any], agent: dict[str, Any]) -> None:
    """gate.yaml for the seeds' suites, these cases and this agent; reports in out/."""
    (project / "gate.yaml").write_text(json.dumps({
        "suites": {"B3": ["FC", "QC", "PC", "LC", "MC", "AC", "MM"], "X": ["OC", "SD", "SA", "FC", "CD"],
                   "ARTICLE": ["TC"]},
        "cases": cases, "agent": agent, "baseline": "none.json", "out_dir": "out"}), encoding="utf-8")


def modules(project: Path, *commands: list[str]) -> list[set[str]]:
    """The modules imported once each of ``commands`` had run, one after the other in ``project``."""
    done = subprocess.run([sys.executable, "-c", RUN, json.dumps(commands)], cwd=project, capture_output=True,
                          text=True, timeout=120)
    found = [set(json.loads(line.removeprefix("imported: "))) for line in done.stdout.splitlines()
             if line.startswith("imported: ")]
    assert len(found) == len(commands), done.stdout + done.stderr
    return found


@pytest.mark.slow  # a fresh interpreter
def test_loading_cases_imports_no_answer_analyser() -> None:
    # a rerun whose verdicts are all cached loads and validates the cases but reads no answer
    code = ("import json, sys\nfrom pathlib import Path\nfrom gate.cases.loader import load_cases\n"
            "from gate.text.deferred import _DEFERRED\n"
            f"load_cases(Path({str(ROOT / 'cases')!r}))\nprint(json.dumps(sorted(sys.modules)))\n"
            "print(json.dumps([compiled.cache_info().currsize for compiled in _DEFERRED]))\n"
            "from gate.lexicon.load import classes\nprint(classes.cache_info().currsize)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    modules, compiled, lexicon_read = done.stdout.splitlines()
    imported = set(json.loads(modules))
    assert "gate.checkers" in imported
    assert not {"gate.text.items", "gate.text.prices", "gate.text.entities", "markdown_it"} & imported
    # nor compiles the analysers' larger patterns (~20 ms): the checkers' modules defer them
    assert len(json.loads(compiled)) >= 10 and not any(json.loads(compiled))
    assert lexicon_read == "0"  # nor reads the lexicon's word classes (its alias groups, which cases name, only)


def test_every_model_builds_its_validator_when_first_used() -> None:
    # a model validated only inside another (a case's messages, a results record's parts) would
    # otherwise compile a validator of its own at import, which every command pays for
    import importlib
    import pkgutil

    from pydantic import BaseModel

    import gate

    for module in pkgutil.walk_packages(gate.__path__, "gate."):
        if module.name != "gate.__main__":
            importlib.import_module(module.name)
    pending = list(BaseModel.__subclasses__())
    models = []
    while pending:
        model = pending.pop()
        pending += model.__subclasses__()
        if model.__module__.startswith("gate."):
            models.append(model)
    assert len(models) > 50
    assert [m.__qualname__ for m in models if not m.model_config.get("defer_build")] == []


# Put before RUN: when `gate check`'s agent calls end, prints the modules imported so far.
CALLS_DONE = (
    "import json, sys\n"
    "import gate.commands.check as check\n"
    "calls = check.run_jobs\n"
    "def run_jobs(*args, **kwargs):\n"
    "    outcome = calls(*args, **kwargs)\n"
    "    print('calls done:', json.dumps(sorted(sys.modules)))\n"
    "    from gate.text.deferred import _DEFERRED\n"
    "    print('uncompiled:', json.dumps([c.cache_info().currsize for c in _DEFERRED].count(0)))\n"
    "    return outcome\n"
    "check.run_jobs = run_jobs\n"
)


# The demo agent answering after 0.1 s: its first calls are still out when the preparation starts
# (50 ms after the first), however fast this machine starts a process.
SLOW_DEMO_AGENT = f"import runpy, time; time.sleep(0.1); runpy.run_path({str(ROOT / 'examples' / 'demo_agent.py')!r}, " \
                  "run_name='__main__')"


@pytest.mark.slow  # a fresh interpreter running `gate check` against a command agent
def test_what_judging_and_the_reports_import_is_imported_while_the_agent_calls_are_out(tmp_path: Path) -> None:
    # done after the calls, these imports (0.1–0.2 s) held up the answers that arrived first, then the reports
    write_config(tmp_path, {"path": str(ROOT / "cases"), "ids": ["B3-QC-01", "X-OC-01"]},
                 {"adapter": "command", "command": [sys.executable, "-c", SLOW_DEMO_AGENT]})
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    done = subprocess.run([sys.executable, "-c", CALLS_DONE + RUN, json.dumps([["check"]])], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=env)
    assert (tmp_path / "out" / "junit.xml").exists(), done.stderr
    found = {label: set(json.loads(modules)) for label, _, modules in
             (line.partition(": ") for line in done.stdout.splitlines()) if label in ("calls done", "imported")}
    assert found["imported"] - found["calls done"] == set()
    uncompiled = [json.loads(count) for label, _, count in (line.partition(": ") for line in done.stdout.splitlines())
                  if label == "uncompiled"]
    assert uncompiled == [0]  # the deferred patterns too were compiled while the calls were out
