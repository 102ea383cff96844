"""The two tiers of the suite, as conftest hooks: the default run leaves out the slow tier (real
subprocesses, signals, timeouts waited out, timing probes: tests marked ``slow``, and every ``e2e``
test) so that it stays a quick loop; ``--slow``, or a ``-m`` expression naming the tier, runs it, as
.ci/run does."""

from __future__ import annotations

import os

import pytest


def slow_tier_selected(config: pytest.Config) -> bool:
    """`--slow`, or a `-m` expression that names the tier (`-m slow`, `-m "slow and e2e"`)."""
    return bool(config.getoption("--slow")) or "slow" in (config.option.markexpr or "")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true",
                     help="run the slow tier too (tests marked slow or e2e), as .ci/run does")


@pytest.hookimpl(tryfirst=True)  # before `-m` selects: an e2e test is selected by `-m slow` too
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.slow)
    if slow_tier_selected(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_report_header(config: pytest.Config) -> str:
    if slow_tier_selected(config):
        return "slow tier: selected"
    return "slow tier: left out (--slow runs it; .ci/run does)"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a worker a core for the default run, which computes; one more when the slow tier
    runs, which waits — on agents run as subprocesses, timeouts, signals — and the extra worker keeps
    the cores busy meanwhile. Each worker collects the whole suite (seconds under coverage), so an
    idle one is not free."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1 if slow_tier_selected(config) else cores
