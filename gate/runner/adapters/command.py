"""The command adapter: one subprocess per call, the request on stdin, one trajectory on stdout."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections import deque
from pathlib import Path
from typing import Any

from gate.net.body import OUTPUT_CAP, human_size, parse_json_object
from gate.runner.base import AgentError

STDERR_TAIL = 2000
"""Characters of the agent's stderr quoted in an error message."""
LEFTOVER_GRACE_S = 1.0
"""After the agent exits, how long its pipes may stay open (a tool it left running holds them)."""
_HELD = "; a process the agent left behind kept its stdout open after the agent exited"

_POSIX = os.name == "posix"
_REAP_S = 5.0


class _Overflow(Exception):
    pass


class _Tail:
    """Keeps the last bytes of a stream, for error messages."""

    def __init__(self, limit: int) -> None:
        self._chunks: deque[bytes] = deque()
        self._size = 0
        self._limit = limit

    def add(self, chunk: bytes) -> None:
        self._chunks.append(chunk)
        self._size += len(chunk)
        while self._size - len(self._chunks[0]) >= self._limit:
            self._size -= len(self._chunks.popleft())

    def text(self) -> str:
        data = b"".join(self._chunks)[-self._limit :]
        return data.decode("utf-8", "replace").strip()


class CommandAdapter:
    """Runs ``command`` (cwd = the config's directory) once per request."""

    name = "command"
    handles_retries = False
    cacheable = True

    def __init__(self, command: tuple[str, ...], argv: list[str], root: Path, timeout_s: float,
                 output_cap: int = OUTPUT_CAP) -> None:
        """``argv``: the command resolved (gate.config.agent_inputs.resolve_argv)."""
        self._command = command
        self._argv = argv
        self._root = root
        self._timeout = timeout_s
        self._cap = output_cap

    def fingerprint(self, request: dict[str, Any]) -> Any:
        return list(self._command)

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(request, ensure_ascii=False).encode("utf-8")
        proc = await asyncio.create_subprocess_exec(
            *self._argv, cwd=self._root,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=_POSIX,  # its own process group: a stop reaches the tools it started too
        )
        stderr = _Tail(STDERR_TAIL)
        try:
            out, held = await asyncio.wait_for(self._exchange(proc, data, stderr), self._timeout)
        except asyncio.TimeoutError:
            raise AgentError(f"timed out after {self._timeout:g} s{_quote(stderr)}", retryable=True) from None
        except _Overflow:
            raise AgentError(
                f"stdout exceeded the {human_size(self._cap)} cap; the agent was stopped{_quote(stderr)}"
            ) from None
        finally:
            # whatever happened, end the agent's process group: the agent itself if it still runs
            # (timed out, overflowed or cancelled), and any tool it left running in the background
            _kill(proc)
            await _reap(proc)
        code = proc.returncode
        assert code is not None  # the process was awaited
        if code != 0:
            how = f"was killed by signal {_signal_name(-code)}" if code < 0 else f"exited with status {code}"
            raise AgentError(f"the agent {how}{_quote(stderr)}")
        try:
            return parse_json_object(out, "the agent's stdout")
        except AgentError as exc:
            raise AgentError(f"{exc} (stdout must hold exactly one JSON object; log to stderr)"
                             f"{_HELD if held else ''}{_quote(stderr)}") from None

    async def _exchange(self, proc: asyncio.subprocess.Process, data: bytes, stderr: _Tail) -> tuple[bytes, bool]:
        """The agent's stdout, and whether a leftover process held it open after the agent exited."""
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        out = _Capped(self._cap)
        feed = asyncio.ensure_future(_feed(proc.stdin, data))
        read = asyncio.ensure_future(out.fill(proc.stdout))
        drain = asyncio.ensure_future(_drain(proc.stderr, stderr))
        waiter = asyncio.ensure_future(_exited(proc))
        tasks: tuple[asyncio.Future[Any], ...] = (feed, read, drain, waiter)
        try:
            done, _ = await asyncio.wait({read, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if read in done:
                read.result()  # the stdout cap, if it was passed
            await waiter
            # The agent has exited. A process it left behind may still hold its stdout or stderr
            # open; give the pipes a moment to close, then end the group and keep what was written.
            _, held = await asyncio.wait({feed, read, drain}, timeout=LEFTOVER_GRACE_S)
            if held:
                _kill(proc)
                _kill_pipe_holders(proc)  # a daemon that left the group still holds them
                for task in held:
                    task.cancel()
                await asyncio.gather(*held, return_exceptions=True)
                out.held = read in held
            if not read.cancelled():
                read.result()
        except BaseException:
            for future in tasks:  # a failure or a timeout leaves the others running: stop them
                future.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        return out.data(), out.held

    async def aclose(self) -> None:
        return None


async def _feed(stdin: asyncio.StreamWriter, data: bytes) -> None:
    try:
        stdin.write(data)
        await stdin.drain()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the agent exited without reading its request; its exit status tells why
    finally:
        stdin.close()


async def _exited(proc: asyncio.subprocess.Process) -> None:
    """Until the agent itself has exited. ``proc.wait()`` alone is not enough: before Python 3.12
    it also waits for every pipe to close, which a process the agent left behind may never do, so
    the exit status is polled beside it (no delay when the pipes close as usual)."""
    wait = asyncio.ensure_future(proc.wait())
    delay = 0.005
    try:
        while proc.returncode is None and not wait.done():
            await asyncio.wait({wait}, timeout=delay)
            delay = min(delay * 2, 0.1)
    finally:
        wait.cancel()


class _Capped:
    """The agent's stdout as read so far, within the cap (kept when a leftover process holds it)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.chunks: list[bytes] = []
        self.size = 0
        self.held = False
        """A process the agent left behind kept stdout open after the agent exited."""

    async def fill(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(65536):
            self.size += len(chunk)
            if self.size > self.cap:
                raise _Overflow
            self.chunks.append(chunk)

    def data(self) -> bytes:
        return b"".join(self.chunks)


async def _drain(stream: asyncio.StreamReader, tail: _Tail) -> None:
    while chunk := await stream.read(65536):
        tail.add(chunk)


def _kill(proc: asyncio.subprocess.Process) -> None:
    try:
        if _POSIX:
            os.killpg(proc.pid, signal.SIGKILL)  # the group outlives its leader while members remain
        elif proc.returncode is None:  # pragma: no cover - Windows
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already (PermissionError: macOS, when only zombies remain)


def _pipe_inodes(proc: asyncio.subprocess.Process) -> set[int]:
    """The inodes of the agent's stdout and stderr pipes (asyncio keeps the transport private)."""
    transport = getattr(proc, "_transport", None)
    inodes = set()
    for fd in (1, 2):
        pipe = transport.get_pipe_transport(fd) if transport is not None else None
        handle: Any = pipe.get_extra_info("pipe") if pipe is not None else None
        with contextlib.suppress(OSError, ValueError, AttributeError):
            inodes.add(os.fstat(handle.fileno()).st_ino)
    return inodes


def _kill_pipe_holders(proc: asyncio.subprocess.Process) -> None:
    """End the processes outside the agent's group that hold its pipes open (Linux: read from
    /proc). Only processes of this user can be signalled, and the gate itself is never one."""
    inodes = _pipe_inodes(proc)
    proc_dir = Path("/proc")
    if not inodes or not (proc_dir / "self" / "fd").is_dir():
        return
    wanted = {f"pipe:[{inode}]" for inode in inodes}
    for entry in proc_dir.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if any(os.readlink(fd) in wanted for fd in (entry / "fd").iterdir()):
                os.kill(int(entry.name), signal.SIGKILL)


async def _discard(stream: asyncio.StreamReader | None) -> None:
    if stream is not None:
        while await stream.read(65536):
            pass


async def _reap(proc: asyncio.subprocess.Process) -> None:
    # wait() returns only once the pipes are closed too, so read what is left in them; a process
    # that escaped its group and holds a pipe open is given up on after a while. Either way the
    # transport is closed here, inside the event loop: left to the garbage collector it would
    # print "Exception ignored … Event loop is closed" after the run.
    try:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(_discard(proc.stdout), _discard(proc.stderr), proc.wait()),
                                   _REAP_S)
    finally:
        transport = getattr(proc, "_transport", None)  # asyncio keeps no public handle on it
        if transport is not None:
            transport.close()


def _quote(stderr: _Tail) -> str:
    text = stderr.text()
    return f"; stderr: {text}" if text else "; stderr was empty"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
