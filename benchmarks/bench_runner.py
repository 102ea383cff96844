"""Runner throughput: the golden set against a local HTTP agent with a fixed latency.

    python benchmarks/bench_runner.py [--latency 0.2] [--concurrency 8] [--cases cases]

Run 1 calls the agent for every job (cold cache) and compares the wall time with the ideal
calls × latency ÷ concurrency; run 2 repeats it with the cache warm (0 calls expected).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from gate.agent_config import AgentConfig, HttpAgent
from gate.jobs import Job, plan
from gate.loader import load_cases
from gate.runner import RunOutcome, run_jobs

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

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/run"
    finally:
        server.shutdown()
        server.server_close()


def timed_run(jobs: list[Job], agent: AgentConfig, root: Path) -> tuple[RunOutcome, float]:
    started = time.perf_counter()
    outcome = run_jobs(jobs, agent, root=root, progress=False)
    return outcome, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.2, help="agent latency in seconds (0.2)")
    parser.add_argument("--concurrency", type=int, default=8, help="runner concurrency (8)")
    parser.add_argument("--cases", default=str(REPO / "cases"), help="case directory (cases/)")
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
