"""Case files for tests: one template for the fields every case needs, so a test states only what
it is about (its constraints, examples, groups, repeats), and the repository's own case set."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from gate.cases.loader import CaseSet, load_cases

REPO_CASES = Path(__file__).resolve().parents[1] / "cases"


@functools.cache
def repo_cases() -> CaseSet:
    """The repository's cases/, loaded once a process: the cases are frozen models, read by many tests."""
    return load_cases(REPO_CASES)


def case_yaml(
    constraints: list[str],
    passing: list[str],
    failing: list[tuple[str, list[str]]],
    *,
    case_id: str = "B3-QC-01",
    title: str = "t",
    suite: str = "B3",
    dimension: str = "QC",
    prompt: str = "推荐 3 款",
    groups: str = "A: {skill_enabled: false}",
    extra: str = "",
) -> str:
    """A valid case file. ``constraints`` are YAML flow mappings; ``passing`` answers that pass;
    ``failing`` (answer, constraint ids it fails) pairs."""
    lines = [
        f"id: {case_id}", f"suite: {suite}", f"dimension: {dimension}", f"title: {title}", "difficulty: easy",
        "scoring: auto", "tags: [golden]", "input:",
        f"  messages: [{{role: user, content: {json.dumps(prompt, ensure_ascii=False)}}}]",
        "groups:", *(f"  {line}" for line in groups.splitlines()), *(extra.splitlines()), "constraints:",
        *(f"  - {c}" for c in constraints), "examples:",
        f"  pass: [{', '.join('{final_answer: ' + json.dumps(a, ensure_ascii=False) + '}' for a in passing)}]",
        "  fail: [" + ", ".join("{final_answer: " + json.dumps(a, ensure_ascii=False) + f", fails: [{', '.join(ids)}]}}"
                                for a, ids in failing) + "]",
    ]
    return "\n".join(lines) + "\n"


_QC_HEAD = """\
id: QC-01
suite: B3
dimension: QC
title: 精确数量
difficulty: easy
scoring: auto
tags: [golden]
input:
  messages:
    - {role: user, content: 推荐 3 款降噪耳机}
groups:
  A: {skill_enabled: false}
  B: {skill_enabled: true, active_skills: [product_recommendation_skill]}
constraints:
  - id: exactly_3
    check: items:count
"""
_QC_TAIL = """\
examples:
  pass:
    - final_answer: "1. Bose\\n2. Apple\\n3. 华为\\n"
  fail:
    - fails: [exactly_3]
      final_answer: "1. Bose\\n2. Apple\\n"
"""


def qc_case(*, flow_params: bool) -> str:
    """The block-style case file the input-error tests edit line by line (their messages name
    lines, so the two forms of ``params`` are kept exactly as those tests expect them)."""
    params = "    params: {exact: 3}\n" if flow_params else "    params:\n      exact: 3\n"
    return _QC_HEAD + params + _QC_TAIL
