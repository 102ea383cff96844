from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gate.config.gate_yaml import load_config
from gate.errors import GateError
from gate.net.body import ERROR_BODY_LIMIT
from gate.net.client import new_client
from gate.net.post import post_json
from gate.runner import AgentError, RunnerSettings, run_jobs
from gate.trajectory import UNREACHABLE
from tests.tlscontext import trusts_nothing

from .conftest import Sleeps, agent, jobs_of
from .loopback import Reply, Seen, mocked, serve


def _answer(seen: Seen) -> dict[str, object]:
    return {"case_id": seen.body["case_id"], "group": seen.body["group"], "run": seen.body["run"],
            "final_answer": f"answer of {seen.body['case_id']}"}


def test_posts_the_request_and_reads_the_trajectory(tmp_path: Path) -> None:
    with mocked(lambda seen, i: Reply(body=_answer(seen))) as server:
        outcome = run_jobs(jobs_of("c1", "c2"), agent(adapter="http", url=server.url + "/run"), root=tmp_path,
                           settings=RunnerSettings(progress=False, transport=server.transport))
    assert [t.final_answer for t in outcome.trajectories] == ["answer of c1", "answer of c2"]
    assert sorted(s.body["case_id"] for s in server.seen) == ["c1", "c2"]
    assert {s.path for s in server.seen} == {"/run"}
    assert server.seen[0].body["messages"][0]["role"] == "user"


def test_a_real_socket_carries_the_same_exchange(tmp_path: Path) -> None:
    with serve(lambda seen, i: Reply(body=_answer(seen))) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url + "/run"), root=tmp_path,
                           settings=RunnerSettings(progress=False))
    assert [t.final_answer for t in outcome.trajectories] == ["answer of c1"]
    assert [s.path for s in server.seen] == ["/run"]


def test_429_then_200_honours_retry_after(tmp_path: Path, sleeps: Sleeps) -> None:
    def handler(seen: Seen, index: int) -> Reply:
        if index == 0:
            return Reply(429, {"error": "slow down"}, headers={"Retry-After": "7"})
        return Reply(body=_answer(seen))

    with mocked(handler) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, retries=3), root=tmp_path,
                           settings=RunnerSettings(progress=False, sleep=sleeps, transport=server.transport))
    (record,) = outcome.trajectories
    assert record.error is None and record.final_answer == "answer of c1"
    assert sleeps.delays == [7.0]
    assert record.metadata["attempts"] == 2
    assert outcome.calls == 1 and outcome.retries == 1 and len(server.seen) == 2


def test_5xx_exhaustion_is_an_error_trajectory_after_backoff(tmp_path: Path, sleeps: Sleeps) -> None:
    with mocked(lambda seen, i: Reply(503, {"error": "overloaded"})) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, retries=2), root=tmp_path,
                           settings=RunnerSettings(progress=False, backoff_base_s=0.25, sleep=sleeps,
                                                   transport=server.transport))
    (record,) = outcome.trajectories
    assert record.error == f'HTTP 503 from {server.url}: {{"error": "overloaded"}} (after 3 attempts)'
    assert len(server.seen) == 3
    # full jitter: each wait is within [0, base · 2^(n-1)]
    assert len(sleeps.delays) == 2
    assert 0 <= sleeps.delays[0] <= 0.25 and 0 <= sleeps.delays[1] <= 0.5


def test_other_4xx_is_never_retried(tmp_path: Path, sleeps: Sleeps) -> None:
    with mocked(lambda seen, i: Reply(422, {"detail": "bad request"})) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, retries=3), root=tmp_path,
                           settings=RunnerSettings(progress=False, sleep=sleeps, transport=server.transport))
    assert outcome.trajectories[0].error == f'HTTP 422 from {server.url}: {{"detail": "bad request"}}'
    assert len(server.seen) == 1 and sleeps.delays == []


def test_an_error_body_is_kept_whole_and_only_a_runaway_one_is_cut(tmp_path: Path) -> None:
    reason = {"detail": [{"loc": ["body", "messages", i, "content"], "msg": f"problem {i}"} for i in range(20)]}
    runaway = "y" * (ERROR_BODY_LIMIT + 500)

    def handler(seen: Seen, index: int) -> Reply:
        return Reply(422, reason) if seen.body["case_id"] == "c1" else Reply(400, raw=runaway.encode())

    with mocked(handler) as server:
        whole, cut = run_jobs(jobs_of("c1", "c2"), agent(adapter="http", url=server.url), root=tmp_path,
                              settings=RunnerSettings(progress=False, transport=server.transport)).trajectories
    assert whole.error == f"HTTP 422 from {server.url}: {json.dumps(reason)}"  # the last problem too, past 200 characters
    assert cut.error == f"HTTP 400 from {server.url}: {runaway[:ERROR_BODY_LIMIT]}…"


