"""A test-supplied handler answering HTTP: behind a real server on 127.0.0.1 in a thread (``serve``), or
through httpx.MockTransport with no socket at all (``mocked``) where a test needs no real connection."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, BinaryIO

import httpx


@dataclass
class Seen:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    drip_s: float | None = None
    """Send the body one byte per this many seconds (until the server shuts down)."""


Handler = Callable[[Seen, int], Reply]
"""(request, 0-based index of the request) → reply."""


class Server:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.seen: list[Seen] = []
        self.lock = threading.Lock()
        self.release = threading.Event()  # slow handlers wait on it; set at shutdown
        self.url = ""


def _drip(out: BinaryIO, data: bytes, every_s: float, stop: threading.Event) -> None:
    for byte in data:
        if stop.wait(every_s):
            return
        out.write(bytes([byte]))
        out.flush()


@contextmanager
def serve(handler: Handler, port: int = 0) -> Iterator[Server]:
    """Run ``handler`` behind a loopback HTTP server for the duration of the block (on ``port``,
    or any free one)."""
    state = Server(handler)

    class _Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(raw or b"null"))
            with state.lock:
                index = len(state.seen)
                state.seen.append(seen)
            reply = state.handler(seen, index)
            data = reply.raw if reply.raw is not None else json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if reply.drip_s is None:
                    self.wfile.write(data)
                else:
                    _drip(self.wfile, data, reply.drip_s, state.release)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
    server.daemon_threads = True
    server.block_on_close = False  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join()


class Mocked:
    """``handler`` behind an httpx.MockTransport: the adapter's own client, no socket, no thread.
    ``transport`` goes to run_jobs; ``seen`` and ``url`` read as a Server's do."""

    url = "http://agent.test"

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.seen: list[Seen] = []

    @property
    def transport(self) -> httpx.MockTransport:
        def reply(request: httpx.Request) -> httpx.Response:
            seen = Seen(request.url.path, {k.lower(): v for k, v in request.headers.items()},
                        json.loads(request.content or b"null"))
            self.seen.append(seen)
            answer = self.handler(seen, len(self.seen) - 1)
            assert answer.drip_s is None, "a reply that drips needs the real server (serve)"
            data = answer.raw if answer.raw is not None else json.dumps(answer.body).encode()
            return httpx.Response(answer.status, headers={"Content-Type": "application/json", **answer.headers},
                                  content=data)

        return httpx.MockTransport(reply)


@contextmanager
def mocked(handler: Handler) -> Iterator[Mocked]:
    """``serve``'s face over a MockTransport."""
    yield Mocked(handler)
