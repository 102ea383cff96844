"""Reading a file the gate did not write, bounded: its size is checked before a byte is read, and
the read stops just past the bound, so a file with no size to check (a FIFO, /dev/zero) is held
to it too. A 2 GB file is refused in microseconds instead of being read whole into memory."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from gate.files import safejson

MIB = 1024 * 1024


class TooLarge(ValueError):
    """The file is larger than the gate reads; the message says how large it may be."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"larger than {cap / MIB:g} MiB, the most the gate reads of it")
        self.cap = cap


def read_bounded(path: str | os.PathLike[str], cap: int) -> bytes:
    """The file's bytes; :class:`TooLarge` when there are more than ``cap``, an OSError when it
    cannot be read."""
    with Path(path).open("rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > cap:
            raise TooLarge(cap)
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise TooLarge(cap)
    return data


MAX_DOCUMENT_BYTES = 256 * MIB
"""A results.json or a baseline the gate reads: 6,000 cases' results are some tens of MB."""

MAX_RECORD_BYTES = 32 * MIB
"""One line of a trajectory file: an agent's answer is read up to 10 MB (gate.net.body.OUTPUT_CAP)."""

MAX_EVENT_BYTES = 25 * MIB
"""The Actions event file (``GITHUB_EVENT_PATH``): GitHub caps a webhook payload at 25 MB, so a
larger file is not one of its events."""


def read_event(path: str) -> Any:
    """The event's JSON; an OSError when it cannot be read, a ValueError (:class:`TooLarge` when
    over MAX_EVENT_BYTES, checked before reading) when it is not a bounded JSON document."""
    return safejson.loads(read_bounded(path, MAX_EVENT_BYTES))
