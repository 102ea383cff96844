"""Runner throughput: the golden set against a local HTTP agent with a fixed latency.

    python benchmarks/bench_runner.py [--latency 0.2] [--concurrency 8] [--cases cases] [--calls 80 800]

Run 1 calls the agent for every job (cold cache) and compares the wall time with the ideal
calls × latency ÷ concurrency; run 2 repeats it with the cache warm (0 calls expected).

Then, for each ``--calls`` N, the whole `gate check` process (start-up, case loading, the calls,
judging, reports) against the same agent — N/2 golden cases (copied under new ids past the set's
size) × groups A and B, one run each — in a new project; the same `gate check` again, every answer
and its verdict from the cache; again with the answers forgotten but the case files' parses kept
(the agent changed, the cases did not); and a bare client making the same N calls from a thread
pool of the same size: its wall time is the floor any runner has.

``--phases``: then one more cold `gate check` per N, its stages timed from inside the process
(start-up and imports, loading the cases, up to the first call, the calls, the reports, exit).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bytecode import compile_package

from gate.cases.loader import load_cases
from gate.config.agent_config import AgentConfig, HttpAgent
from gate.runner import RunnerSettings, RunOutcome, run_jobs
from gate.runs.jobs import Job, plan

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def agent_server(latency: float) -> Iterator[str]:
    """A keep-alive HTTP agent on 127.0.0.1 that answers every request after ``latency`` seconds."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            time.sleep(latency)
            body = json.dumps({"final_answer": f"answer of {request['case_id']}", "tool_calls": []}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        # socketserver listens with a backlog of 5: a client opening its 8 connections at once has
        # the others' SYNs dropped and retried after the kernel's 1 s timeout.
        request_queue_size = 128
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/run"
    finally:
        server.shutdown()
        server.server_close()


def timed_run(jobs: list[Job], agent: AgentConfig, root: Path) -> tuple[RunOutcome, float]:
    started = time.perf_counter()
    outcome = run_jobs(jobs, agent, root=root, settings=RunnerSettings(progress=False))
    return outcome, time.perf_counter() - started


_ID = re.compile(r"^id:\s*(\S+)", re.M)


def project(calls: int, url: str, concurrency: int, cases: Path, out: Path) -> None:
    """A gate project of ``calls`` // 2 golden cases (copies past the set's size) run once in A and B
    against the agent at ``url``."""
    golden = [path for path in sorted(cases.rglob("*.yaml"))
              if re.search(r"^tags:.*\bgolden\b", text := path.read_text(encoding="utf-8"), re.M)
              and "aggregate:" not in text]
    (out / "cases").mkdir(parents=True)
    for index in range(calls // 2):
        text = golden[index % len(golden)].read_text(encoding="utf-8")
        match = _ID.search(text)
        assert match is not None
        new = f"{match.group(1)}-{index:04d}"
        (out / "cases" / f"{new}.yaml").write_text(_ID.sub(f"id: {new}", text, count=1), encoding="utf-8")
    (out / "gate.yaml").write_text(json.dumps({
        "suites": {"B3": ["FC", "QC", "PC", "LC", "MC", "AC", "MM"], "X": ["OC", "SD", "SA", "FC", "CD"],
                   "ARTICLE": ["TC"]},
        "cases": {"path": "cases", "tags": ["golden"]}, "repeats": 1, "groups": ["A", "B"],
        "agent": {"adapter": "http", "url": url, "concurrency": concurrency, "retries": 0, "cache": ".gate-cache",
                  "identity": "bench"},
        "baseline": "none.json", "out_dir": "out"}), encoding="utf-8")


def whole_check(root: Path) -> float:
    """Wall seconds of one `gate check` process (its verdict is not the point)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gate", "check"], cwd=root, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


# Run in the `gate check` process by --phases (after `OUT = <path>`): writes the wall-clock time at
# which each stage started and ended there.
PHASES = """
import json, sys, time
stamps = {}
def mark(name):
    stamps.setdefault(name, time.time())
import gate.commands.check as check
import gate.runner.engine as engine
mark("imported")
def timed(name, function):
    def run(*args, **kwargs):
        mark(name + " start")
        try:
            return function(*args, **kwargs)
        finally:
            mark(name + " end")
    return run
for name in ("load_cases", "run_jobs", "write_reports"):
    setattr(check, name, timed(name, getattr(check, name)))
call = engine._call
async def timed_call(*args, **kwargs):
    mark("first call")
    try:
        return await call(*args, **kwargs)
    finally:
        stamps["last answer"] = time.time()
engine._call = timed_call
sys.argv = ["gate", "check"]
try:
    from gate.cli.app import main
    main()
except SystemExit:
    pass
finally:
    mark("done")
    with open(OUT, "w") as handle:
        json.dump(stamps, handle)
"""

STAGES = (
    ("start-up and imports", "start", "imported"),
    ("gate.yaml, up to loading the cases", "imported", "load_cases start"),
    ("loading the cases (no kept parses)", "load_cases start", "load_cases end"),
    ("baseline, reviews, runner set-up: to the first call", "load_cases end", "first call"),
    ("the calls: first call to last answer", "first call", "last answer"),
    ("after the last answer, to the runner's end", "last answer", "run_jobs end"),
    ("confirming, deciding: to the reports", "run_jobs end", "write_reports start"),
    ("writing the reports", "write_reports start", "write_reports end"),
    ("the terminal summary", "write_reports end", "done"),
    ("exit", "done", "end"),
)


def phases(root: Path) -> dict[str, float]:
    """One cold `gate check` in ``root``: the wall-clock time of each stage (STAGES), in seconds."""
    shutil.rmtree(root / ".gate-cache", ignore_errors=True)
    out = root / "phases.json"
    started = time.time()
    subprocess.run([sys.executable, "-c", f"OUT = {str(out)!r}\n" + PHASES], cwd=root, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stamps = {**json.loads(out.read_text(encoding="utf-8")), "start": started, "end": time.time()}
    return {label: stamps[until] - stamps[since] for label, since, until in STAGES}


def forget_answers(root: Path) -> None:
    """Empty the cache but for the case files' kept parses: the next check calls the agent for every
    job, as after a change to the agent, with its cases unchanged since they were last loaded."""
    for entry in (root / ".gate-cache").iterdir():
        if entry.name != "cases":
            shutil.rmtree(entry)


def bare_client(url: str, calls: int, concurrency: int) -> float:
    """Wall seconds of ``calls`` POSTs from a thread pool sharing one keep-alive httpx client."""
    import httpx

    from gate.net.client import sync_client

    body = {"case_id": "B3-QC-01", "group": "A", "run": 0, "messages": [{"role": "user", "content": "推荐 3 款"}]}
    with sync_client(url, timeout=httpx.Timeout(30), max_connections=concurrency) as client:
        started = time.perf_counter()
        with ThreadPoolExecutor(concurrency) as pool:
            list(pool.map(lambda run: client.post(url, json={**body, "run": run}).raise_for_status(), range(calls)))
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.2, help="agent latency in seconds (0.2)")
    parser.add_argument("--concurrency", type=int, default=8, help="runner concurrency (8)")
    parser.add_argument("--cases", default=str(REPO / "cases"), help="case directory (cases/)")
    parser.add_argument("--calls", type=int, nargs="*", default=[80, 800],
                        help="calls of the whole `gate check` runs (80 800; none to skip them)")
    parser.add_argument("--phases", action="store_true",
                        help="then time the stages of one more cold `gate check` per --calls size")
    args = parser.parse_args()
    compile_package()  # what an installed package has: no compiling counted as the gate's time

    case_set = load_cases(Path(args.cases))
    jobs = plan(case_set.select(("golden",)), ("A", "B"))
    with tempfile.TemporaryDirectory() as tmp, agent_server(args.latency) as url:
        agent = HttpAgent(url=url, concurrency=args.concurrency, timeout_s=30, retries=0,
                            cache=str(Path(tmp) / "cache"), identity="bench")
        cold, cold_s = timed_run(jobs, agent, Path(tmp))
        warm, warm_s = timed_run(jobs, agent, Path(tmp))
    ideal = cold.calls * args.latency / args.concurrency
    ratio = f"ratio {cold_s / ideal:.3f}" if ideal else f"{cold_s / max(cold.calls, 1) * 1000:.2f} ms a call"
    print(f"golden jobs: {len(jobs)} ({len(case_set.select(('golden',)))} cases × groups × repeats)")
    print(f"cold run:  {cold.calls} calls, {cold.errors} errors, wall {cold_s:.2f} s; "
          f"ideal {cold.calls} × {args.latency:g} s ÷ {args.concurrency} = {ideal:.2f} s; {ratio}")
    print(f"warm run:  {warm.calls} calls, {warm.cache_hits} cache hits, wall {warm_s:.3f} s")
    if not args.calls:
        return
    print("\n| calls | ideal | `gate check`, whole process | ratio | again, new answers | ratio | "
          "bare thread-pool client | ratio | cached rerun |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp, agent_server(args.latency) as url:
        for calls in args.calls:
            root = Path(tmp) / str(calls)
            project(calls, url, args.concurrency, Path(args.cases), root)
            ideal = calls * args.latency / args.concurrency
            gate_s = whole_check(root)
            rerun_s = whole_check(root)  # every answer, and its verdict, from the cache
            forget_answers(root)
            again_s = whole_check(root)  # every call again; the case files' parses kept from before
            floor_s = bare_client(url, calls, args.concurrency)
            print(f"| {calls} | {ideal:.2f} s | {gate_s:.2f} s | **{gate_s / ideal:.2f}** | {again_s:.2f} s | "
                  f"**{again_s / ideal:.2f}** | {floor_s:.2f} s | {floor_s / ideal:.2f} | {rerun_s:.2f} s |")
        if args.phases:
            timed = {calls: phases(Path(tmp) / str(calls)) for calls in args.calls}
            print("\n| stage of a cold `gate check` | " + " | ".join(f"{calls} calls" for calls in timed) + " |")
            print("|---|" + "---:|" * len(timed))
            for label, _, _ in STAGES:
                print(f"| {label} | " + " | ".join(f"{stages[label] * 1000:.0f} ms" for stages in timed.values()) + " |")


if __name__ == "__main__":
    main()
