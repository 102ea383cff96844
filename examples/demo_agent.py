"""A deterministic, offline demo "life assistant": the agent `gate check` runs by default.

It speaks the command adapter's contract: one agent request (JSON) on stdin, one trajectory
record (JSON) on stdout. Like a real agent it answers by what the user said — the last user
message, the earlier turns and whether skills are on — never by case id. Its knowledge is the
data file ``examples/demo_agent/answers.json``; tool calls are answered from the request's
``tool_intercepts`` (or, when none is given, from canned offline results in that file), and
answers quote the tool data they were built from.

Where a real model samples, the demo uses the request's ``run`` index to pick among an answer's
variants, so repeated runs differ a little yet reproducibly.

``GATE_DEMO_BREAK=<case id>[,<case id>…]`` makes the agent answer those cases badly on purpose,
to show what a regression looks like in the gate's report.

Noise, to show what a random agent looks like (seeded, so a run reproduces):
``GATE_DEMO_NOISE=0.05`` answers each case × group × run badly with that probability (the same
bad answers ``GATE_DEMO_BREAK`` gives); ``GATE_DEMO_FLAKY=0.1:0.3`` makes a share of the cases
(here 10 %) flaky at their own rate (30 %); ``GATE_DEMO_WORSE=<case id>,…:0.2`` makes the named
cases fail that much more often; ``GATE_DEMO_KEEP=<case id>,…`` keeps the named cases out of the
noise and the flakes (a benchmark keeps the never-rule cases there, whose every bad answer breaks
one, to measure false alarms on the rate-judged cases alone); ``GATE_DEMO_SEED=N`` picks the random
draw. These and ``GATE_DEMO_BREAK`` are the only uses of ``case_id``.

Exit codes: 0 answered; 2 unusable input (bad request JSON or data file), with a message on
stderr. Standard library only, so that one call per job starts fast.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).resolve().parent / "demo_agent" / "answers.json"
BREAK_ENV = "GATE_DEMO_BREAK"
NOISE_ENV = "GATE_DEMO_NOISE"
FLAKY_ENV = "GATE_DEMO_FLAKY"
WORSE_ENV = "GATE_DEMO_WORSE"
KEEP_ENV = "GATE_DEMO_KEEP"
SEED_ENV = "GATE_DEMO_SEED"
AGENT_NAME = "demo-life-assistant"

_QUOTES = "\"'“”‘’「」『』《》"
_TRAILING = "。．.！!？?～~…，,；;：:"
_PLACEHOLDER_RE = re.compile(r"\{\{\s*([A-Za-z_][\w-]*)((?:\.[\w-]+)*)\s*\}\}")


class BadInput(Exception):
    """The request or the data file cannot be used; the message says why."""


@lru_cache(maxsize=4096)  # every entry's messages are compared on each request: a process that answers many reads each once
def normalize(text: str) -> str:
    """A message as a lookup key: NFKC, lower case, no whitespace, quotes or trailing punctuation."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(ch for ch in text if not ch.isspace() and ch not in _QUOTES)
    return text.rstrip(_TRAILING)


# --- the request -----------------------------------------------------------------------------


def read_request(raw: str) -> dict[str, Any]:
    """The agent request, checked for the fields the demo needs."""
    if not raw.strip():
        raise BadInput("stdin is empty; expected one agent request object (JSON)")
    try:
        request = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"stdin is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
            "expected one agent request object"
        ) from None
    if not isinstance(request, dict):
        raise BadInput(f"the agent request must be a JSON object, got {type(request).__name__}")
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadInput("request.messages must be a non-empty list of {role, content} objects")
    for index, message in enumerate(messages):
        if (
            not isinstance(message, dict)
            or not isinstance(message.get("content"), str)
            or message.get("role") not in ("system", "user", "assistant", "tool")
        ):
            raise BadInput(
                f"request.messages[{index}] must be an object with a role "
                "(system/user/assistant/tool) and a string content"
            )
    if not any(m["role"] == "user" for m in messages):
        raise BadInput("request.messages has no user message to answer")
    intercepts = request.get("tool_intercepts", [])
    if not isinstance(intercepts, list) or not all(
        isinstance(i, dict) and isinstance(i.get("tool"), str) for i in intercepts
    ):
        raise BadInput("request.tool_intercepts must be a list of {tool, result, is_error} objects")
    skills = request.get("active_skills", [])
    if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
        raise BadInput("request.active_skills must be a list of skill names")
    run = request.get("run", 0)
    if not isinstance(run, int) or isinstance(run, bool) or run < 0:
        raise BadInput("request.run must be a whole number ≥ 0")
    return request


