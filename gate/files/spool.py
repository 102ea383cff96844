"""Texts kept on disk, not in memory, until a long run writes its reports."""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TYPE_CHECKING, BinaryIO

from gate.errors import GateError

if TYPE_CHECKING:
    from typing_extensions import Self


Held = tuple[int, int] | str
"""A text a :class:`TextSpool` holds: its place (offset, length) in the file, or the text itself."""


class TextSpool:
    """Texts kept in a temporary file rather than in memory, each read back by its place: what a
    long run would otherwise hold whole until it writes its reports. The file has no name and is
    gone once closed, or with the process. Where no temporary file can be made or written (a full
    disk), :meth:`store` says so and the caller keeps its texts in memory from then on, with one
    warning: nothing is lost."""

    def __init__(self, holds: str) -> None:
        import tempfile  # only a run that spools needs it

        self._holds = holds  # what its messages call the texts it keeps
        self._end = 0
        self._file: BinaryIO | None = None
        self._writing = hasattr(os, "pwrite")  # POSIX; elsewhere the texts stay in memory
        if not self._writing:
            return
        try:
            self._file = tempfile.TemporaryFile(buffering=0)  # noqa: SIM115 -- open until close() or the with-block
        except OSError as exc:
            self._give_up(exc)

    def store(self, text: str) -> tuple[int, int] | None:
        """Write ``text``; its place (offset, length) for :meth:`read`, or None when the spool takes
        nothing more (the caller keeps the text)."""
        if self._file is None or not self._writing:
            return None
        data = text.encode("utf-8")
        try:
            written = 0
            while written < len(data):  # positioned writes: no shared file position, no buffer to flush later
                written += os.pwrite(self._file.fileno(), data[written:], self._end + written)
        except OSError as exc:
            self._give_up(exc)
            return None
        place = (self._end, len(data))
        self._end += len(data)
        return place

    def hold(self, text: str) -> Held:
        """``text`` kept: its place in the file, or the text itself once the spool takes nothing more."""
        return self.store(text) or text

    def text(self, held: Held) -> str:
        """What :meth:`hold` was given."""
        return held if isinstance(held, str) else self.read(*held)

    def read(self, offset: int, length: int) -> str:
        if self._file is None:
            raise GateError(f"spool: {self._holds} are gone (read after the spool was closed)")
        parts, done = [], 0
        try:
            while done < length:
                part = os.pread(self._file.fileno(), length - done, offset + done)
                if not part:
                    break
                parts.append(part)
                done += len(part)
        except OSError as exc:
            raise GateError(f"{self._place()}: cannot read back {self._holds}: {exc.strerror}") from None
        if done < length:
            raise GateError(f"{self._place()}: {self._holds}, kept on disk, were cut short")
        return b"".join(parts).decode("utf-8")

    def _place(self) -> str:
        import tempfile

        return f"a temporary file in {tempfile.gettempdir()}"

    def _give_up(self, error: OSError) -> None:
        """Keep what follows in memory; what was written stays readable."""
        print(f"gate: warning: cannot keep {self._holds} in {self._place()} ({error.strerror or error}); "
              "keeping them in memory", file=sys.stderr)
        self._writing = False

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