def test_connection_refused_is_retried_then_recorded(tmp_path: Path, sleeps: Sleeps) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=f"http://127.0.0.1:{port}/", retries=1),
                       root=tmp_path, settings=RunnerSettings(progress=False, sleep=sleeps))
    error = outcome.trajectories[0].error
    assert error is not None
    assert error.startswith(f"connection failed to http://127.0.0.1:{port}/: ")
    assert error.endswith("(after 2 attempts)") and len(sleeps.delays) == 1


def test_timeout_is_an_error_trajectory(tmp_path: Path) -> None:
    def handler(seen: Seen, index: int) -> Reply:
        server.release.wait(10)
        return Reply(body=_answer(seen))

    with serve(handler) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, timeout_s=0.3, retries=0),
                           root=tmp_path, settings=RunnerSettings(progress=False))
    assert outcome.trajectories[0].error == f"timed out after 0.3 s at {server.url}"


def test_a_server_that_keeps_dripping_times_out_as_a_whole(tmp_path: Path) -> None:
    # a byte every 0.1 s never trips a per-read timeout of 0.5 s; the whole answer would take 10 s
    body = b'{"final_answer": "' + b"x" * 100 + b'"}'
    with serve(lambda seen, i: Reply(raw=body, drip_s=0.1)) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, timeout_s=0.5, retries=0),
                           root=tmp_path, settings=RunnerSettings(progress=False))
    assert outcome.trajectories[0].error == f"timed out after 0.5 s at {server.url}"


def test_garbage_body_is_an_agent_error(tmp_path: Path) -> None:
    with mocked(lambda seen, i: Reply(raw=b"<html>oops</html>")) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url), root=tmp_path,
                           settings=RunnerSettings(progress=False, transport=server.transport))
    assert outcome.trajectories[0].error == (
        "the HTTP 200 response body is not valid JSON (Expecting value at line 1 column 1): <html>oops</html>")


def test_a_body_that_cannot_be_decoded_is_a_final_agent_error(tmp_path: Path, sleeps: Sleeps) -> None:
    with mocked(lambda seen, i: Reply(raw=b"not gzip at all", headers={"Content-Encoding": "gzip"})) as server:
        outcome = run_jobs(jobs_of("c1", "c2"), agent(adapter="http", url=server.url, retries=2), root=tmp_path,
                           settings=RunnerSettings(progress=False, sleep=sleeps, transport=server.transport))
    assert [t.error for t in outcome.trajectories] == [
        f"the response body from {server.url} could not be decoded: Error -3 while decompressing data: "
        "incorrect header check"] * 2
    assert len(server.seen) == 2 and sleeps.delays == []  # one attempt per job: not retried


def _raise(error: Exception) -> Callable[[httpx.Request], httpx.Response]:
    def handler(request: httpx.Request) -> httpx.Response:
        raise error

    return handler


@pytest.mark.parametrize(("error", "message", "retryable"), [
    (httpx.InvalidURL("Invalid port: ':1'"), "the request to http://h/run failed: Invalid port: ':1'", False),
    (httpx.TooManyRedirects("Exceeded maximum allowed redirects."),
     "the request to http://h/run failed: Exceeded maximum allowed redirects.", False),
    (httpx.DecodingError("bad brotli"), "the response body from http://h/run could not be decoded: bad brotli", False),
    (httpx.RemoteProtocolError(""), "connection failed to http://h/run: RemoteProtocolError", True),
    (httpx.PoolTimeout("no slot"), "timed out after 1 s at http://h/run", True),
], ids=["invalid-url", "redirects", "decoding", "protocol", "timeout"])
def test_every_httpx_failure_is_an_agent_error(error: Exception, message: str, retryable: bool) -> None:
    async def post() -> None:
        async with httpx.AsyncClient(transport=httpx.MockTransport(_raise(error))) as client:
            await post_json(client, "http://h/run", {}, {}, timeout_s=1)

    with pytest.raises(AgentError) as info:
        asyncio.run(post())
    assert (str(info.value), info.value.retryable) == (message, retryable)


