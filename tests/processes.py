"""Processes a test starts and must not leave behind: ended, their pipes closed, on every way out."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


@contextmanager
def started(argv: Sequence[str], **options: Any) -> Iterator[subprocess.Popen[str]]:
    """``subprocess.Popen(argv, **options)`` (text mode) for the block; killed if it still runs when
    the block ends (a failed assertion, a timeout), then reaped with its pipes closed. A pipe left
    open is a ResourceWarning that fails some later test of the same worker under
    ``filterwarnings = error``, far from its cause."""
    proc = subprocess.Popen(argv, text=True, **options)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        with proc:  # closes stdin, stdout and stderr, then waits
            pass
