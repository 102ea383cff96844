"""One atomic writer: durable for reports, not for cache entries, leaving no temporary file behind."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from gate.files.atomic import replace_text, write_text
from gate.files.jsonstore import JsonStore, flush, writing_behind


def _fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(fd) or real(fd))
    return calls


def test_a_report_is_flushed_to_disk_and_a_cache_entry_is_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fsyncs(monkeypatch)
    write_text(tmp_path / "results.json", "{}\n")
    assert len(calls) == 1
    replace_text(tmp_path / "entry.json", "{}", durable=False)
    assert len(calls) == 1 and (tmp_path / "entry.json").read_text(encoding="utf-8") == "{}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["entry.json", "results.json"]


def test_a_failed_write_leaves_neither_a_temporary_file_nor_half_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "entry.json"
    target.write_text("old", encoding="utf-8")

    def refuse(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        replace_text(target, "new", durable=False)
    assert target.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["entry.json"]


def test_a_cache_entry_is_written_whole_without_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fsyncs(monkeypatch)
    store = JsonStore(tmp_path / "cache")
    store.put("k" * 64, '{"a": 1}')
    written = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert len(written) == 1 and written[0].read_text(encoding="utf-8") == '{"a": 1}' and not calls


def test_text_in_pieces_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    write_text(target, (piece for piece in ["{", "\n  \"a\": 1", "\n}\n"]))
    assert target.read_text(encoding="utf-8") == '{\n  "a": 1\n}\n'

    def failing() -> Iterator[str]:
        yield "{\n  \"half\": "
        raise ValueError("Out of range float values are not JSON compliant")

    with pytest.raises(ValueError, match="not JSON compliant"):
        write_text(target, failing())
    assert target.read_text(encoding="utf-8") == '{\n  "a": 1\n}\n'  # the old file, whole
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]  # no temporary file left


@pytest.fixture
def held_writer(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The cache writer thread waits for the event before each write (a caller's own writes go at once)."""
    release = threading.Event()
    real = JsonStore._write

    def held(self: JsonStore, target: Path, text: str) -> None:
        if threading.current_thread() is not threading.main_thread():
            assert release.wait(10)
        real(self, target, text)

    monkeypatch.setattr(JsonStore, "_write", held)
    yield release
    release.set()  # a failed test leaves no writer waiting
    flush()


def test_a_cache_entry_is_written_in_the_background_and_read_back_meanwhile(
        tmp_path: Path, held_writer: threading.Event) -> None:
    store = JsonStore(tmp_path / "cache")
    with writing_behind():
        store.put("k" * 64, '{"a": 1}')  # returns while the writer waits: the caller (the event loop) is not held
        assert not list((tmp_path / "cache").rglob("*.json"))
        assert store.get("k" * 64) == JsonStore(tmp_path / "cache").get("k" * 64) == {"a": 1}  # any store in the process
        held_writer.set()
    (entry,) = (tmp_path / "cache").rglob("*.json")
    assert entry.read_text(encoding="utf-8") == '{"a": 1}'
    assert JsonStore(tmp_path / "cache").get("k" * 64) == {"a": 1}


def test_a_writer_behind_by_its_backlog_leaves_the_caller_to_write_its_own(
        tmp_path: Path, held_writer: threading.Event, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.files import jsonstore

    monkeypatch.setattr(jsonstore, "BACKLOG", 1)
    store = JsonStore(tmp_path / "cache")
    with writing_behind():
        store.put("a" * 64, '{"n": 1}')  # the writer takes it, and waits
        store.put("b" * 64, '{"n": 2}')  # one behind already: written here and now
        assert [p.name[:1] for p in (tmp_path / "cache").rglob("*.json")] == ["b"]
        held_writer.set()
    assert sorted(p.name[:1] for p in (tmp_path / "cache").rglob("*.json")) == ["a", "b"]
    assert store.get("a" * 64) == {"n": 1} and store.get("b" * 64) == {"n": 2}


def test_a_store_kept_outside_agent_calls_is_written_by_its_caller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writers: list[str] = []
    real = JsonStore._write
    monkeypatch.setattr(JsonStore, "_write", lambda self, target, text: writers.append(threading.current_thread().name)
                        or real(self, target, text))
    JsonStore(tmp_path / "cases").put("c" * 64, "{}")  # loading cases: no loop to keep free
    with writing_behind(False):  # replaying: the calls cost nothing
        JsonStore(tmp_path / "replayed").put("r" * 64, "{}")
    with writing_behind():
        JsonStore(tmp_path / "answers").put("a" * 64, "{}")
    assert writers[:2] == [threading.main_thread().name] * 2 and writers[2] != writers[0]


def test_an_entry_that_grew_after_its_size_was_read_is_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = JsonStore(tmp_path)
    store.put("ab" * 32, '{"answer": "' + "长" * 500 + '"}')
    real = os.fstat

    def earlier(fd: int) -> os.stat_result:  # the size before a writer appended to the file
        info = real(fd)
        return os.stat_result((info.st_mode, *tuple(info)[1:6], 10, *tuple(info)[7:]))

    monkeypatch.setattr(os, "fstat", earlier)
    assert store.get("ab" * 32) == {"answer": "长" * 500}
    monkeypatch.setattr("gate.files.jsonstore.MAX_ENTRY_BYTES", 100)
    assert store.get("ab" * 32) is None  # grown past the cap: not read