@pytest.mark.parametrize(("url", "message"), [
    ("http://[::1/run", "agent.url: invalid URL 'http://[::1/run': Invalid port: ':1'"),
    ("http://127.0.0.1:99999/run", "agent.url: port 99999 of 'http://127.0.0.1:99999/run' is not between 1 and 65535"),
    ("http:///run", "agent.url: 'http:///run' has no host"),
], ids=["bad-port", "port-range", "no-host"])
def test_an_unusable_url_is_a_gate_error_before_any_call(tmp_path: Path, url: str, message: str) -> None:
    with pytest.raises(GateError) as info:
        run_jobs(jobs_of("c1"), agent(adapter="http", url=url), root=tmp_path, settings=RunnerSettings(progress=False))
    assert str(info.value) == message


@pytest.mark.parametrize("adapter", ["http", "openai"])
def test_a_url_without_a_scheme_is_refused_by_the_config(tmp_path: Path, adapter: str) -> None:
    (tmp_path / "gate.yaml").write_text(f"agent:\n  adapter: {adapter}\n  url: 127.0.0.1:8000/run\n",
                                        encoding="utf-8")
    with pytest.raises(GateError) as info:
        load_config(tmp_path / "gate.yaml")
    assert str(info.value) == f"{tmp_path / 'gate.yaml'}:3: agent.url: url must start with http:// or https://"
    assert agent(adapter=adapter, url="HTTPS://example.com/v1").url == "HTTPS://example.com/v1"
    with pytest.raises(ValueError, match=r"adapter 'command' does not read 'url' \('url' is a setting of adapter http / openai\)"):
        agent(adapter="command", command=["a"], url="not used")  # a key the adapter never reads is a mistake


def test_huge_body_is_capped(tmp_path: Path) -> None:
    big = b'{"final_answer": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    with mocked(lambda seen, i: Reply(raw=big)) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url), root=tmp_path,
                           settings=RunnerSettings(progress=False, transport=server.transport))
    assert outcome.trajectories[0].error == f"the response body from {server.url} exceeded the 10 MB cap"


def test_headers_expand_env_at_call_time_and_never_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GATE_TEST_TOKEN", "tok-5ecret-value")
    headers = {"Authorization": "Bearer ${GATE_TEST_TOKEN}", "X-Team": "qa-${GATE_TEST_TOKEN}"}

    def handler(seen: Seen, index: int) -> Reply:  # a server that echoes credentials in its error
        return Reply(500, {"echo": seen.headers["authorization"], "team": seen.headers["x-team"]})

    with mocked(handler) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, headers=headers, retries=0),
                           root=tmp_path, settings=RunnerSettings(progress=False, transport=server.transport))
    assert server.seen[0].headers["authorization"] == "Bearer tok-5ecret-value"
    assert server.seen[0].headers["x-team"] == "qa-tok-5ecret-value"
    error = outcome.trajectories[0].error
    assert error == f'HTTP 500 from {server.url}: {{"echo": "***", "team": "***"}}'


def test_an_unset_header_variable_is_a_gate_error_before_any_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GATE_TEST_UNSET", raising=False)
    config = agent(adapter="http", url="http://127.0.0.1:9/", headers={"X-Key": "${GATE_TEST_UNSET}"})
    with serve(lambda seen, i: Reply(body=_answer(seen))) as server, pytest.raises(GateError) as info:
        run_jobs(jobs_of("c1"), config.model_copy(update={"url": server.url}), root=tmp_path,
                 settings=RunnerSettings(progress=False))
    assert str(info.value) == "agent.headers.X-Key: environment variable GATE_TEST_UNSET is not set"
    assert server.seen == []


def test_concurrency_bound_is_respected(tmp_path: Path) -> None:
    limit = 3
    barrier = threading.Barrier(limit, timeout=10)  # passes only when `limit` calls are in flight at once
    lock = threading.Lock()
    in_flight = peak = 0

    def handler(seen: Seen, index: int) -> Reply:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        barrier.wait()
        with lock:
            in_flight -= 1
        return Reply(body=_answer(seen))

    ids = [f"c{n:02d}" for n in range(12)]
    with serve(handler) as server:
        outcome = run_jobs(jobs_of(*ids), agent(adapter="http", url=server.url, concurrency=limit), root=tmp_path,
                           settings=RunnerSettings(progress=False))
    assert [t.error for t in outcome.trajectories] == [None] * 12
    assert peak == limit


