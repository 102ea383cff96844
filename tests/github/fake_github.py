"""A small GitHub REST server on 127.0.0.1 speaking the issue-comments API, with scripted faults."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

PREFIX = "/api/v3"  # a GitHub Enterprise Server style API root
REPO = "octo/agent"
TOKEN = "ghs_s3cr3tT0kenValue123"


@dataclass
class Fault:
    """Answer the next matching request with ``status`` instead of serving it (``times`` times)."""

    method: str
    path: str  # regex searched in the request path
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=lambda: {"message": "Server Error"})
    times: int = 1
    apply_first: bool = False  # serve the request, then answer with the fault anyway
    raw: bytes | None = None  # send these bytes as the body instead of ``body`` as JSON


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    authorization: str | None
    accept: str | None
    api_version: str | None
    body: Any


class FakeGitHub:
    """State of the fake: comments of one pull request, pull request heads, faults, a request log."""

    def __init__(self) -> None:
        self.comments: list[dict[str, Any]] = []
        self.heads: dict[int, str] = {}
        self.faults: list[Fault] = []
        self.requests: list[Request] = []
        self.read_only = False
        self.link_host: str | None = None  # override the host of next-page links
        self._next_id = 1000
        self.lock = threading.Lock()
        self.url = ""

    @property
    def api_url(self) -> str:
        return self.url + PREFIX

    def add_comment(self, body: str, login: str = "github-actions[bot]", issue: int = 7) -> int:
        with self.lock:
            self._next_id += 1
            self.comments.append({
                "id": self._next_id, "issue": issue, "body": body, "user": {"login": login},
                "html_url": f"https://github.example/{REPO}/pull/7#issuecomment-{self._next_id}",
            })
            return self._next_id

    def calls(self, method: str | None = None) -> list[Request]:
        return [r for r in self.requests if method is None or r.method == method]


def _handler(state: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, data: Any, headers: dict[str, str] | None = None,
                  raw: bytes | None = None) -> None:
            raw = json.dumps(data).encode() if raw is None else raw
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(raw)

        def _handle(self, method: str) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            request = Request(method, parts.path, parse_qs(parts.query), self.headers.get("Authorization"),
                              self.headers.get("Accept"), self.headers.get("X-GitHub-Api-Version"), body)
            with state.lock:
                state.requests.append(request)
                fault = next((f for f in state.faults
                              if f.method == method and re.search(f.path, parts.path) and f.times > 0), None)
                if fault is not None:
                    fault.times -= 1
            if fault is not None and not fault.apply_first:
                self._send(fault.status, fault.body, fault.headers, fault.raw)
                return
            if request.authorization != f"Bearer {TOKEN}":
                self._send(401, {"message": "Bad credentials"})
                return
            status, data, headers = self._route(method, parts.path, request)
            if fault is not None:
                self._send(fault.status, fault.body, fault.headers, fault.raw)
                return
            self._send(status, data, headers)

        def _route(self, method: str, path: str, request: Request) -> tuple[int, Any, dict[str, str]]:
            base = f"{PREFIX}/repos/{REPO}"
            listing = re.fullmatch(rf"{re.escape(base)}/issues/(\d+)/comments", path)
            single = re.fullmatch(rf"{re.escape(base)}/issues/comments/(\d+)", path)
            pull = re.fullmatch(rf"{re.escape(base)}/pulls/(\d+)", path)
            if method in ("POST", "PATCH") and state.read_only:
                return 403, {"message": "Resource not accessible by integration"}, {}
            if listing and method == "GET":
                per_page = min(int(request.query.get("per_page", ["30"])[0]), 100)
                page = int(request.query.get("page", ["1"])[0])
                with state.lock:
                    on_issue = [c for c in state.comments if c["issue"] == int(listing.group(1))]
                chunk = on_issue[(page - 1) * per_page: page * per_page]
                more = len(on_issue) > page * per_page
                headers = {}
                if more:
                    host = state.link_host or self.headers.get("Host")
                    headers["Link"] = (f'<http://{host}{path}?per_page={per_page}&page={page + 1}>; rel="next", '
                                       f'<http://{host}{path}?per_page={per_page}&page=99>; rel="last"')
                return 200, chunk, headers
            if listing and method == "POST":
                new_id = state.add_comment(request.body["body"], issue=int(listing.group(1)))
                return 201, next(c for c in state.comments if c["id"] == new_id), {}
            if single and method == "PATCH":
                with state.lock:
                    for comment in state.comments:
                        if comment["id"] == int(single.group(1)):
                            comment["body"] = request.body["body"]
                            return 200, comment, {}
                return 404, {"message": "Not Found"}, {}
            if pull and method == "GET":
                number = int(pull.group(1))
                if number not in state.heads:
                    return 404, {"message": "Not Found"}, {}
                return 200, {"number": number, "head": {"sha": state.heads[number]}}, {}
            return 404, {"message": "Not Found"}, {}

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

        def do_PATCH(self) -> None:
            self._handle("PATCH")

    return Handler


@contextmanager
def serve() -> Iterator[FakeGitHub]:
    """Run a fake on an ephemeral loopback port for the duration of the block."""
    state = FakeGitHub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
