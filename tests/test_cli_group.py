"""What every command runs inside: the collector tuned for the command, and restored after it."""

from __future__ import annotations

import gc

import click
import pytest
from click.testing import CliRunner

from gate.cli.group import COLLECTOR_THRESHOLDS, GateGroup
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


@pytest.mark.usefixtures("signals_restored")
def test_the_process_entry_point_freezes_what_is_alive_so_exit_does_not_scan_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the interpreter's collections at exit scanned every live object for nothing (76–98 ms of the
    # demo's cached rerun); a test's CliRunner, which is not the end of a process, leaves them alone
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    for fail, code in ((False, 0), (True, 2)):
        result = CliRunner().invoke(_group([], fail), ["probe"])
        assert result.exit_code == code and frozen == []
    for fail, code in ((False, 0), (True, 2)):
        frozen.clear()
        with pytest.raises(SystemExit) as exited:
            _group([], fail)(["probe"], prog_name="gate")
        assert exited.value.code == code and frozen == [True]
