"""The terminal as a sink like any report: what a command writes to stdout or stderr passes
gate/redaction/secrets.py first, whichever module wrote it (click.echo, print, the progress line)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO, cast

from gate.redaction.secrets import public


class RedactedStream:
    """A text stream whose writes are redacted on their way to ``stream``; everything else is
    ``stream``'s own. It has no binary ``buffer``, so nothing can write around it."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        """Write ``text`` redacted; returns its length as given (as a caller counting characters expects)."""
        self.wrapped.write(public(text) if isinstance(text, str) else text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Each line, redacted."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self.wrapped, name)


@contextlib.contextmanager
def redacted_streams() -> Iterator[None]:
    """sys.stdout and sys.stderr redacted for the block, then as they were."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = (cast(TextIO, RedactedStream(stream)) if not isinstance(stream, RedactedStream)
                              else stream for stream in saved)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
