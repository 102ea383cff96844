"""Reading a file a committed file names: gate.yaml, a case, the baseline, a skill, the tools, the
replay file. A pull request brings those names with it, so each one is checked before it is read:

- a reference stays inside its declared folder once symlinks are resolved (``../../secret`` or a
  link out of the repository would have its file sent to the agent's endpoint);
- only a regular file is read: a FIFO or a device (a committed link to /dev/zero) is refused
  before any byte is, and a directory or a dangling link is named as such;
- its size, from ``fstat`` of the opened file, is within a limit before its content is read, and
  the read stops once past the limit, so a file that grows meanwhile is held to it too.

The Actions event file and each record of a trajectory file are held to limits of their own here.
Each problem is a GateError naming the file, the reference and what was expected (exit 2); a file
or a record over its limit is the one :class:`TooLarge`.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from gate.errors import GateError
from gate.files import safejson

MiB = 1024 * 1024
TEXT_LIMIT = 16 * MiB
"""A YAML or text file (gate.yaml, a case file, a skill, the tools, a prompt, a reviews file)."""
SKILL_LIMIT = 1 * MiB
"""A skill's text, sent with every request of group B."""
DOCUMENT_LIMIT = 256 * MiB
"""A JSON document read whole (the baseline, shard results, an agent's program for its identity)."""
STREAM_LIMIT = 4096 * MiB
"""A JSONL recording read a record at a time (the replay file, `gate eval`'s trajectories)."""
RECORD_LIMIT = 32 * MiB
"""One record (line) of such a recording: an agent's answer is read up to gate.net.body.OUTPUT_CAP."""
EVENT_LIMIT = 25 * MiB
"""The Actions event file (``GITHUB_EVENT_PATH``): GitHub caps a webhook payload at 25 MB, so a
larger file is not one of its events."""

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _prefix(what: str, reference: str | None) -> str:
    """How a message names what is read: ``skill 'x.md': ``, ``the baseline: ``, or nothing."""
    if reference is not None:
        return f"{what} {reference!r}: "  # repr: a control character in it shows, not vanishes
    return "" if what == "file" else f"{what}: "


class TooLarge(GateError):
    """A file, or one record of it, over its limit: the message names what, and the limit in bytes,
    with the size when it is known (a read that stops just past the limit does not learn it)."""

    def __init__(self, named: str, limit: int, *, size: int | None = None, shown: str = "",
                 where: str | None = None) -> None:
        self.limit = limit
        if size is None:
            super().__init__(f"{named}more than the {limit:,} bytes allowed{shown}", where=where)
        else:
            super().__init__(f"{named}{size:,} bytes{shown}, more than the {limit:,} allowed", where=where)


def _shown(path: Path, where: str | None) -> str:
    """The file itself, when the place named is another (a case's line) or a link leads elsewhere."""
    real = path.resolve()
    if where not in (None, str(path)) or real != path.absolute():
        return f" ({real})"
    return ""


def inside(folder: Path, reference: str, *, what: str, within: Path | None = None, where: str | None = None) -> Path:
    """``reference`` (relative to ``folder``, or absolute) resolved, symlinks followed; a GateError
    unless it lies inside ``within`` (``folder`` unless given; resolved too). ``where``: the place
    that names it."""
    if "\0" in reference:  # no file has such a name; the system calls would raise ValueError
        raise GateError(f"{_prefix(what, reference)}a NUL character in a file name; expected a file name",
                        where=where or str(folder))
    base = (within or folder).resolve()
    target = (folder.resolve() / reference).resolve()
    if not target.is_relative_to(base):
        raise GateError(f"{_prefix(what, reference)}resolves to {target}, outside {base}; "
                        "expected a file inside that folder", where=where or str(folder / reference))
    return target


def _open(path: Path, what: str, reference: str | None, where: str | None) -> int:
    place = where or str(path)
    if "\0" in str(path):
        raise GateError(f"{_prefix(what, reference)}a NUL character in a file name; expected a file name", where=place)
    try:
        # Non-blocking: opening a FIFO would otherwise wait for a writer for ever.
        return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        kind = "a link to a missing file" if path.is_symlink() else "file not found"
        raise GateError(f"{_prefix(what, reference)}{kind}{_shown(path, where)}"
                        f"{'; expected a regular file' if path.is_symlink() else ''}", where=place) from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket
            raise GateError(f"{_prefix(what, reference)}a socket{_shown(path, where)}; expected a regular file",
                            where=place) from None
        raise GateError(f"{_prefix(what, reference)}cannot read: {exc.strerror}", where=place) from None


def _check(fd: int, path: Path, limit: int, what: str, reference: str | None, where: str | None) -> int:
    """The file's size, once it is known to be a regular file within ``limit`` bytes."""
    info = os.fstat(fd)
    place = where or str(path)
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "a special file")
        raise GateError(f"{_prefix(what, reference)}{kind}{_shown(path, where)}; expected a regular file",
                        where=place)
    if info.st_size > limit:
        raise TooLarge(_prefix(what, reference), limit, size=info.st_size, shown=_shown(path, where), where=place)
    return info.st_size


def read_bytes(path: Path, *, what: str = "file", limit: int = TEXT_LIMIT, reference: str | None = None,
               where: str | None = None) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes; else a GateError naming
    ``what`` (and the ``reference`` that named it) at ``where`` (``path`` unless given)."""
    fd = _open(path, what, reference, where)
    try:
        size = _check(fd, path, limit, what, reference, where)
        chunks: list[bytes] = []
        got = 0
        # the whole file in one read, plus one byte: one that grew since is read on, to the limit
        while chunk := os.read(fd, max(size + 1 - got, MiB)):
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:  # it grew since fstat
                raise TooLarge(_prefix(what, reference), limit, shown=_shown(path, where), where=where or str(path))
    except OSError as exc:
        raise GateError(f"{_prefix(what, reference)}cannot read: {exc.strerror}", where=where or str(path)) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def open_stream(path: Path, *, what: str = "file", limit: int = STREAM_LIMIT, reference: str | None = None,
                where: str | None = None) -> BinaryIO:
    """``path`` opened for reading in binary, once it is known to be a regular file within ``limit``."""
    fd = _open(path, what, reference, where)
    try:
        _check(fd, path, limit, what, reference, where)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_record(stream: BinaryIO, *, where: str, what: str = "trajectory record",
                limit: int = RECORD_LIMIT) -> bytes:
    """The next line of ``stream`` (b"" at its end); :class:`TooLarge` at ``where`` when it runs past
    ``limit`` bytes, read no further than that: a line without end could be the whole disk."""
    line = stream.readline(limit + 1)
    if len(line) > limit:
        raise TooLarge(_prefix(what, None), limit, where=where)
    return line


def read_event(path: str) -> Any:
    """The JSON of the Actions event file at ``path``: :class:`TooLarge` over EVENT_LIMIT (checked
    before a byte is read), another GateError when it cannot be read, a ValueError when it is not
    JSON."""
    return safejson.loads(read_bytes(Path(path), what="the event file (GITHUB_EVENT_PATH)", limit=EVENT_LIMIT))
