"""Load and validate the case set: schema, checker names, checker parameters, unique ids."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from gate.case import Case, Constraint
from gate.cases.parsed_cases import ParsedCases
from gate.checkers import REGISTRY
from gate.errors import GateError, GateErrors, did_you_mean
from gate.files import safefiles, yamlio


@dataclass(frozen=True)
class CaseSet:
    """The loaded cases by id, in id order, with the digest of the files they came from."""

    cases: dict[str, Case]
    digest: str
    root: Path
    file_digests: Mapping[str, str] = field(default_factory=dict)
    """Case id → ``sha256:`` of its file's bytes."""

    def select(self, tags: Sequence[str] = (), ids: Sequence[str] = ()) -> list[Case]:
        """Cases carrying any tag in ``tags`` (all cases if none given), restricted to ``ids``, by id."""
        chosen = [
            case for case in self.cases.values()
            if (not tags or any(tag in case.tags for tag in tags)) and (not ids or case.id in ids)
        ]
        return sorted(chosen, key=lambda c: c.id)


def _check_constraint(constraint: Constraint, path: Path, text: str, loc: list[int | str]) -> None:
    if constraint.check is not None:
        checker = REGISTRY.get(constraint.check)
        if checker is None:
            line = yamlio.line_of(text, [*loc, "check"])
            raise GateError(
                f"{yamlio.dotted([*loc, 'check'])}: unknown checker '{constraint.check}'"
                f"{did_you_mean(constraint.check, REGISTRY)}",
                where=f"{path}:{line}" if line else str(path),
            )
        try:
            parsed = checker.params.model_validate(constraint.params)
        except ValidationError as exc:
            raise yamlio.validation_error(path, text, exc, [*loc, "params"],
                                          keys=yamlio.model_keys(checker.params)) from None
        constraint.keep_parsed(parsed)
    key = {"all_of": "all_of", "any_of": "any_of", "not": "not"}.get(constraint.kind)
    for index, child in enumerate(constraint.children):
        child_loc: list[int | str] = [*loc, str(key), index] if key != "not" else [*loc, "not"]
        _check_constraint(child, path, text, child_loc)


@lru_cache(maxsize=1)
def _case_keys() -> frozenset[str]:
    return frozenset(yamlio.model_keys(Case))


def _load(path: Path, parsed: ParsedCases | None = None, examples: bool = True) -> tuple[Case, bytes]:
    """One case file, its schema and every checker's parameters validated; and its bytes.
    ``parsed``: what unchanged files parsed to before (the parse is skipped, not the validation);
    ``examples``: keep the examples (validated either way)."""
    raw, text = yamlio.read_bytes(path)
    kept = parsed.get(raw) if parsed is not None else None
    data = kept if kept is not None else yamlio.load(path, text)
    if not isinstance(data, dict):
        raise GateError("a case file must be a YAML mapping (id, suite, dimension, …)", where=str(path))
    try:
        case = Case.model_validate(data)
    except ValidationError as exc:
        raise yamlio.validation_error(path, text, exc, keys=_case_keys()) from None
    line = _id_line(text, case.id)
    if path.stem != case.id:
        raise GateError(f"id: '{case.id}' must match the file name '{path.stem}'", where=f"{path}:{line}")
    for index, constraint in enumerate(case.constraints):
        _check_constraint(constraint, path, text, ["constraints", index])
    if not examples:  # nor its notes, written for whoever edits the case
        case = case.model_copy(update={"examples": None, "notes": None})
    case.locate(str(path), line)
    if parsed is not None and kept is None:
        parsed.put(raw, data)
    return case, raw


def _id_line(text: str, case_id: str) -> int:
    """The line of the case's id: found by its one ``id: <id>`` line at the margin, as a case file
    writes it (composing the document again to find it was a fifth of loading a case), else from
    the document's nodes."""
    written = f"id: {case_id}"
    found = [number for number, line in enumerate(text.split("\n"), start=1)
             if line.startswith("id:") and line.rstrip() == written]
    return found[0] if len(found) == 1 else yamlio.line_of(text, ["id"]) or 1


