"""JSON documents on disk by key, for the caches (answers, judge replies, kept verdicts, parsed case
files): written atomically without fsync — a cache is disposable, and an entry lost or truncated by
a crash reads as a miss — and read only from regular files of bounded size.

While agent calls are out (:func:`writing_behind`, which the runner enters for an adapter whose
calls cost something), every store's entries are written by one background thread: creating,
writing and renaming a file, on the event loop, held back the agent calls' answers (two entries
per call). Otherwise the caller writes its own: a thread doing file I/O beside a busy interpreter
slows it (each of its system calls takes the interpreter lock back), and a replay, which calls
nothing, took longer with it. An entry handed to the writer is read back from memory until it is
on disk, so a store never misses what was put into it; :func:`flush` waits for the writer, and the
interpreter waits for it at exit."""

from __future__ import annotations

import os
import stat
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.files import safejson
from gate.files.atomic import replace_text

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

MAX_ENTRY_BYTES = 10 * 1024 * 1024
"""An entry larger than an agent's answer may be (the adapters' output cap) is not read."""


def _read_regular(path: Path) -> bytes | None:
    """The bytes of a regular file of at most MAX_ENTRY_BYTES; None for anything else.

    Opened non-blocking and checked before reading: a FIFO or a device planted in the cache
    would otherwise block the event loop for ever."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        # As much as the file holds, plus one byte to see one that grew since: a read of the cap
        # allocated a buffer of the cap for every entry. Read from the descriptor: a file object
        # around it cost about as much again as the read of a small entry.
        chunks: list[bytes] = []
        size, want = 0, info.st_size + 1
        while chunk := os.read(fd, want - size):
            chunks.append(chunk)
            size += len(chunk)
            if size == want:
                if want > MAX_ENTRY_BYTES:
                    break
                want = MAX_ENTRY_BYTES + 1  # it grew since: read on, up to the cap
        return b"".join(chunks)
    finally:
        os.close(fd)


BACKLOG = 64
"""Entries the writer may be behind by; past it the caller writes its own (a slow disk costs time,
not memory)."""
_pending: dict[Path, str] = {}
"""Entries handed to the writer and not yet on disk, by path: what a reader in this process sees."""
_lock = threading.Lock()
_writer: ThreadPoolExecutor | None = None
_behind = False
"""Whether puts go to the writer thread now (inside :func:`writing_behind`)."""


def _writer_thread() -> ThreadPoolExecutor:
    global _writer
    with _lock:
        if _writer is None:
            from concurrent.futures import ThreadPoolExecutor  # only a run that calls an agent starts one

            _writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gate-cache-writer")
        return _writer


def flush() -> None:
    """Wait until every entry put so far is on disk (or was given up as unwritable)."""
    if _writer is not None:
        _writer.submit(lambda: None).result()  # one thread, in order: everything before it is done


@contextmanager
def writing_behind(enabled: bool = True) -> Iterator[None]:
    """Inside: every store's entries are written by the writer thread (when ``enabled``), and all are
    on disk when it ends."""
    global _behind
    before, _behind = _behind, enabled
    try:
        yield
    finally:
        _behind = before
        flush()


class JsonStore:
    """JSON documents by key under ``directory/<key[:2]>/<key>.json``, written atomically without
    fsync; anything unreadable reads as a miss and a failed write only warns (once)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._writable = True

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Any:
        """The stored document, or None when absent, unreadable, corrupt or not a regular file."""
        path = self._path(key)
        with _lock:
            pending = _pending.get(path)
        try:
            data = pending.encode("utf-8", "replace") if pending is not None else _read_regular(path)
            return safejson.loads(data) if data is not None else None
        except (OSError, ValueError):
            return None

    def put(self, key: str, text: str) -> None:
        """Store ``text`` (a JSON document) — by the writer thread inside :func:`writing_behind` while
        it is not too far behind, else now; a failed write is a warning, and the store stops writing."""
        if not self._writable:
            return
        path = self._path(key)
        with _lock:
            now = not _behind or len(_pending) >= BACKLOG
            if not now:
                _pending[path] = text
        if now:
            self._store(path, text)
        else:
            _writer_thread().submit(self._store, path, text)

    def _store(self, path: Path, text: str) -> None:
        try:
            if self._writable:
                self._write(path, text)
        except OSError as exc:
            self._writable = False
            print(f"gate: warning: cannot write to the cache at {self.directory} ({exc}); continuing without caching",
                  file=sys.stderr)
        finally:
            with _lock:
                if _pending.get(path) is text:
                    del _pending[path]

    def _write(self, target: Path, text: str) -> None:
        replace_text(target, text, durable=False)  # a lost entry is only a cache miss
