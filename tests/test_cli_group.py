"""What every command runs inside: the collector tuned for the command, and restored after it."""

from __future__ import annotations

import gc

import click
from click.testing import CliRunner

from gate.cli_group import COLLECTOR_THRESHOLDS, GateGroup
from gate.errors import GateError


def _group(seen: list[tuple[int, ...]], fail: bool) -> click.Group:
    @click.group(cls=GateGroup)
    def group() -> None:
        pass

    @group.command()
    def probe() -> None:
        seen.append(gc.get_threshold())
        if fail:
            raise GateError("bad input", where="gate.yaml")

    return group


def test_a_command_runs_with_the_collector_thresholds_and_leaves_them_as_they_were() -> None:
    before = gc.get_threshold()
    for fail, code in ((False, 0), (True, 2)):
        seen: list[tuple[int, ...]] = []
        result = CliRunner().invoke(_group(seen, fail), ["probe"])
        assert result.exit_code == code, result.output
        assert seen == [COLLECTOR_THRESHOLDS]
        assert gc.get_threshold() == before != COLLECTOR_THRESHOLDS
