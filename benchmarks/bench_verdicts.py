"""First-contact agreement of labelled answers with the gate's verdicts: blind corpora and held-out sets.

    python benchmarks/bench_verdicts.py tests/corpus/blind-*.yaml [/elsewhere/heldout.yaml …] [--show]

Each file is a YAML list of entries in the blind-corpus format (tests/corpus/README: ``case``,
``group``, ``answer`` + ``tool_calls`` or ``messages``, ``expect`` — every rule constraint of the
case labelled pass or fail from the seeds' criteria). Every entry is one run, judged with its case's
rule constraints. Per file, and over all files:

- **entries exact**: every labelled constraint got its label (the figure the corpus test counts);
- **runs**: the run's verdict (pass only when every constraint passes) against the label's —
  agreement over the runs the gate decided, wrong passes (the gate passed a run the label fails),
  wrong fails, and the share it left uncertain (never counted as a pass or as agreement).

``--show`` prints each disagreement with the gate's detail and the author's reason. Entries marked
``known:`` or ``disputed:`` count as they are judged; the corpus test lists them.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from gate.case import Case  # noqa: E402
from gate.cases.loader import load_cases  # noqa: E402
from gate.judging.evaluate import evaluate  # noqa: E402
from gate.trajectory import Trajectory  # noqa: E402
from gate.verdict import RunVerdict, Status  # noqa: E402


def trajectory(case: Case, entry: dict[str, Any]) -> Trajectory:
    data: dict[str, Any] = {"case_id": case.id, "group": entry.get("group", "A"), "run": 0}
    if "messages" in entry:
        data["messages"] = entry["messages"]
    else:
        data.update(final_answer=entry["answer"], tool_calls=entry.get("tool_calls") or [])
    return Trajectory.model_validate(data)


def run_state(verdict: RunVerdict, labelled: set[str]) -> str:
    """pass · fail · uncertain, over the labelled constraints only."""
    states = {c.status for c in verdict.constraints if c.id in labelled}
    if Status.FAIL in states or Status.ERROR in states:
        return "fail"
    return "uncertain" if Status.UNCERTAIN in states else "pass"


def tally(entries: list[dict[str, Any]], cases: dict[str, Case], show: bool) -> Counter[str]:
    counts: Counter[str] = Counter()
    for entry in entries:
        case = cases[entry["case"]]
        verdict = evaluate(case, trajectory(case, entry))
        got = {c.id: c.status.value for c in verdict.constraints if c.id in entry["expect"]}
        labelled_pass = all(value == "pass" for value in entry["expect"].values())
        state = run_state(verdict, set(entry["expect"]))
        counts["entries"] += 1
        counts["exact"] += got == entry["expect"]
        counts["uncertain"] += state == "uncertain"
        if state != "uncertain":
            counts["agree"] += (state == "pass") == labelled_pass
            counts["wrong_pass"] += state == "pass" and not labelled_pass
            counts["wrong_fail"] += state == "fail" and labelled_pass
        if show and got != entry["expect"]:
            print(f"--- {entry['id']} {entry['case']} [{entry.get('group', 'A')}] {entry.get('pattern', '')}")
            for key, label in entry["expect"].items():
                if got.get(key) != label:
                    detail = next(c.detail for c in verdict.constraints if c.id == key)
                    print(f"   {key}: label {label}, gate {got.get(key)} — {detail[:300]}")
            print(f"   why: {str(entry.get('why', ''))[:300]}")
    return counts


def line(name: str, c: Counter[str]) -> str:
    runs, decided = c["entries"], c["entries"] - c["uncertain"]
    return (f"| {name} | {runs} | {c['exact']} ({c['exact'] / runs:.1%}) | {c['agree']}/{decided} "
            f"({c['agree'] / max(decided, 1):.1%}) | {c['wrong_pass']} ({c['wrong_pass'] / runs:.1%}) | "
            f"{c['wrong_fail']} | {c['uncertain']} ({c['uncertain'] / runs:.1%}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="corpus files (YAML lists of labelled entries)")
    parser.add_argument("--cases", type=Path, default=REPO / "cases", help="the case directory (default: cases/)")
    parser.add_argument("--show", action="store_true", help="print every disagreement")
    args = parser.parse_args()
    cases = load_cases(args.cases).cases
    print("| corpus | runs | entries exact | runs agreeing (of decided) | wrong passes | wrong fails | uncertain |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    total: Counter[str] = Counter()
    for path in args.files:
        counts = tally(yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader), cases, args.show)
        print(line(path.name, counts), flush=True)
        total.update(counts)
    if len(args.files) > 1:
        print(line("all", total))


if __name__ == "__main__":
    main()
