"""The semantic tier's cost: prompt sizes per judged sample, and the judge runner's pace against an
endpoint of fixed latency (how close to the ideal the concurrency bound gets).

    python benchmarks/bench_judge.py [--latency-ms 300] [--concurrency 8] [--samples 3]

Prompt sizes are counted in characters over the demo recording (what a nightly `gate judge` asks)
and over the case examples (what `--calibrate` asks); token counts depend on the judge's tokenizer,
so judge.json's ``usage`` (from the endpoint) is the figure to bill by. The pace is measured with a
local stand-in endpoint that sleeps ``--latency-ms`` and answers valid JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from gate.cases.loader import load_cases
from gate.commands.judge import JudgeSettings, run_judge
from gate.runs.records import read_trajectories
from gate.semantic.prompt import Limits, build_messages
from gate.semantic.rubrics import example_trajectory, expected_status, rubrics_of

ROOT = Path(__file__).resolve().parents[1]


def prompt_sizes() -> dict[str, tuple[int, int]]:
    """(samples' prompts, total characters) for the demo recording and for calibration."""
    cases = load_cases(ROOT / "cases").cases
    recorded = [sum(len(m["content"]) for m in build_messages(r, t, Limits()))
                for t in read_trajectories(ROOT / "examples" / "trajectories.jsonl", cases) if t.error is None
                for r in rubrics_of(cases[t.case_id], t.group)]
    examples = [sum(len(m["content"]) for m in build_messages(r, example_trajectory(c, e), Limits(), exclude=e))
                for c in cases.values() if c.examples for e in (*c.examples.pass_, *c.examples.fail)
                for r in rubrics_of(c, e.group) if expected_status(r, e) is not None]
    return {"judge (demo recording)": (len(recorded), sum(recorded)), "calibrate": (len(examples), sum(examples))}


def _serve(latency_s: float) -> tuple[ThreadingHTTPServer, str]:
    reply = json.dumps({"choices": [{"message": {"role": "assistant", "content": '{"reason": "ok", "passed": true}'}}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1}}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            time.sleep(latency_s)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/v1"


def pace(latency_ms: int, concurrency: int, samples: int) -> tuple[int, float, float]:
    """(samples asked, seconds taken, ideal seconds) for `gate judge` over the demo recording."""
    server, url = _serve(latency_ms / 1000)
    with tempfile.TemporaryDirectory() as work:
        config = Path(work) / "gate.yaml"
        config.write_text(
            f"cases: {{path: {ROOT / 'cases'}}}\nreviews: {Path(work) / 'none.yaml'}\n"
            f"judge: {{url: '{url}', model: bench, samples: {samples}, concurrency: {concurrency}, cache: false}}\n",
            encoding="utf-8")
        started = time.perf_counter()
        run_judge(JudgeSettings(config=str(config), trajectories=str(ROOT / "examples" / "trajectories.jsonl"),
                                out_dir=str(Path(work) / "out"), progress=False))
        took = time.perf_counter() - started
        asked = json.loads((Path(work) / "out" / "judge.json").read_text(encoding="utf-8"))["usage"]["requests"]
    server.shutdown()
    return asked, took, math.ceil(asked / concurrency) * latency_ms / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--samples", type=int, default=3)
    args = parser.parse_args()
    for name, (count, chars) in prompt_sizes().items():
        print(f"{name}: {count} verdicts × {args.samples} samples; prompt {chars / count:,.0f} characters on average, "
              f"{chars * args.samples:,} characters per run")
    asked, took, ideal = pace(args.latency_ms, args.concurrency, args.samples)
    print(f"pace: {asked} samples at {args.latency_ms} ms, concurrency {args.concurrency}: {took:.2f} s vs ideal "
          f"{ideal:.2f} s — ratio {took / ideal:.2f}")


if __name__ == "__main__":
    main()
