"""A command-line test agent: reads a request on stdin, behaves as its case id says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path


def main() -> int:
    request = json.loads(sys.stdin.read())
    case = request["case_id"]
    answer = {"case_id": case, "group": request["group"], "run": request["run"],
              "final_answer": f"answer of {case}/{request['group']}/{request['run']}",
              "tool_calls": [{"name": i["tool"], "args": {}, "result": i["result"]}
                             for i in request["tool_intercepts"]],
              "metadata": {"request": request}}
    if case.startswith("crash"):
        print("Traceback: something broke in the agent", file=sys.stderr)
        return 3
    if case.startswith("garbage"):
        print("thinking… {not json")
        return 0
    if case.startswith("huge"):
        sys.stdout.write("x" * (11 * 1024 * 1024))
        return 0
    if case.startswith("slow"):
        print("started, now waiting", file=sys.stderr, flush=True)
        marker = request["context"].get("marker")
        if marker:
            Path(marker).write_text(str(os.getpid()), encoding="utf-8")
        time.sleep(60)
    if case.startswith("spawn"):  # leaves a tool running in the background, then answers
        tool = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        Path(request["context"]["marker"]).write_text(str(tool.pid), encoding="utf-8")
    if case.startswith("wrongkey"):
        answer["case_id"] = "someone-else"
        answer["run"] = 7
    if case.startswith("missing"):
        answer = {"thoughts": "forgot the answer"}
    if case.startswith("list"):
        print(json.dumps([answer]))
        return 0
    print(json.dumps(answer, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
