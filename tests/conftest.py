"""Shared fixtures: a subject built from an answer and tool calls, a one-call judge, and the demo agent
in process (tests marked ``e2e`` run it as the real subprocess)."""

from __future__ import annotations

import errno
import gc
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import settings

from gate.checkers import REGISTRY
from gate.redaction.secrets import forget_all
from gate.subject import Subject
from gate.trajectory import Trajectory
from gate.verdict import Outcome
from tests.demo_inprocess import answer_demo_in_process
from tests.tiers import (  # noqa: F401 (hooks: pytest finds them here)
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_report_header,
    pytest_xdist_auto_num_workers,
)

# Hypothesis: `ci` (CI, or HYPOTHESIS_PROFILE=ci) draws the full 100 examples a property; `dev` a
# quick 10 while developing. The properties are the same; only how hard each is searched differs.
settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))

# A suite started in the background (`pytest &`) inherits an ignored SIGINT, which the runner called
# in process leaves ignored (a `gate` process takes it back); the in-process stop tests raise SIGINT,
# so the suite takes the signal back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What imports and collection built lives as long as the session: frozen, the collector's full
    passes stop walking it again and again (about a second of each worker's run)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def outside_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts outside GitHub Actions, wherever the suite runs: under Actions an input
    error is also printed as an ::error annotation, which a test asks for by setting GITHUB_ACTIONS."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


@pytest.fixture(autouse=True)
def secrets_forgotten() -> Iterator[None]:
    """The secrets one test's gate.yaml named are not another's: each test starts with none remembered."""
    forget_all()
    yield
    forget_all()


SubjectFactory = Callable[..., Subject]
Judge = Callable[..., Outcome]


def build_subject(answer: str = "", tool_calls: Sequence[dict[str, Any]] = ()) -> Subject:
    """A group-A run-0 trajectory of case T with this answer and these tool calls."""
    return Subject(Trajectory.model_validate(
        {"case_id": "T", "group": "A", "run": 0, "final_answer": answer, "tool_calls": list(tool_calls)}
    ))


def run_checker(check: str, params: dict[str, Any], answer: str = "",
                tool_calls: Sequence[dict[str, Any]] = ()) -> Outcome:
    """Validate ``params`` with the checker's model and judge the subject, as the evaluator does."""
    checker = REGISTRY[check]
    return checker(build_subject(answer, tool_calls), checker.params.model_validate(params))


@pytest.fixture
def short_leftover_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wait for a leftover process that holds the agent's stdout cut from 1 s to 0.2 s: the tests
    of it would otherwise spend their time waiting it out."""
    from gate.runner.adapters import command

    monkeypatch.setattr(command, "LEFTOVER_GRACE_S", 0.2)


@pytest.fixture
def fill_disk(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it and every positioned write (a spool's) fails from then on as on a full disk."""
    def full(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    return lambda: monkeypatch.setattr(os, "pwrite", full)


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy in the environment, whatever the machine running the tests sets."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def verify_seen(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The ``verify`` each httpx client is built with from now on, by class (Client, AsyncClient)."""
    import httpx

    seen: dict[str, object] = {}
    for name in ("Client", "AsyncClient"):
        real = getattr(httpx, name)

        def build(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            seen[_name] = kwargs.get("verify", True)
            return _real(*args, **kwargs)

        monkeypatch.setattr(httpx, name, build)
    return seen


@pytest.fixture
def sigint_ignored() -> Iterator[None]:
    """SIGINT ignored for the test, as a shell leaves it for nohup or a background job."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def subject_of() -> SubjectFactory:
    return build_subject


@pytest.fixture
def judge() -> Judge:
    return run_checker


@pytest.fixture(autouse=True)
def demo_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo agent answers in this process unless the test is ``e2e`` (one real subprocess per call)."""
    if request.node.get_closest_marker("e2e") is None:
        answer_demo_in_process(monkeypatch)


@pytest.fixture
def signals_restored() -> Iterator[None]:
    """A test may take SIGINT and SIGTERM as a gate process does; the suite's own handlers come back."""
    from gate.process.interrupts import _Process

    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    state = (_Process.remembering, _Process.pending)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        _Process.remembering, _Process.pending = state
