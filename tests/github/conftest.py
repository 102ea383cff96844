from __future__ import annotations

from collections.abc import Iterator

import pytest

from gate.commands import comment as commentcmd
from gate.github.api import github_retries

from .fake_github import FakeGitHub, serve


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with serve() as state:
        yield state


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Waits the command asked for, recorded instead of slept (the clock stands at 1,000 s)."""
    waited: list[float] = []
    monkeypatch.setattr(commentcmd, "DEFAULT_POLICY", github_retries(sleep=waited.append, clock=lambda: 1000.0))
    return waited
