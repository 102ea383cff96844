"""Every HTTP client of the gate is built by gate.net.client: TLS, a custom CA, proxies, limits and
timeouts are decided in one place, so no client can be built without them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILDERS = {"Client", "AsyncClient", "HTTPTransport", "AsyncHTTPTransport"}


def client_builds(source: str) -> list[int]:
    """The lines of ``source`` that build an httpx client or transport: ``httpx.Client(…)``, or a
    name imported from httpx (``from httpx import Client as C``; ``C(…)``)."""
    tree = ast.parse(source)
    imported = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "httpx"
                for alias in node.names if alias.name in BUILDERS}
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr in BUILDERS and isinstance(func.value, ast.Name)
                and func.value.id == "httpx") or (isinstance(func, ast.Name) and func.id in imported):
            lines.append(node.lineno)
    return lines


def test_no_module_outside_gate_net_builds_its_own_httpx_client() -> None:
    found = {f"{path.relative_to(ROOT)}:{line}"
             for folder in ("gate", "benchmarks", "examples") for path in sorted((ROOT / folder).rglob("*.py"))
             if (ROOT / "gate" / "net") not in path.parents
             for line in client_builds(path.read_text(encoding="utf-8"))}
    assert not found, f"build the client with gate.net.client instead: {sorted(found)}"


def test_the_factory_itself_is_seen_by_the_scan() -> None:
    # the scan would pass vacuously if it could not see a client being built
    assert client_builds((ROOT / "gate" / "net" / "client.py").read_text(encoding="utf-8"))


def test_each_way_of_building_a_client_is_seen() -> None:
    assert client_builds("import httpx\nhttpx.Client(timeout=1)\n") == [2]
    assert client_builds("import httpx\nasync def f():\n    httpx.AsyncClient()\n") == [3]
    assert client_builds("import httpx\nhttpx.HTTPTransport(retries=1)\n") == [2]
    assert client_builds("from httpx import AsyncClient as Pool\nPool()\n") == [2]
    assert client_builds("import httpx\nhttpx.URL('http://x')\nhttpx.Timeout(3)\n") == []


def test_the_judge_imports_no_adapter_and_no_runner_error() -> None:
    # the judge's chat exchange is gate.net.chat's, shared with the openai adapter, not borrowed from it
    borrowed = {f"{path.name}: {node.module}" for path in sorted((ROOT / "gate" / "semantic").glob("*.py"))
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.ImportFrom) and node.module
                and node.module.startswith(("gate.runner.adapters", "gate.runner.base", "gate.runner.chat"))}
    assert not borrowed


def test_every_client_fails_with_the_one_error_type() -> None:
    from gate.github.api import ApiError, Unavailable
    from gate.net.errors import NetError
    from gate.runner import AgentError

    assert AgentError is NetError
    assert issubclass(ApiError, NetError) and issubclass(Unavailable, NetError)
    assert ApiError("GET /repos: 404 Not Found", 404).status == 404
