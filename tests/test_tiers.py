"""The default run leaves the slow tier out, `--slow` and `-m slow` bring it back, and CI runs both."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tiers import pytest_xdist_auto_num_workers

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

SUITE = """
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_slow():
    pass

@pytest.mark.e2e
def test_end_to_end():
    pass
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest("from tests.tiers import pytest_addoption, pytest_collection_modifyitems\n")
    pytester.makeini("[pytest]\nmarkers =\n    slow: the slow tier\n    e2e: end to end\n")
    pytester.makepyfile(test_tiers_suite=SUITE)
    return pytester


def ran(suite: pytest.Pytester, *args: str) -> list[str]:
    result = suite.runpytest_inprocess("-p", "no:cacheprovider", "-q", "--strict-markers", "-rA", *args)
    return sorted(line.split("::")[1] for line in result.outlines if line.startswith("PASSED "))


def test_the_default_run_leaves_the_slow_tier_and_every_e2e_test_out(suite: pytest.Pytester) -> None:
    assert ran(suite) == ["test_quick"]


def test_slow_runs_everything_and_m_slow_the_slow_tier_alone(suite: pytest.Pytester) -> None:
    assert ran(suite, "--slow") == ["test_end_to_end", "test_quick", "test_slow"]
    assert ran(suite, "-m", "slow") == ["test_end_to_end", "test_slow"]
    assert ran(suite, "-m", "not slow") == ["test_quick"]


def test_a_worker_a_core_by_default_and_one_more_for_the_waiting_slow_tier(
        pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    monkeypatch.setattr(pytestconfig.option, "slow", False)
    monkeypatch.setattr(pytestconfig.option, "markexpr", "")
    assert pytest_xdist_auto_num_workers(pytestconfig) == 2
    monkeypatch.setattr(pytestconfig.option, "markexpr", "slow")
    assert pytest_xdist_auto_num_workers(pytestconfig) == 3


def test_ci_runs_the_readme_s_command_then_the_slow_tier_with_coverage_combined() -> None:
    steps = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    default = steps.index("HYPOTHESIS_PROFILE=ci python -m pytest -q -n auto --cov")
    slow = steps.index("HYPOTHESIS_PROFILE=ci python -m pytest -q -n auto --cov --cov-append -m slow")
    assert default < slow


def test_every_workflow_that_runs_the_suite_runs_the_slow_tier_too() -> None:
    runs = [line.split("run:", 1)[1].strip() for workflow in sorted((ROOT / ".github" / "workflows").glob("*.yml"))
            for line in workflow.read_text(encoding="utf-8").splitlines() if "run: python -m pytest" in line]
    assert runs and all("--slow" in run.split("#")[0] for run in runs), runs
