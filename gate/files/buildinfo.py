"""The build a cached result was made by, and whether a cache may be read here: what every cache of
derived results (validation stamps, kept verdicts, parsed case files) is keyed and guarded by."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

_LIBRARIES = ("markdown_it", "pydantic", "pydantic_core", "yaml")
"""What reading a case file and judging an answer depend on besides the gate's own modules."""


def _installed(library: str) -> str:
    """Where the library's package file is, its size and modification time: any install or upgrade
    rewrites it. Found without importing the library (a cached rerun never imports markdown-it) and
    without reading the installed distributions' metadata, which costs milliseconds a library."""
    spec = importlib.util.find_spec(library)
    if spec is None or spec.origin is None:
        return "-"
    try:
        stat = os.stat(spec.origin)
    except OSError:
        return "-"
    return f"{spec.origin} {stat.st_size} {stat.st_mtime_ns}"


@lru_cache(maxsize=1)
def build() -> str:
    """The gate's own modules and lexicon files (path, size and modification time of each), the
    installed files of the libraries it parses and judges with, and Python's version, as one digest:
    an edited checker, a phrase added to the lexicon or an upgraded parser is another build. Read
    once a process."""
    import gate

    package = Path(gate.__file__).parent
    hasher = hashlib.sha256(sys.version.encode())
    for library in _LIBRARIES:
        hasher.update(f"\n{library} {_installed(library)}".encode())
    for module in sorted([*package.rglob("*.py"), *package.glob("lexicon/*.yaml")]):
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