# --- the knowledge ---------------------------------------------------------------------------


def load_data(path: Path = DATA_FILE) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BadInput(f"cannot read the demo agent's answers ({path}): {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list) or "generic" not in data:
        raise BadInput(f"{path}: expected an object with 'generic' and 'entries'")
    return data


def find_entry(data: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The entry for the last user message; one that also matches earlier turns wins."""
    users = [normalize(m["content"]) for m in messages if m["role"] == "user"]
    last, earlier = users[-1], set(users[:-1])
    best: dict[str, Any] | None = None
    for entry in data["entries"]:
        if last not in {normalize(m) for m in entry["messages"]}:
            continue
        after = {normalize(m) for m in entry.get("after", [])}
        if not after <= earlier:
            continue
        if best is None or len(after) > len(best.get("after", [])):
            best = entry
    return best


def skill_applies(entry: dict[str, Any], request: dict[str, Any]) -> bool:
    """Skills change an answer only when enabled and one of the entry's skills is active."""
    if not request.get("skill_enabled") or "B" not in entry:
        return False
    wanted = entry.get("skills")
    return not wanted or bool(set(wanted) & set(request.get("active_skills", [])))


def pick(variants: Any, run: int) -> dict[str, Any]:
    """One answer variant {text, tools?}; a list of variants is sampled by the run index.

    A text is a string or a list of lines (readable in the JSON file).
    """
    if isinstance(variants, list):
        variants = variants[run % len(variants)]
    chosen = {"text": variants} if isinstance(variants, str) else dict(variants)
    if isinstance(chosen.get("text"), list):
        chosen["text"] = "\n".join(chosen["text"])
    return chosen


def _skills_used(entry: dict[str, Any] | None, request: dict[str, Any]) -> list[str]:
    active = set(request.get("active_skills", []))
    wanted = set((entry or {}).get("skills") or active)
    return sorted(active & wanted)


def breaks(request: dict[str, Any]) -> bool:
    """Whether this request gets the bad answer: broken on purpose, or unlucky under noise."""
    wanted = {part.strip() for part in os.environ.get(BREAK_ENV, "").split(",") if part.strip()}
    case_id = str(request.get("case_id", ""))
    if case_id in wanted:
        return True
    seed = os.environ.get(SEED_ENV, "0")
    key = f"{case_id}|{request.get('group', '')}|{request.get('run', 0)}"
    rate = _probability(NOISE_ENV, os.environ.get(NOISE_ENV, "0"))
    flaky = os.environ.get(FLAKY_ENV, "")
    if flaky:
        share_text, _, rate_text = flaky.partition(":")
        share, flaky_rate = _probability(FLAKY_ENV, share_text), _probability(FLAKY_ENV, rate_text or "0")
        # which cases are flaky is the agent's nature, the same whatever the seed
        if draw("", "flaky", case_id) < share:
            rate = max(rate, flaky_rate)
    if case_id in {part.strip() for part in os.environ.get(KEEP_ENV, "").split(",")}:
        rate = 0.0
    worse = os.environ.get(WORSE_ENV, "")
    if worse:
        ids, _, extra = worse.rpartition(":")
        if case_id in {part.strip() for part in ids.split(",")}:
            rate = min(1.0, rate + _probability(WORSE_ENV, extra))
    return rate > 0 and draw(seed, "noise", key) < rate


def draw(seed: str, purpose: str, key: str) -> float:
    """A uniform number in [0, 1) fixed by seed, purpose and key: the same run draws the same."""
    digest = hashlib.sha256(f"{seed}|{purpose}|{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _probability(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise BadInput(f"{name} must be a probability such as 0.05 (or SHARE:RATE for {FLAKY_ENV}), got {text!r}") from None
    if not 0 <= value <= 1:
        raise BadInput(f"{name} must be between 0 and 1, got {text!r}")
    return value


# --- tools -----------------------------------------------------------------------------------


def call_tools(specs: list[dict[str, Any]], request: dict[str, Any]) -> list[dict[str, Any]]:
    """Run the tool calls: results come from the intercepts, in order, else the canned result."""
    pending: dict[str, list[dict[str, Any]]] = {}
    for intercept in request.get("tool_intercepts", []):
        pending.setdefault(intercept["tool"], []).append(intercept)
    calls = []
    for spec in specs:
        queue = pending.get(spec["name"], [])
        intercept = queue.pop(0) if len(queue) > 1 else (queue[0] if queue else None)
        if intercept is not None:
            result, is_error = intercept.get("result"), bool(intercept.get("is_error", False))
        else:
            result, is_error = spec.get("result"), bool(spec.get("is_error", False))
        if result is not None and not isinstance(result, str):
            result = json.dumps(result, ensure_ascii=False)
        calls.append({"name": spec["name"], "args": dict(spec.get("args", {})), "result": result, "is_error": is_error})
    return calls


def _lookup(value: Any, path: list[str]) -> Any:
    for key in path:
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise KeyError(key)
    return value


def render(text: str, calls: list[dict[str, Any]]) -> str:
    """Fill ``{{tool.path.to.field}}`` from the parsed result of that tool's last call."""
    parsed: dict[str, Any] = {}
    for call in calls:
        try:
            parsed[call["name"]] = json.loads(call["result"] or "")
        except json.JSONDecodeError:
            parsed[call["name"]] = call["result"]

    in_json = text.lstrip().startswith(("[", "{"))

    def fill(match: re.Match[str]) -> str:
        tool, path = match.group(1), [p for p in match.group(2).split(".") if p]
        if tool not in parsed:
            raise KeyError(tool)
        value = _lookup(parsed[tool], path)
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        # Inside a JSON answer a value lands in a string: escape it so the JSON stays valid.
        return json.dumps(shown, ensure_ascii=False)[1:-1] if in_json else shown

    return _PLACEHOLDER_RE.sub(fill, text)


# --- answering -------------------------------------------------------------------------------


def answer(request: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """The trajectory record for ``request``."""
    run = request.get("run", 0)
    entry = find_entry(data, request["messages"])
    with_skill = False
    if entry is None:
        chosen = pick(data["generic"], run)
    elif breaks(request):
        chosen = pick(entry.get("broken", data["generic"]), run)
    else:
        with_skill = skill_applies(entry, request)
        chosen = pick(entry["B" if with_skill else "A"], run)
    specs = chosen.get("tools", entry.get("tools", []) if entry else [])
    calls = call_tools(specs, request)
    if any(call["is_error"] for call in calls):
        text = pick((entry or {}).get("on_tool_error", data["tool_error"]), run)["text"]
    else:
        try:
            text = render(chosen["text"], calls)
        except (KeyError, TypeError):  # the tool data is not what the answer needs
            text = pick(data["tool_error"], run)["text"]
    return {
        "case_id": request.get("case_id", "adhoc"),
        "group": request.get("group", "B" if request.get("skill_enabled") else "A"),
        "run": run,
        "final_answer": text.strip(),
        "tool_calls": calls,
        "error": None,
        "metadata": {
            "agent": AGENT_NAME,
            "topic": entry["topic"] if entry else None,
            "skills_used": _skills_used(entry, request) if with_skill else [],
        },
    }


_DATA: dict[str, Any] = {}


def run(request: dict[str, Any]) -> dict[str, Any]:
    """The same agent as a function, for the python adapter (``function: demo_agent:run``)."""
    if not _DATA:
        _DATA.update(load_data())
    return answer(read_request(json.dumps(request)), _DATA)


def main() -> int:
    # Bytes in and out, decoded as UTF-8 whatever the platform's locale says.
    try:
        raw = sys.stdin.buffer.read().decode("utf-8")
        record = answer(read_request(raw), load_data())
    except UnicodeDecodeError as exc:
        print(f"demo_agent: error: stdin is not UTF-8 ({exc.reason} at byte {exc.start})", file=sys.stderr)
        return 2
    except BadInput as exc:
        print(f"demo_agent: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.buffer.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
