"""`gate judge` end to end against a stand-in endpoint on 127.0.0.1: verdicts with votes and reasons
for every rubric, bad replies and endpoint failures recorded per constraint, the cache, exit codes."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

from gate.cli.app import main
from gate.runs.records import read_trajectories
from gate.semantic.rubrics import rubrics_of
from tests.casefiles import repo_cases
from tests.runner.loopback import Reply
from tests.semantic.cases import ANSWERS, write_cases
from tests.semantic.standin import ROOT, Asked, chat, config_text, judge_mocked, judge_server, verdict

RECORDING = ROOT / "examples" / "trajectories.jsonl"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def judge_json(out: Path) -> dict[str, Any]:
    document = json.loads((out / "judge.json").read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "schemas" / "judge.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)
    return dict(document)


def queue(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "review-queue.jsonl").read_text(encoding="utf-8").splitlines()]


def test_every_rubric_of_the_demo_recording_gets_a_verdict_with_votes_and_reasons(tmp_path: Path) -> None:
    def script(asked: Asked, index: int) -> Reply:
        return verdict("剩下两天" not in asked.answer, f"judged answer of {len(asked.answer)} chars")

    with judge_mocked(script) as server:
        (tmp_path / "gate.yaml").write_text(config_text(server.url), encoding="utf-8")
        result = run("judge", "--config", str(tmp_path / "gate.yaml"), "--trajectories", str(RECORDING),
                     "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    cases = repo_cases().cases
    expected = sorted((t.case_id, t.group, t.run, r.constraint_id) for t in read_trajectories(RECORDING)
                      if t.error is None for r in rubrics_of(cases[t.case_id], t.group))
    document = judge_json(tmp_path / "out")
    records = document["constraints"]
    assert sorted((r["case_id"], r["group"], r["run"], r["constraint"]) for r in records) == expected
    assert len(expected) > 100 and len(server.seen) == 3 * len(expected)
    for record in records:
        rubric, = record["rubrics"]
        assert rubric["votes"] == {"pass": 3, "fail": 0, "error": 0} and not rubric["split"]
        assert [s["reason"].startswith("judged answer of") for s in rubric["samples"]] == [True] * 3
        assert record["final"] == record["judge"] == "pass" and record["source"] == "judge"
        assert record["trajectory"].startswith("sha256:")
    assert sorted({seen.body["seed"] for seen in server.seen}) == [0, 1, 2]
    assert document["overall"]["passed"] == len(expected) and document["usage"]["requests"] == 3 * len(expected)
    assert document["usage"]["prompt_tokens"] == 900 * 3 * len(expected) and document["usage"]["cost"] is None
    markdown = (tmp_path / "out" / "judge.md").read_text(encoding="utf-8")
    assert "| Dimension | Group | Rules (runs) | Judge (rubrics) | Fully followed (runs) |" in markdown
    assert "| B3/FC | A |" in markdown
    # no human has reviewed these cases yet: every verdict is a first run of a new case, for review
    assert {tuple(e["reasons"]) for e in queue(tmp_path / "out")} == {("new-case",)}
    assert f"{len(expected)} rubric verdicts ({len(expected)} pass · 0 fail · 0 error)" in result.output


def _records(path: Path, answers: dict[str, str]) -> Path:
    lines = [json.dumps({"case_id": "B3-QC-09", "group": "A", "run": run, "final_answer": answer}, ensure_ascii=False)
             for run, answer in enumerate(answers.values())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path)
    return tmp_path


def judged(project: Path, script: Callable[[Asked, int], Reply], answers: dict[str, str], *args: str,
           judge_extra: str = "", cache: str = "false", port: int | None = None,
           network: bool = False) -> tuple[Result, dict[str, Any], int]:
    """`gate judge` on ``answers`` against ``script``: through a real server on 127.0.0.1 when the test is
    about the network (``network``, or a fixed ``port``), through a MockTransport otherwise."""
    endpoint = judge_server(script, port or 0) if network or port is not None else judge_mocked(script)
    with endpoint as server:
        (project / "gate.yaml").write_text(config_text(server.url, cases="cases", judge_extra=judge_extra, cache=cache),
                                           encoding="utf-8")
        result = run("judge", "--trajectories", str(_records(project / "runs.jsonl", answers)), *args)
        requests = len(server.seen)
    document = judge_json(project / "gate-results") if (project / "gate-results" / "judge.json").exists() else {}
    return result, document, requests


def _by_run(document: dict[str, Any], constraint: str = "friendly") -> dict[int, dict[str, Any]]:
    return {r["run"]: r for r in document["constraints"] if r["constraint"] == constraint}


def test_split_votes_and_rule_judge_disagreements_go_to_the_review_queue(project: Path) -> None:
    def script(asked: Asked, index: int) -> Reply:
        if asked.answer == ANSWERS["cold"]:
            return verdict(asked.seed == 0, "命令口吻" if asked.seed else "还算友好")  # 1 pass, 2 fail
        return verdict(True)

    result, document, _ = judged(project, script, {"good": ANSWERS["good"], "cold": ANSWERS["cold"]})
    assert result.exit_code == 0, result.output
    cold = _by_run(document)[1]
    assert (cold["judge"], cold["rubrics"][0]["votes"], cold["rubrics"][0]["split"]) == (
        "fail", {"pass": 1, "fail": 2, "error": 0}, True)
    combined = _by_run(document, "three_and_friendly")[1]
    assert (combined["rule"], combined["judge"]) == ("pass", "fail")  # the rule part passes, the rubric does not
    entries = {(e["run"], e["constraint"]): e for e in queue(project / "gate-results")}
    assert entries[(1, "friendly")]["reasons"] == ["split-vote", "new-case"]
    assert entries[(1, "three_and_friendly")]["reasons"] == ["disagreement", "split-vote", "new-case"]
    assert entries[(1, "friendly")]["judge_reasons"] == ["还算友好", "命令口吻", "命令口吻"]
    assert entries[(1, "friendly")]["excerpt"] == ANSWERS["cold"]
    dimension, = (d for d in document["dimensions"] if d["group"] == "A")
    assert dimension["rules"]["passed"] == 2 and dimension["rubrics"] == {
        **dimension["rubrics"], "passed": 2, "judged": 4}
    assert dimension["runs"]["passed"] == 1 and dimension["runs"]["judged"] == 2


MARKED = {name: f"{ANSWERS['good']}\n<{name}>" for name in
          ("prose-then-json", "prose", "wrong-types", "empty", "rate-limited", "server-error", "stalls", "fenced")}


_LIMITED: set[tuple[str, int | None]] = set()


def _faulty(asked: Asked, index: int) -> Reply:
    marker = asked.answer.rsplit("<", 1)[-1].rstrip(">")
    if marker == "prose-then-json":
        return chat("I think the answer is friendly.") if asked.turn == 1 else verdict(True, "fixed on the second turn")
    if marker == "prose":
        return chat("Looks friendly to me!")
    if marker == "wrong-types":
        return chat('{"reason": "ok", "passed": "yes"}')
    if marker == "empty":
        return chat("")
    if marker == "rate-limited" and (asked.rubric, asked.seed) not in _LIMITED:  # the first ask of each sample
        _LIMITED.add((asked.rubric, asked.seed))
        return Reply(status=429, body={"error": "slow down"}, headers={"Retry-After": "0"})
    if marker == "server-error":
        return Reply(status=500, body={"error": "overloaded"})
    if marker == "stalls":  # 15 bytes, one a second: far beyond the timeout
        return Reply(body={"choices": []}, drip_s=1.0)
    if marker == "fenced":
        return chat('```json\n{"reason": "fenced but fine", "passed": false}\n```')
    return verdict(True)


@pytest.mark.slow  # a real server on 127.0.0.1 whose stalled replies wait out a 2 s timeout
def test_bad_replies_and_endpoint_failures_end_as_recorded_judge_errors(project: Path) -> None:
    # the timeout is far above what a loopback reply costs, however loaded the machine (0.3 s was not);
    # enough slots that the six stalled samples wait out their timeouts together
    result, document, _ = judged(project, _faulty, MARKED,
                                 judge_extra="  retries: 1\n  timeout_s: 2\n  concurrency: 16\n", network=True)
    assert result.exit_code == 0, result.output
    found = {name: _by_run(document)[run] for run, name in enumerate(MARKED)}
    details = {name: record["rubrics"][0]["samples"][0]["error"] or "" for name, record in found.items()}
    assert found["prose-then-json"]["judge"] == "pass"
    assert found["prose-then-json"]["rubrics"][0]["samples"][0]["reason"] == "fixed on the second turn"
    assert found["fenced"]["judge"] == "fail"
    assert found["rate-limited"]["judge"] == "pass"
    for name in ("prose", "wrong-types", "empty", "server-error", "stalls"):
        assert found[name]["judge"] == "error", name
        assert found[name]["rubrics"][0]["votes"] == {"pass": 0, "fail": 0, "error": 3}
    assert details["prose"].startswith("the judge's reply was not the JSON asked for after 3 attempt(s): text before")
    assert '"passed" must be true or false' in details["wrong-types"]
    assert "an empty reply" in details["empty"]
    assert details["server-error"].startswith("judge endpoint: HTTP 500") and "(after 2 attempts)" in details["server-error"]
    assert "timed out after 2 s" in details["stalls"]
    assert "no majority of 3 samples (0 pass · 0 fail · 3 error)" in found["stalls"]["rubrics"][0]["detail"]
    markdown = (project / "gate-results" / "judge.md").read_text(encoding="utf-8")
    assert "Rubrics the judge could not decide" in markdown
    assert document["overall"]["errors"] == 2 * 5  # friendly and three_and_friendly of the five broken runs


def test_a_correction_turn_carries_the_bad_reply_and_what_was_wrong(project: Path) -> None:
    bodies: list[dict[str, Any]] = []

    def script(asked: Asked, index: int) -> Reply:
        bodies.append(asked.body)
        return chat("Sure: passed") if asked.turn == 1 else verdict(True)

    judged(project, script, {"good": ANSWERS["good"]}, "--samples", "1")
    second = next(b for b in bodies if len(b["messages"]) == 4)
    assert second["messages"][2] == {"role": "assistant", "content": "Sure: passed"}
    assert "text before the JSON object" in second["messages"][3]["content"]


def test_replies_are_cached_and_no_cache_asks_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)  # a cache without a key is read outside CI only
    monkeypatch.delenv("GATE_JUDGE_CACHE_KEY", raising=False)
    cache = str(project / "judge-cache")
    answers = {"good": ANSWERS["good"], "cold": ANSWERS["cold"]}
    with socket.socket() as probe:  # the endpoint is part of the key: the same one, on the same port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    first, document, asked = judged(project, lambda a, i: verdict(True), answers, cache=cache, port=port)
    assert first.exit_code == 0 and asked == 2 * 2 * 3 and document["usage"]["cached"] == 0
    _, document, asked = judged(project, lambda a, i: verdict(False), answers, cache=cache, port=port)
    assert asked == 0 and document["usage"] == {**document["usage"], "requests": 0, "cached": 12}
    assert {r["judge"] for r in document["constraints"]} == {"pass"}  # the cached replies, not the new script
    _, document, asked = judged(project, lambda a, i: verdict(False), answers, "--no-cache", cache=cache, port=port)
    assert asked == 12 and {r["judge"] for r in document["constraints"]} == {"fail"}


def test_fail_under_and_an_unavailable_endpoint_have_their_exit_codes(project: Path) -> None:
    answers = {"good": ANSWERS["good"], "cold": ANSWERS["cold"]}
    half = judged(project, lambda a, i: verdict(a.answer == ANSWERS["good"]), answers, "--fail-under", "0.9")[0]
    assert half.exit_code == 1 and "pass rate 50.0% is under --fail-under 90.0%" in half.output
    enough = judged(project, lambda a, i: verdict(a.answer == ANSWERS["good"]), answers, "--fail-under", "0.5")[0]
    assert enough.exit_code == 0
    down, document, _ = judged(project, lambda a, i: Reply(status=503, body={}), answers,
                               judge_extra="  retries: 0\n")
    assert down.exit_code == 4 and "the judge endpoint was unavailable" in down.output
    assert {r["judge"] for r in document["constraints"]} == {"error"}  # and the reports are still written


def test_cost_is_reported_from_usage_and_prices(project: Path) -> None:
    price = "  price: {prompt_per_mtok: 2.5, completion_per_mtok: 10, currency: USD}\n"
    _, document, _ = judged(project, lambda a, i: verdict(True), {"good": ANSWERS["good"]}, judge_extra=price)
    usage = document["usage"]
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (6 * 900, 6 * 30)
    assert usage["cost"] == pytest.approx((5400 * 2.5 + 180 * 10) / 1e6) and usage["currency"] == "USD"
    assert "≈ 0.0153 USD" in (project / "gate-results" / "judge.md").read_text(encoding="utf-8")


def test_judge_and_reason_text_cannot_mark_up_the_report_or_mention_anyone(project: Path) -> None:
    hostile = "\x1b[31m@octocat <img src=x> **bold** | cell"
    _, document, _ = judged(project, lambda a, i: verdict(False, hostile), {"good": ANSWERS["good"]})
    markdown = (project / "gate-results" / "judge.md").read_text(encoding="utf-8")
    assert "\x1b" not in json.dumps(document) and "\x1b" not in markdown
    assert "@\u200doctocat" in markdown and "<img" not in markdown and "\\*\\*bold\\*\\*" in markdown


@pytest.mark.parametrize("args, config, message", [
    ([], "cases: {path: cases}\n", "gate.yaml has no judge: section"),
    (["--results", "missing.json"], None, "results file not found"),
    (["--case", "B3-QC-90"], None, "unknown case B3-QC-90 — did you mean 'B3-QC-09'?"),
])
def test_unusable_input_is_a_clear_error(project: Path, args: list[str], config: str | None, message: str) -> None:
    (project / "gate.yaml").write_text(config or config_text("http://127.0.0.1:9", cases="cases"), encoding="utf-8")
    _records(project / "runs.jsonl", {"good": ANSWERS["good"]})
    chosen = args if "--results" in args else ["--trajectories", "runs.jsonl", *args]
    result = CliRunner().invoke(main, ["judge", *chosen])
    assert result.exit_code == 2 and message in result.output, result.output


def test_results_without_their_trajectories_say_what_is_needed(project: Path) -> None:
    (project / "gate.yaml").write_text(config_text("http://127.0.0.1:9", cases="cases"), encoding="utf-8")
    (project / "out").mkdir()
    (project / "out" / "results.json").write_text("{}", encoding="utf-8")
    result = CliRunner().invoke(main, ["judge", "--results", "out/results.json"])
    assert result.exit_code == 2 and "the judge needs the trajectories.jsonl" in result.output


def test_a_bad_judge_section_names_the_key(project: Path) -> None:
    (project / "gate.yaml").write_text("cases: {path: cases}\njudge: {url: localhost:8000, model: m, sampels: 3}\n",
                                       encoding="utf-8")
    result = CliRunner().invoke(main, ["judge", "--trajectories", "runs.jsonl"])
    assert result.exit_code == 2
    assert "gate.yaml:2: judge.url: url must start with http:// or https:// (+1 more error(s))" in result.output
    every = CliRunner().invoke(main, ["validate"])
    assert every.exit_code == 2 and "judge.sampels" in every.output and "did you mean 'samples'" in every.output


def test_runs_are_collected_from_the_agent_when_none_are_given(project: Path) -> None:
    records = [json.dumps({"case_id": "B3-QC-09", "group": g, "run": 0, "final_answer": ANSWERS["good"]}) for g in "AB"]
    (project / "replay.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    agent = f"  adapter: replay\n  trajectories: {project / 'replay.jsonl'}\n"
    with judge_mocked(lambda asked, index: verdict(True)) as server:
        (project / "gate.yaml").write_text(config_text(server.url, cases="cases", agent=agent).split("judge:")[0],
                                           encoding="utf-8")  # no judge: section — the command line names it
        tagged = run("judge", "--tag", "nightly", "--url", f"{server.url}/v1", "--model", "stand-in")
        collected = run("judge", "--all-cases", "--url", f"{server.url}/v1", "--model", "stand-in", "--samples", "1")
    assert tagged.exit_code == 2 and "no case selected (tags: nightly" in tagged.output
    assert collected.exit_code == 0, collected.output
    document = judge_json(project / "gate-results")
    assert sorted((r["group"], r["constraint"]) for r in document["constraints"]) == [
        ("A", "friendly"), ("A", "three_and_friendly"), ("B", "friendly"), ("B", "three_and_friendly")]
    assert document["judge"]["samples"] == 1 and document["judge"]["url"] == f"{server.url}/v1/chat/completions"


def test_a_stop_while_judging_still_writes_every_report_and_exits_130(project: Path) -> None:
    import os
    import signal
    import threading

    def script(asked: Asked, index: int) -> Reply:
        if index == 3:  # a few verdicts in, the runner is told to stop
            threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
        if index >= 3:
            return Reply(body={"choices": []}, drip_s=0.5)
        return verdict(True)

    result, document, _ = judged(project, script, {"good": ANSWERS["good"], "cold": ANSWERS["cold"]},
                                 judge_extra="  concurrency: 1\n", network=True)
    assert result.exit_code == 130, result.output
    assert document["interrupted"] is True
    assert len(document["constraints"]) < 4  # runs the stop left half-judged are not reported as judged
    assert "interrupted" in (project / "gate-results" / "judge.md").read_text(encoding="utf-8")
    assert (project / "gate-results" / "review-queue.jsonl").exists()


def test_a_judge_that_was_never_started_is_given_up_on_after_three_samples(project: Path) -> None:
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (project / "gate.yaml").write_text(config_text(f"http://127.0.0.1:{port}", cases="cases",
                                                   judge_extra="  retries: 0\n  concurrency: 1\n"), encoding="utf-8")
    result = run("judge", "--trajectories", str(_records(project / "runs.jsonl", {"good": ANSWERS["good"],
                                                                                  "cold": ANSWERS["cold"]})))
    assert result.exit_code == 4 and "the judge endpoint was unavailable" in result.output
    document = judge_json(project / "gate-results")
    errors = [vote["error"] for r in document["constraints"] for rubric in r["rubrics"] for vote in rubric["samples"]]
    assert len(errors) == 12 and all(errors)
    assert sum(e.startswith("judge endpoint: not sent: the first 3 calls found nothing listening") for e in errors) == 9


def test_a_malformed_reply_is_that_sample_s_error_and_the_rest_are_judged(project: Path) -> None:
    def script(asked: Asked, index: int) -> Reply:
        if asked.answer == ANSWERS["cold"] and asked.seed == 1:
            return Reply(body={"choices": [{"message": {"content": '{"reason": "ok", "passed": true}',
                                                        "tool_calls": 3}}], "usage": "many"})
        return verdict(True)

    result, document, _ = judged(project, script, {"good": ANSWERS["good"], "cold": ANSWERS["cold"]})
    assert result.exit_code == 0, result.output
    good, cold = _by_run(document)[0], _by_run(document)[1]
    assert good["rubrics"][0]["votes"] == {"pass": 3, "fail": 0, "error": 0}
    assert cold["rubrics"][0]["votes"] == {"pass": 2, "fail": 0, "error": 1}
    (failed,) = [s for s in cold["rubrics"][0]["samples"] if s["error"]]
    assert failed["error"] == 'judge endpoint: the chat-completions response is malformed: usage must be an object, got "many"'


@pytest.mark.parametrize("cache", ["false", ".judge-cache"])
def test_a_lone_surrogate_in_the_judge_s_reply_is_replaced_not_a_crash(project: Path, cache: str) -> None:
    def script(asked: Asked, index: int) -> Reply:  # "\ud83d": half an emoji, in the reply's JSON string
        return Reply(raw=b'{"choices": [{"message": {"content": "{\\"reason\\": \\"half \\ud83d emoji\\", '
                         b'\\"passed\\": true}"}}]}')

    result, document, _ = judged(project, script, {"good": ANSWERS["good"]}, cache=cache)
    assert result.exit_code == 0, result.output
    assert _by_run(document)[0]["rubrics"][0]["samples"][0]["reason"] == "half ? emoji"


def test_judge_requests_in_flight_are_held_to_the_descriptors_the_process_may_open(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.runner import fdlimit

    def refuse(kind: int, limits: tuple[int, int]) -> None:
        raise ValueError("not allowed")  # the hard limit is the soft one: nothing to raise it to

    monkeypatch.setattr(fdlimit.resource, "getrlimit", lambda kind: (64, 64))
    monkeypatch.setattr(fdlimit.resource, "setrlimit", refuse)
    result, document, _ = judged(project, lambda asked, index: verdict(True), {"good": ANSWERS["good"]},
                                 judge_extra="  concurrency: 64\n")
    assert result.exit_code == 0, result.output
    assert "gate: warning: judge.concurrency 64 needs about" in result.stderr
    assert "more than this process may open (64, ulimit -n): running" in result.stderr
    assert _by_run(document)[0]["rubrics"][0]["votes"] == {"pass": 3, "fail": 0, "error": 0}


def test_a_judge_that_decided_nothing_exits_4_though_its_endpoint_answered(project: Path) -> None:
    answers = {"good": ANSWERS["good"], "cold": ANSWERS["cold"]}
    result, document, requests = judged(project, lambda a, i: chat("I think it passes."), answers,
                                        judge_extra="  format_retries: 0\n")
    assert requests == 2 * 2 * 3  # every sample answered, none with the JSON asked for
    assert result.exit_code == 4, result.output
    assert "the judge decided none of its 4 rubric verdicts; first: no majority of 3 samples" in result.output
    assert document["overall"] == {**document["overall"], "judged": 0, "errors": 4}  # written, errors apart
    markdown = (project / "gate-results" / "judge.md").read_text(encoding="utf-8")
    assert "**0 of 4 rubric verdicts failed**" in markdown and "· **4 undecided** (judge errors" in markdown


def test_one_decided_verdict_is_not_nothing(project: Path) -> None:
    answers = {"good": ANSWERS["good"], "cold": ANSWERS["cold"]}
    result, document, _ = judged(project, lambda a, i: verdict(True) if a.answer == ANSWERS["good"] else chat("hm"),
                                 answers, judge_extra="  format_retries: 0\n")
    assert result.exit_code == 0, result.output
    assert (document["overall"]["judged"], document["overall"]["errors"]) == (2, 2)
