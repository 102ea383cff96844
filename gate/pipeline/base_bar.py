"""The base commit's bar, read from git: its gate.yaml and the case files it selects.

Read with ``git ls-tree`` and one ``git cat-file --batch`` into a scratch directory, then loaded by
the same loaders as the working tree's, so the two bars are compared model to model
(:mod:`gate.policy.bar`). Whatever cannot be read (no git, a shallow checkout, no gate.yaml at the
base yet, a base file this gate cannot load) is said, never guessed.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from gate.case import Case
from gate.config.gate_yaml import GateConfig, load_config
from gate.errors import GateError

GIT_TIMEOUT_S = 30
MAX_BYTES = 64 * 1024 * 1024
"""What the base's gate.yaml and case files may hold together: a bar, not a data set."""


class Unreadable(Exception):
    """The base's bar could not be read; the message says why."""


@dataclass(frozen=True)
class BaseBar:
    config: GateConfig
    cases: list[Case]
    """The runnable cases the base's gate.yaml selects."""


def _git(args: list[str], cwd: Path, given: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, input=given, capture_output=True, timeout=GIT_TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Unreadable(f"git could not run ({exc})") from None
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise Unreadable(lines[-1] if lines else f"git {args[0]} exited {done.returncode}")
    return done.stdout


def _blobs(cwd: Path, ref: str, paths: list[str]) -> dict[str, bytes]:
    """The files at ``ref`` (paths relative to ``cwd``), through one ``git cat-file --batch``."""
    out = _git(["cat-file", "--batch"], cwd, "".join(f"{ref}:./{p}\n" for p in paths).encode())
    found, at = {}, 0
    for path in paths:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if len(header) != 3 or header[1] != b"blob":
            at = end + 1
            continue
        size = int(header[2])
        found[path] = out[end + 1:end + 1 + size]
        at = end + 1 + size + 1
    return found


def file_at(path: Path, ref: str) -> bytes | None:
    """The bytes ``path`` has at commit ``ref``; None when it does not exist there. Unreadable when
    ``ref`` is no commit of this checkout or git cannot run."""
    if ref.startswith("-"):
        raise Unreadable(f"'{ref}' is not a git revision")
    cwd = path.resolve().parent
    try:
        _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], cwd)
    except Unreadable:
        raise Unreadable(f"no commit {ref[:12]} in this checkout: a shallow clone, or another repository") from None
    return _blobs(cwd, ref, [path.name]).get(path.name)


def read(config_file: Path, ref: str) -> BaseBar | None:
    """The bar at ``ref``; None when the base has no such gate.yaml yet (nothing to lower)."""
    text = file_at(config_file, ref)
    if text is None:
        return None
    cwd = config_file.resolve().parent
    name = config_file.name
    with tempfile.TemporaryDirectory(prefix="gate-base-") as scratch:
        root = Path(scratch)
        (root / name).write_bytes(text)
        try:
            config = load_config(root / name)
        except GateError as exc:
            raise Unreadable(f"its {name} does not load here ({exc})") from None
        cases_dir = PurePosixPath(config.cases.path)
        if cases_dir.is_absolute() or ".." in cases_dir.parts:
            raise Unreadable(f"its cases.path ({config.cases.path}) is outside {name}'s folder")
        listed = [p for p in _git(["ls-tree", "-r", "-z", "--name-only", ref, "--", str(cases_dir)], cwd).decode(
            "utf-8", "replace").split("\0") if p.endswith((".yaml", ".yml"))]
        files = _blobs(cwd, ref, listed)
        if sum(len(b) for b in files.values()) > MAX_BYTES:
            raise Unreadable(f"its case files exceed {MAX_BYTES // 2**20} MiB")
        for path, data in files.items():
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        from gate.cases.loader import load_cases
        from gate.pipeline.stages import select_cases

        try:
            case_set = load_cases(config.resolve(config.cases.path), config.suites)
            selected = select_cases(config, case_set, None)
        except GateError as exc:
            raise Unreadable(f"its cases do not load here ({exc})") from None
    return BaseBar(config=config, cases=[c for c in selected if c.runnable and any(g in c.groups for g in config.groups)])
