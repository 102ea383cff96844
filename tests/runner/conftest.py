from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gate.case import Case
from gate.config.agent_config import AgentConfig, agent_config
from gate.runs.jobs import Job, plan

HERE = Path(__file__).parent
FAKE_AGENT = HERE / "fake_agent.py"


def make_case(case_id: str, *, intercepts: list[dict[str, Any]] | None = None, skills: tuple[str, ...] = (),
              context: dict[str, Any] | None = None, repeats: int = 1) -> Case:
    """A minimal valid case; its id tells the fake agents how to behave."""
    return Case.model_validate({
        "id": case_id, "suite": "B3", "dimension": "QC", "title": case_id, "difficulty": "easy",
        "scoring": "auto", "repeats": repeats,
        "input": {"messages": [{"role": "user", "content": f"question of {case_id}"}],
                  "context": context or {}, "tool_intercepts": intercepts or []},
        "groups": {"A": {"skill_enabled": False},
                   "B": {"skill_enabled": True, "active_skills": list(skills)}},
        "constraints": [{"id": "c", "check": "items:count", "params": {"exact": 1}}],
        "examples": {"pass": [{"final_answer": "1. x"}], "fail": [{"final_answer": "", "fails": ["c"]}]},
    })


def jobs_of(*case_ids: str, groups: tuple[str, ...] = ("A",), **kwargs: Any) -> list[Job]:
    return plan([make_case(c, **kwargs) for c in case_ids], groups)


def agent(**settings: Any) -> AgentConfig:
    settings.setdefault("cache", False)
    return agent_config(settings)


def command_agent(**settings: Any) -> AgentConfig:
    return agent(adapter="command", command=[sys.executable, str(FAKE_AGENT)], **settings)


class Sleeps:
    """A stand-in for asyncio.sleep that records the delays and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs; a zombie (killed, not yet reaped by its parent) does not."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[0] != "Z"


def wait_until_ended(pid: int, within_s: float = 10.0) -> bool:
    """Poll until ``pid`` ends; False if it still runs after ``within_s`` (then it is killed)."""
    deadline = time.monotonic() + within_s
    while running(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            return False
        time.sleep(0.02)
    return True


_counter = itertools.count()


@pytest.fixture
def agent_module(tmp_path: Path) -> Callable[[str], str]:
    """Write Python source as a uniquely named module under tmp_path; returns its import name."""

    def write(source: str) -> str:
        name = f"agent_mod_{next(_counter)}"
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        return name

    return write
