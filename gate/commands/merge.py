"""`gate merge`: combine the shards of a matrix run into one result set and one report.

Each shard's directory holds results.json and trajectories.jsonl, which must hold exactly the runs
the shard's configuration implies (:mod:`gate.commands.merge_runs`). The merged verdicts are judged
again from the trajectories with the same code as an unsharded run, so merging four shards gives
exactly what one run would have given.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from pydantic import ValidationError

from gate.cases.loader import load_cases
from gate.commands.merge_runs import Shard, check_evidence, check_runs
from gate.errors import GateError
from gate.files import safefiles, safejson
from gate.files.yamlio import first_problem
from gate.pipeline.stages import (
    CheckSettings,
    build_report,
    identity,
    judge,
    reference_bar,
    reference_baseline,
    write_reports,
)
from gate.report.model import GateReport
from gate.results import SCHEMA, ResultsFile
from gate.runs.records import read_trajectories
from gate.scoring.readings import Readings
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict


def read_results(path: Path) -> ResultsFile:
    """A results.json document, validated; anything else is a GateError naming the file and field."""
    if not path.exists():
        raise GateError("results file not found", where=str(path))
    raw = safefiles.read_bytes(path, what="results file", limit=safefiles.DOCUMENT_LIMIT)
    try:
        document = safejson.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise GateError(f"not a results.json: {exc}", where=str(path)) from None
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise GateError(f"not a results.json: schema must be '{SCHEMA}'", where=str(path))
    try:
        return ResultsFile.model_validate(document)
    except ValidationError as exc:
        raise GateError(f"not a results.json: {first_problem(exc)}", where=str(path)) from None


def _shard(document: ResultsFile, path: Path) -> tuple[int, int]:
    if document.shard is None:
        raise GateError("not a shard's results (no shard K/N recorded); run `gate check --shard K/N`", where=str(path))
    return document.shard.k, document.shard.n


def merge_shards(files: list[Path], settings: CheckSettings) -> tuple[GateReport, dict[str, Path]]:
    """Validate that the shards belong together and are complete, then judge and report them."""
    documents = [(path, read_results(path)) for path in files]
    shards = [(path, _shard(doc, path)) for path, doc in documents]
    totals = {n for _, (_, n) in shards}
    if len(totals) != 1:
        raise GateError(f"shards of different splits cannot be merged: N = {sorted(totals)}")
    total = totals.pop()
    seen: dict[int, Path] = {}
    for path, (k, _) in shards:
        if not 1 <= k <= total:
            raise GateError(f"shard {k}/{total} is not a shard of {total}", where=str(path))
        if k in seen:
            raise GateError(f"shard {k}/{total} given twice ({seen[k]} and {path})")
        seen[k] = path
    missing = sorted(set(range(1, total + 1)) - set(seen))
    if missing:
        raise GateError(f"missing shard(s) {missing} of {total}: a missing shard is never a pass")
    digests = {doc.cases_digest for _, doc in documents}
    if len(digests) != 1:
        raise GateError("the shards ran on different case sets (cases_digest differs)")
    configs = {json.dumps(doc.identity, sort_keys=True) for _, doc in documents}
    if len(configs) != 1:
        raise GateError("the shards ran with different agents or configs (identity differs)")
    config = settings.config
    case_set = load_cases(config.resolve(config.cases.path), config.suites)
    if case_set.digest != digests.pop():
        raise GateError("the case files changed since the shards ran (cases_digest differs from cases/)")
    if json.dumps(identity(config), sort_keys=True) != configs.pop():
        raise GateError("gate.yaml differs from the one the shards ran with (identity differs)")
    merged = dataclasses.replace(settings, config=config)
    merged, bar_notes = reference_bar(merged, case_set)
    base, notes = reference_baseline(merged)
    notes = bar_notes + notes
    readings = Readings()  # the consistency fields of the runs, read as they are judged
    trajectories: list[Trajectory] = []
    verdicts: list[RunVerdict] = []
    for path, document in documents:
        records = read_trajectories(path.parent / "trajectories.jsonl", case_set.cases, allow_empty=not document.results)
        shard = Shard(path, document, records, judge(case_set.cases, records, merged.config.judging.budget_s,
                                                     readings=readings))
        check_evidence(shard)
        check_runs(shard, merged.config, case_set, base)
        if document.run_keys() & {(t.case_id, t.group, t.run) for t in trajectories}:
            raise GateError("runs overlap another shard's", where=str(path))
        trajectories += records
        verdicts += shard.verdicts
    interrupted = any(doc.interrupted for _, doc in documents)
    report = build_report(merged, case_set, trajectories, base=base, interrupted=interrupted, notes=notes,
                          verdicts=verdicts, readings=readings)
    cached = sum(doc.cached_answers for _, doc in documents)
    report = dataclasses.replace(report, cached=cached)
    paths = write_reports(report, settings.out_dir, trajectories)
    return report, paths