@pytest.mark.parametrize("offset", [ERROR_BODY_LIMIT - 14, ERROR_BODY_LIMIT - 10, ERROR_BODY_LIMIT - 5, ERROR_BODY_LIMIT - 1])
def test_a_secret_cut_by_the_error_excerpt_leaves_no_prefix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            offset: int) -> None:
    token = "sk-live-4f9c2a7be1d04b8f"
    monkeypatch.setenv("GATE_TEST_TOKEN", token)

    def handler(seen: Seen, index: int) -> Reply:  # the echo lands where the excerpt is cut
        return Reply(500, raw=("x" * offset + seen.headers["authorization"] + " tail").encode())

    with mocked(handler) as server:
        outcome = run_jobs(jobs_of("c1"),
                           agent(adapter="http", url=server.url, retries=0,
                                                headers={"Authorization": "Bearer ${GATE_TEST_TOKEN}"}),
                           root=tmp_path, settings=RunnerSettings(progress=False, transport=server.transport))
    error = outcome.trajectories[0].error or ""
    assert "sk-l" not in error and token[:4] not in error.replace("***", "")


def test_a_retry_after_longer_than_a_run_waits_gives_up_at_once(tmp_path: Path, sleeps: Sleeps) -> None:
    with mocked(lambda seen, i: Reply(429, {"error": "quota"}, headers={"Retry-After": "3600"})) as server:
        outcome = run_jobs(jobs_of("c1"), agent(adapter="http", url=server.url, retries=3), root=tmp_path,
                           settings=RunnerSettings(progress=False, sleep=sleeps, transport=server.transport))
    (record,) = outcome.trajectories
    assert sleeps.delays == [] and len(server.seen) == 1  # no hour of sleep, no second call
    assert record.error is not None and record.error.endswith(
        "— the agent asks to retry after 3600 s, more than the 120 s a run waits; gave up")


@pytest.mark.parametrize(("section", "message"), [
    ("  adapter: telnet\n", "gate.yaml:2: agent: adapter must be one of: command, http, python, openai, replay"),
    ("  adapter: [http]\n", "gate.yaml:2: agent: adapter must be one of: command, http, python, openai, replay"),
    ("  - http\n", "gate.yaml:2: agent: must be a mapping of the agent's settings (adapter, command or url, …)"),
    ("  adapter: {http: 1}\n  url: http://a.test\n",
     "gate.yaml:2: agent: adapter must be one of: command, http, python, openai, replay"),
    ("  adapter: http\n  headers: {}\n", "gate.yaml:2: agent.url: Field required"),
    ("  adapter: python\n  function: m:f\n  timeout_s: 0\n", "gate.yaml:4: agent.timeout_s: Input should be greater than 0"),
    ("  adapter: replay\n  trajectories: r.jsonl\n  command: [x]\n",
     "gate.yaml:2: agent: adapter 'replay' does not read 'command' ('command' is a setting of adapter command); "
     "its own settings: trajectories"),
    ("  adapter: http\n  url: http://a.test\n  retry: 2\n",
     "gate.yaml:4: agent.retry: Extra inputs are not permitted — did you mean 'retries'?"),
], ids=["unknown-adapter", "adapter-a-list", "agent-a-list", "adapter-a-mapping", "missing-url", "shared-setting", "foreign-key", "unknown-key"])
def test_each_adapter_has_its_own_settings_and_errors_name_them(tmp_path: Path, section: str, message: str) -> None:
    (tmp_path / "gate.yaml").write_text("agent:\n" + section, encoding="utf-8")
    with pytest.raises(GateError) as info:
        load_config(tmp_path / "gate.yaml")
    assert str(info.value) == f"{tmp_path}/{message}"


def _verify_of(verify_seen: dict[str, object], url: str) -> object:
    """The ``verify`` the agent's client for ``url`` is built with."""
    asyncio.run(new_client(5, 2, url=url).aclose())
    return verify_seen["AsyncClient"]


@pytest.mark.usefixtures("no_proxy")
def test_a_plain_http_agent_loads_no_ca_bundle_and_tls_through_it_fails_closed(
        verify_seen: dict[str, object]) -> None:
    assert trusts_nothing(_verify_of(verify_seen, "http://127.0.0.1:8080/run"))


@pytest.mark.usefixtures("no_proxy")
@pytest.mark.parametrize(("url", "proxy"), [("https://agent.example/run", None),
                                            ("http://agent.example/run", "https://proxy.example:3128")])
def test_tls_or_a_proxy_keeps_the_default_verification(monkeypatch: pytest.MonkeyPatch,
                                                      verify_seen: dict[str, object], url: str,
                                                      proxy: str | None) -> None:
    if proxy is not None:
        monkeypatch.setenv("HTTP_PROXY", proxy)
    assert _verify_of(verify_seen, url) is True


