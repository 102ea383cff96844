"""Case files for tests: one template for the fields every case needs, so a test states only what
it is about (its constraints, examples, groups, repeats)."""

from __future__ import annotations

import json


def case_yaml(
    constraints: list[str],
    passing: list[str],
    failing: list[tuple[str, list[str]]],
    *,
    case_id: str = "B3-QC-01",
    suite: str = "B3",
    dimension: str = "QC",
    prompt: str = "推荐 3 款",
    groups: str = "A: {skill_enabled: false}",
    extra: str = "",
) -> str:
    """A valid case file. ``constraints`` are YAML flow mappings; ``passing`` answers that pass;
    ``failing`` (answer, constraint ids it fails) pairs."""
    lines = [
        f"id: {case_id}", f"suite: {suite}", f"dimension: {dimension}", "title: t", "difficulty: easy",
        "scoring: auto", "tags: [golden]", "input:",
        f"  messages: [{{role: user, content: {json.dumps(prompt, ensure_ascii=False)}}}]",
        "groups:", *(f"  {line}" for line in groups.splitlines()), *(extra.splitlines()), "constraints:",
        *(f"  - {c}" for c in constraints), "examples:",
        f"  pass: [{', '.join('{final_answer: ' + json.dumps(a, ensure_ascii=False) + '}' for a in passing)}]",
        "  fail: [" + ", ".join("{final_answer: " + json.dumps(a, ensure_ascii=False) + f", fails: [{', '.join(ids)}]}}"
                                for a, ids in failing) + "]",
    ]
    return "\n".join(lines) + "\n"