def case_files(root: Path) -> list[Path]:
    """Every *.yaml / *.yml under ``root``, ordered by their paths relative to ``root`` as text: the
    order the case set's digest reads them in. Each must resolve inside ``root`` (a link out of it is
    a GateError); one that is no regular file (a FIFO, a device, a dangling link) is refused when read."""
    if not root.exists():
        raise GateError("case directory not found", where=str(root))
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise GateError(f"not a case file or directory ({_kind(root)})", where=str(root))
    found = sorted((p for p in root.rglob("*") if p.suffix in (".yaml", ".yml")),
                   key=lambda p: p.relative_to(root).as_posix())
    # a case file that cannot be read is never passed over in silence; each one is named
    unreadable = [GateError(f"not a readable case file: {_kind(path)}", where=str(path))
                  for path in found if not path.is_file()]
    if unreadable:
        raise unreadable[0] if len(unreadable) == 1 else GateErrors(unreadable)
    for path in found:  # and a link to a regular file still stays inside the case folder
        safefiles.inside(root, path.relative_to(root).as_posix(), what="case file")
    return found


def _kind(path: Path) -> str:
    """What stands at ``path`` instead of a regular file."""
    if path.is_symlink() and not path.exists():
        return f"a symbolic link to {os.readlink(path)}, which does not exist"
    linked = " (through a symbolic link)" if path.is_symlink() else ""
    try:
        mode = path.stat().st_mode
    except OSError as exc:  # a loop of links, a directory that may not be searched
        return f"cannot be looked at ({exc.strerror})"
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file") + linked


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path != root else path.name


def _check_vocabulary(case: Case, suites: Mapping[str, Sequence[str] | None]) -> None:
    """A case's suite and dimension must be among those gate.yaml declares."""
    where = f"{case.path}:{case.line}"
    if case.suite not in suites:
        raise GateError(f"suite: '{case.suite}' is not declared in gate.yaml suites (declared: "
                        f"{', '.join(sorted(suites))}){did_you_mean(case.suite, suites)}", where=where)
    dimensions = suites[case.suite]
    if dimensions and case.dimension not in dimensions:
        raise GateError(f"dimension: '{case.dimension}' is not a dimension of suite {case.suite} in gate.yaml "
                        f"(declared: {', '.join(dimensions)}){did_you_mean(case.dimension, dimensions)}", where=where)


def _problems(error: GateError) -> list[GateError]:
    return error.problems if isinstance(error, GateErrors) else [error]


def load_cases(root: str | Path, suites: Mapping[str, Sequence[str] | None] | None = None, *,
               every_problem: bool = False, parsed: ParsedCases | None = None, examples: bool = True) -> CaseSet:
    """Load every case under ``root``; duplicate ids, aggregates of unknown cases and (when
    ``suites`` is given) suites or dimensions gate.yaml does not declare are errors. With
    ``every_problem``, every file is read and all their problems are raised together
    (:class:`GateErrors`), each naming its file and line. ``parsed``: the files' parses kept by
    an earlier load (:mod:`gate.cases.parsed_cases`). ``examples=False``: each case's examples (and notes) are
    validated, then dropped — a run that neither self-tests nor asks the judge never reads them,
    and they are a large share of what a loaded case holds."""
    root = Path(root)
    files = case_files(root)
    if not files:
        raise GateError("no case files (*.yaml) found", where=str(root))
    cases: dict[str, Case] = {}
    # sha256 over each file's relative path and bytes, in that path order: a baseline's freshness
    # key, hashed as the files are read rather than from all their bytes held to the end (which
    # grew with the case set and stayed in the process's memory as fragments after they were freed)
    digest = hashlib.sha256()
    file_digests: dict[str, str] = {}
    found: list[GateError] = []
    for path in files:
        try:
            case, raw = _load(path, parsed, examples)  # each file is read once: for the case and for the digest
            if case.id in cases:
                raise GateError(f"id: duplicate case id '{case.id}' (also in {cases[case.id].path})",
                                where=f"{path}:{case.line}")
            if suites is not None:
                _check_vocabulary(case, suites)
        except GateError as exc:
            if not every_problem:
                raise
            found += _problems(exc)
            continue
        cases[case.id] = case
        file_digests[case.id] = f"sha256:{hashlib.sha256(raw).hexdigest()}"
        digest.update(_relative(path, root).encode() + b"\0" + raw + b"\0")
    for case in cases.values():
        for other in case.aggregate:
            if other not in cases:
                found.append(GateError(f"aggregate: unknown case '{other}'{did_you_mean(other, cases)}", where=case.path))
    if found:
        raise GateErrors(found) if every_problem else found[0]
    ordered = dict(sorted(cases.items()))
    return CaseSet(ordered, f"sha256:{digest.hexdigest()}", root, dict(sorted(file_digests.items())))
