"""The spool a `gate check` keeps its trajectories in once they are judged: what it reads back is
what it was given, and the trajectory file written from it is the one written from the records."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable

import pytest

from gate.errors import GateError
from gate.runs.records import Spool, SpooledRun, record_line, trajectories_text
from gate.trajectory import ToolCall, Trajectory

RECORDS = [
    Trajectory(case_id="B3-QC-01", group="B", run=1, final_answer="1. 索尼 WH-1000XM5\n2. Bose QC45 ¥2,499",
               tool_calls=(ToolCall(name="search", args={"q": "降噪耳机"}, result='{"hits": 3}'),),
               metadata={"latency_ms": 812, "tokens": {"in": 120, "out": 48}}),
    Trajectory(case_id="B3-QC-01", group="A", run=0, final_answer="", error="timeout after 60 s",
               metadata={"agent_unreachable": True}),
    Trajectory.model_validate({"case_id": "X-OC-01", "group": "A", "run": 0, "trace_id": "t-9",
                               "messages": [{"role": "user", "content": "Plan 3 days"},
                                            {"role": "assistant", "content": "Day 1 …\u2028Day 3 😀"}]}),
]


def test_a_spooled_run_reads_back_the_record_it_was_given() -> None:
    with Spool() as spool:
        kept = [spool.keep(record) for record in RECORDS]
        # reads between writes: the file position moves, the next record still lands at the end
        assert kept[0].whole() == RECORDS[0]
        late = spool.keep(RECORDS[0].model_copy(update={"run": 2}))
        for record, run in zip(RECORDS, kept, strict=True):
            assert run.whole() == record and run.line() == record_line(record)
            assert (run.case_id, run.group, run.run, run.error, run.done_key) == \
                   (record.case_id, record.group, record.run, record.error, record.done_key)
            assert run.final_answer == record.final_answer and run.digest == record.digest
        assert late.whole().run == 2 and late.whole().final_answer == RECORDS[0].final_answer


def test_the_trajectory_file_is_the_same_from_the_spool_as_from_the_records() -> None:
    with Spool() as spool:
        kept: list[Trajectory | SpooledRun] = [spool.keep(record) for record in RECORDS]
        mixed = [kept[0], RECORDS[1], kept[2]]  # a run stopped before judging keeps the whole record
        assert "".join(trajectories_text(kept)) == "".join(trajectories_text(RECORDS))
        assert "".join(trajectories_text(mixed)) == "".join(trajectories_text(RECORDS))


def test_a_spool_that_cannot_write_keeps_the_rest_whole_and_loses_nothing(
    fill_disk: Callable[[], None], capsys: pytest.CaptureFixture[str],
) -> None:
    with Spool() as spool:
        first = spool.keep(RECORDS[0])
        fill_disk()
        second, third = spool.keep(RECORDS[1]), spool.keep(RECORDS[2])
        assert isinstance(first, SpooledRun) and second is RECORDS[1] and third is RECORDS[2]
        assert "".join(trajectories_text([first, second, third])) == "".join(trajectories_text(RECORDS))
    err = capsys.readouterr().err
    assert err.count("keeping them in memory") == 1 and "No space left on device" in err  # one warning, naming why


def test_no_temporary_file_means_every_trajectory_stays_whole(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    import tempfile

    def refuse(**_: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    with Spool() as spool:
        assert all(spool.keep(record) is record for record in RECORDS)
    err = capsys.readouterr().err
    assert "cannot keep the run's trajectories in a temporary file in" in err and "Permission denied" in err


def test_a_spooled_run_read_after_the_run_is_a_clear_error() -> None:
    with Spool() as spool:
        kept = spool.keep(RECORDS[0])
    with pytest.raises(GateError, match="read after the spool was closed"):
        kept.whole()


def test_short_writes_are_completed(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.pwrite
    monkeypatch.setattr(os, "pwrite", lambda fd, data, offset: real(fd, bytes(data[:7]), offset))
    with Spool() as spool:
        kept = [spool.keep(record) for record in RECORDS]
        assert [run.whole() for run in kept] == RECORDS
