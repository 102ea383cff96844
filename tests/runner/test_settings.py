"""run_jobs takes its settings as one frozen object: a caller names what it changes, and a run cannot
change them under its calls."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from gate.runner import RunnerSettings, run_jobs


def test_run_jobs_takes_the_jobs_the_agent_its_root_and_one_settings_object() -> None:
    assert list(inspect.signature(run_jobs).parameters) == ["jobs", "agent", "root", "settings", "inputs", "stops"]


def test_the_settings_are_frozen_and_default_to_a_plain_command_run() -> None:
    settings = RunnerSettings()
    assert (settings.progress, settings.give_up_unreachable, settings.judge, settings.transport) == (None, True, None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.progress = False  # type: ignore[misc]
    assert dataclasses.replace(settings, progress=False).progress is False
