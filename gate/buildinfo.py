"""The build a cached result was made by, and whether a cache may be read here: what every cache of
derived results (validation stamps, kept verdicts, parsed case files) is keyed and guarded by."""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Mapping
from functools import lru_cache
from importlib import metadata
from pathlib import Path

_LIBRARIES = ("agent-gate", "markdown-it-py", "pydantic", "pydantic-core", "PyYAML")
"""What reading a case file and judging an answer depend on besides the gate's own modules."""


@lru_cache(maxsize=1)
def build() -> str:
    """The gate's own modules (path, size and modification time of each), the versions of the
    libraries it parses and judges with, and Python's, as one digest: an edited checker or an
    upgraded parser is another build. Read once a process."""
    import gate

    package = Path(gate.__file__).parent
    hasher = hashlib.sha256(sys.version.encode())
    for library in _LIBRARIES:
        try:
            hasher.update(f"\n{library} {metadata.version(library)}".encode())
        except metadata.PackageNotFoundError:
            hasher.update(f"\n{library} -".encode())
    for module in sorted(package.rglob("*.py")):
        stat = module.stat()
        hasher.update(f"\n{module.relative_to(package).as_posix()} {stat.st_size} {stat.st_mtime_ns}".encode())
    return hasher.hexdigest()


def trusted(env: Mapping[str, str]) -> bool:
    """Caches of derived results are read on a developer's machine, not in CI (``CI`` set, as every
    CI service sets it), where a pull request could commit one or a restored cache could carry one."""
    return not env.get("CI")


def readable(directory: Path | None, env: Mapping[str, str] | None = None) -> Path | None:
    """``directory`` when a cache of derived results may live there: one is given and this is not CI
    (``env``: the process environment unless given)."""
    return directory if directory is not None and trusted(os.environ if env is None else env) else None
