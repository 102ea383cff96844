"""Read and write trajectory files (JSON Lines): every bad line is named by file:line."""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from gate.errors import GateError, did_you_mean
from gate.files import safefiles, safejson
from gate.files.atomic import write_text
from gate.files.spool import TextSpool
from gate.files.yamlio import first_problem
from gate.trajectory import Group, Trajectory

RecordKey = tuple[str, str, int]


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""How a UTF-16 surrogate appears in JSON text read from UTF-8: only escaped. Most lines have none,
and are not walked for one."""


def parse_line(line: str, where: str) -> Trajectory:
    """One JSONL line as a trajectory, or a GateError at ``where``."""
    try:
        data = safejson.loads(line)
    except json.JSONDecodeError as exc:
        raise GateError(f"not valid JSON ({exc.msg} at column {exc.colno})", where=where) from None
    if not isinstance(data, dict):
        raise GateError("a trajectory record must be a JSON object", where=where)
    if _SURROGATE_ESCAPE.search(line):  # half an emoji ("\\ud83d") anywhere: replaced, so it can be written
        data = safejson.without_surrogates(data)
    try:
        return Trajectory.model_validate(data)
    except ValidationError as exc:
        raise GateError(first_problem(exc), where=where) from None


def read_trajectories(path: Path, known_cases: Mapping[str, object] | None = None, *,
                      allow_empty: bool = False) -> list[Trajectory]:
    """Every record of a JSONL file; unknown cases and repeated (case, group, run) keys are errors."""
    return list(iter_trajectories(path, known_cases, allow_empty=allow_empty))


def iter_trajectories(path: Path, known_cases: Mapping[str, object] | None = None, *,
                      allow_empty: bool = False) -> Iterator[Trajectory]:
    """The records of a JSONL file as they are read, never the whole file at once; a bad line is a
    GateError when the stream reaches it (whoever consumes it writes nothing before the end)."""
    seen: dict[RecordKey, int] = {}
    for number, line in _lines(path):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        record = parse_line(line, where)
        if known_cases is not None and record.case_id not in known_cases:
            raise GateError(f"case_id: unknown case '{record.case_id}'{did_you_mean(record.case_id, known_cases)}", where=where)
        key = (record.case_id, record.group, record.run)
        if key in seen:
            raise GateError(
                f"duplicate record for case {key[0]} group {key[1]} run {key[2]} (first at line {seen[key]})", where=where
            )
        seen[key] = number
        yield record
    if not seen and not allow_empty:
        raise GateError("no trajectory records", where=str(path))


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """Numbered UTF-8 lines as read_text splits them (CRLF, CR and LF end a line; a leading BOM is
    dropped), one buffer at a time; errors name the file, as read_text's do."""
    offset = 0  # bytes before the current line, for the place of a bad byte
    number = 0
    try:
        with safefiles.open_stream(path, what="trajectory file") as handle:
            while raw := safefiles.read_record(handle, where=f"{path}:{number + 1}"):
                start = len(codecs.BOM_UTF8) if offset == 0 and raw.startswith(codecs.BOM_UTF8) else 0
                try:
                    text = raw[start:].decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise GateError(f"not UTF-8 text (byte {offset + start + exc.start})", where=str(path)) from None
                offset += len(raw)
                text = text[:-1] if text.endswith("\n") else text
                text = text[:-1] if text.endswith("\r") else text
                for part in text.split("\r"):  # a lone CR ends a line too
                    number += 1
                    yield number, part
    except FileNotFoundError:
        raise GateError("file not found", where=str(path)) from None
    except OSError as exc:
        raise GateError(f"cannot read: {exc.strerror}", where=str(path)) from None


def record_line(record: Trajectory) -> str:
    """One record as a line of a trajectory file: sorted keys, no escaped characters."""
    return safejson.dumps(record.model_dump(mode="json", exclude_none=False), ensure_ascii=False, sort_keys=True) + "\n"


@dataclass(frozen=True, slots=True, eq=False)
class SpooledRun:
    """A run whose trajectory waits in a :class:`Spool`: what judging and the consistency pass read
    of it (its key, its error, what it did) here, the rest read back when asked for."""

    case_id: str
    group: Group
    run: int
    error: str | None
    done_key: bytes
    digest: str
    """The trajectory's digest, taken as it was spooled: results.json records it for every run."""
    spool: Spool
    offset: int
    length: int

    def line(self) -> str:
        """The record's line of the trajectory file, as :func:`record_line` wrote it."""
        return self.spool.read(self.offset, self.length)

    def whole(self) -> Trajectory:
        return parse_line(self.line(), f"the spooled record of {self.case_id} {self.group} run {self.run}")

    @property
    def final_answer(self) -> str:
        return self.whole().final_answer


class Spool(TextSpool):
    """Trajectories written to a temporary file as a run finishes them, each kept as a
    :class:`SpooledRun`: a run of thousands of cases holds their keys, not their answers, until the
    trajectory file is written from here."""

    def __init__(self) -> None:
        super().__init__("the run's trajectories")

    def keep(self, record: Trajectory) -> Kept:
        place = self.store(record_line(record))
        if place is None:
            return record
        return SpooledRun(record.case_id, record.group, record.run, record.error, record.done_key, record.digest, self,
                          *place)


Kept = Trajectory | SpooledRun
"""A finished run as a run keeps it: whole, or spooled."""


def trajectories_text(records: Iterable[Kept]) -> Iterator[str]:
    """Records sorted by (case, group, run), one JSON object a line — a line at a time, so a long
    run's file is never held as one string beside its records."""
    for record in sorted(records, key=lambda r: (r.case_id, r.group, r.run)):
        yield record.line() if isinstance(record, SpooledRun) else record_line(record)


def write_trajectories(path: Path, records: Iterable[Kept]) -> None:
    """Write records sorted by (case, group, run), one JSON object a line, atomically."""
    write_text(path, trajectories_text(records))