def test_the_client_is_built_once_at_the_first_call_and_never_for_a_rerun_from_the_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.net import client as httpcall

    built: list[str | None] = []
    real = httpcall.new_client

    def counting(*args: Any, **kwargs: Any) -> httpx.AsyncClient:
        built.append(kwargs.get("url"))
        return real(*args, **kwargs)

    monkeypatch.setattr(httpcall, "new_client", counting)
    with mocked(lambda seen, i: Reply(body=_answer(seen))) as server:
        cached = agent(adapter="http", url=server.url + "/run", concurrency=3, cache=".cache", identity="v1")
        first = run_jobs(jobs_of("c1", "c2", "c3", "c4", "c5"), cached, root=tmp_path,
                         settings=RunnerSettings(progress=False, transport=server.transport))
        assert (first.calls, built) == (5, [server.url + "/run"])  # one pool for every call
        again = run_jobs(jobs_of("c1", "c2", "c3", "c4", "c5"), cached, root=tmp_path,
                         settings=RunnerSettings(progress=False, transport=server.transport))
    assert (again.calls, again.cache_hits, built) == (0, 5, [server.url + "/run"])
    assert [t.final_answer for t in again.trajectories] == [f"answer of c{i}" for i in range(1, 6)]


@pytest.mark.usefixtures("no_proxy")
@pytest.mark.parametrize(("variables", "message"), [
    ({"SSL_CERT_FILE": "{tmp}/missing.pem"},
     "the CA certificates could not be loaded (SSL_CERT_FILE={tmp}/missing.pem): [Errno 2] No such file or directory"),
    ({"SSL_CERT_FILE": "{tmp}/garbage.pem", "SSL_CERT_DIR": "{tmp}"},
     "the CA certificates could not be loaded (SSL_CERT_FILE={tmp}/garbage.pem, SSL_CERT_DIR={tmp}): "
     "[X509: NO_CERTIFICATE_OR_CRL_FOUND] no certificate or crl found"),
    ({"HTTPS_PROXY": "ops:hunter22@[::1"},
     "the proxy settings in the environment (HTTPS_PROXY) cannot be used: Invalid port: ':1'"),
    ({"ALL_PROXY": "socks5://ops:hunter22@proxy.internal:1080", "NO_PROXY": "localhost"},
     "the proxy settings in the environment (ALL_PROXY) cannot be used: Using SOCKS proxy, but the 'socksio'"),
    ({"https_proxy": "ftp://ops:hunter22@proxy.internal:21"},
     "the proxy settings in the environment (https_proxy) cannot be used: Unknown scheme for proxy URL "
     "URL('ftp://ops:[secure]@proxy.internal')"),
], ids=["missing-ca-file", "ca-file-not-pem", "proxy-bad-port", "socks-proxy", "proxy-unknown-scheme"])
def test_a_ca_bundle_or_proxy_the_environment_names_but_cannot_use_is_a_gate_error_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], message: str) -> None:
    (tmp_path / "garbage.pem").write_text("not a certificate\n", encoding="utf-8")
    for name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value.format(tmp=tmp_path))
    with pytest.raises(GateError) as info:
        new_client(5, 2, url="https://agent.example/run")
    assert str(info.value).startswith(message.format(tmp=tmp_path))
    assert "hunter22" not in str(info.value) and info.value.__cause__ is None


@pytest.mark.parametrize("give_up", [True, False])
def test_an_agent_that_was_never_started_is_given_up_on_after_three_calls(
        tmp_path: Path, sleeps: Sleeps, give_up: bool) -> None:
    tried: list[str] = []

    def refuse(request: httpx.Request) -> httpx.Response:
        tried.append(json.loads(request.content)["case_id"])
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    jobs = jobs_of(*(f"c{i}" for i in range(8)))
    outcome = run_jobs(jobs, agent(adapter="http", url="http://127.0.0.1:9/run", retries=2, concurrency=1),
                       root=tmp_path,
                       settings=RunnerSettings(progress=False, sleep=sleeps, transport=httpx.MockTransport(refuse),
                                               give_up_unreachable=give_up))
    errors = [t.error or "" for t in outcome.trajectories]
    assert all(t.metadata.get(UNREACHABLE) is True for t in outcome.trajectories)
    assert outcome.calls == (3 if give_up else 8)  # a job not sent is no call
    if give_up:
        assert tried == ["c0"] * 3 + ["c1"] * 3 + ["c2"] * 3
        assert errors[3:] == ["not sent: the first 3 calls found nothing listening (connection failed to "
                              "http://127.0.0.1:9/run: [Errno 111] Connection refused)"] * 5
    else:  # decision.outage_on_unreachable: false — every call waits out its retries
        assert len(tried) == 8 * 3 and not any(e.startswith("not sent") for e in errors)
