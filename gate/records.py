"""Read and write trajectory files (JSON Lines): every bad line is named by file:line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import ValidationError

from gate import safejson
from gate.atomic import write_text
from gate.errors import GateError, did_you_mean
from gate.trajectory import Trajectory
from gate.yamlio import first_problem, read_text

RecordKey = tuple[str, str, int]


def parse_line(line: str, where: str) -> Trajectory:
    """One JSONL line as a trajectory, or a GateError at ``where``."""
    try:
        data = safejson.loads(line)
    except json.JSONDecodeError as exc:
        raise GateError(f"not valid JSON ({exc.msg} at column {exc.colno})", where=where) from None
    if not isinstance(data, dict):
        raise GateError("a trajectory record must be a JSON object", where=where)
    try:
        return Trajectory.model_validate(data)
    except ValidationError as exc:
        raise GateError(first_problem(exc), where=where) from None


def read_trajectories(path: Path, known_cases: Mapping[str, object] | None = None, *,
                      allow_empty: bool = False) -> list[Trajectory]:
    """Every record of a JSONL file; unknown cases and repeated (case, group, run) keys are errors."""
    records: list[Trajectory] = []
    seen: dict[RecordKey, int] = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
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
        records.append(record)
    if not records and not allow_empty:
        raise GateError("no trajectory records", where=str(path))
    return records


def trajectories_text(records: Iterable[Trajectory]) -> str:
    """Records sorted by (case, group, run), one JSON object a line."""
    ordered = sorted(records, key=lambda r: (r.case_id, r.group, r.run))
    lines = [safejson.dumps(r.model_dump(mode="json", exclude_none=False), ensure_ascii=False, sort_keys=True)
             for r in ordered]
    return "\n".join(lines) + ("\n" if lines else "")


def write_trajectories(path: Path, records: Iterable[Trajectory]) -> None:
    """Write records sorted by (case, group, run), one JSON object a line, atomically."""
    write_text(path, trajectories_text(records))
