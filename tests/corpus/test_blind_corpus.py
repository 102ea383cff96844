"""A corpus written blind — from the seeds' criteria and the case prompts only, by an author who did
not read the checkers — of realistic answers in the patterns real models write: items recommended
after the list, layouts, prices, JSON keys, sections by meaning, forbidden terms. Each answer is
judged with its case's rule constraints and must get the verdict the author labelled.

An entry the rules still get wrong says so (``known: why``), and so does one whose label contradicts
its case's documented reading of the seed (``disputed: why``, kept as the author wrote it): both are
expected failures — counted and listed, never hidden — and fail the run the moment they are judged
as labelled (so the note is then removed)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
import yaml

from gate.case import Case
from gate.judging.evaluate import evaluate
from gate.trajectory import Trajectory
from tests.casefiles import repo_cases

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ("blind.yaml", "blind-composed.yaml", "blind-entities.yaml", "blind-heldout.yaml", "blind-heldout-2.yaml",
           "blind-heldout-3.yaml", "blind-heldout-4.yaml", "blind-heldout-5.yaml", "blind-reasoning.yaml",
           "blind-mixed.yaml", "blind-tables.yaml", "blind-heldout-6.yaml", "blind-heldout-7.yaml",
           "blind-heldout-8.yaml", "blind-heldout-9.yaml", "blind-heldout-10.yaml",
           "blind-heldout-11.yaml", "blind-heldout-12.yaml",
           "blind-heldout-13.yaml", "blind-heldout-14.yaml")
"""Sixteen authors, sixteen briefs: layouts and wordings of the patterns real models write; answers that
compose several structures (groups, tables, criteria lists, prose ordinals, rejected options);
entities across structures — recommended, set aside or merely mentioned; three held-out samples
of realistic answers across the case set, written to no pattern; a fourth on tool trajectories,
lengths, JSON and mixed scripts; a fifth on messy real-world layouts (mixed list markers,
summary rows, unclosed bold, CRLF, tabs); then three in styles none of those covered — reasoning
models and function-calling agents, mixed language and markup, several picks per line and answers
gaming the checks — and a sixth held-out sample across them; a seventh on the assistants of Chinese
consumer apps (shopping cards, voice, support, productivity); an eighth on research reports,
business wrappers, checklists of the request, bilingual answers and parallel tool calls; a ninth on
small local models, social posts and key: value layouts; a tenth, a representative mix of today's
agents with their mistakes as they come; an eleventh on workplace bots, official numbering,
Traditional Chinese, e-mails and YAML or TOML for JSON; a twelfth on answer engines, Singapore and
Malaysia, unusual enumerations, cut-off answers and voice transcripts; a thirteenth, a representative
mix drawn as it comes; a fourteenth, the cheaper production models as they come."""
ENTRIES: list[dict[str, Any]] = [entry for name in CORPORA  # the C loader: read at collection, by every worker
                                 for entry in yaml.load(Path(__file__).with_name(name).read_text(encoding="utf-8"),
                                                        Loader=yaml.CSafeLoader)]


@functools.cache
def cases() -> dict[str, Case]:
    return repo_cases().cases


def _params() -> list[Any]:
    found = []
    for entry in ENTRIES:
        why = entry.get("known") or entry.get("disputed")  # "uncertain" entries are checked as uncertain
        marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
        found.append(pytest.param(entry, id=entry["id"], marks=marks))
    return found


def trajectory(case: Case, entry: dict[str, Any]) -> Trajectory:
    """The entry as a run: its answer and tool calls, or the OpenAI transcript it carries."""
    data: dict[str, Any] = {"case_id": case.id, "group": entry.get("group", "A"), "run": 0}
    if "messages" in entry:
        data["messages"] = entry["messages"]
    else:
        data.update(final_answer=entry["answer"], tool_calls=entry.get("tool_calls", []))
    return Trajectory.model_validate(data)


@pytest.mark.parametrize("entry", _params())
def test_the_rules_give_the_blind_label(entry: dict[str, Any]) -> None:
    case = cases()[entry["case"]]
    verdict = evaluate(case, trajectory(case, entry))
    judged = {c.id: c for c in verdict.constraints if c.id in entry["expect"]}
    got = {key: c.status.value for key, c in judged.items()}
    shown = f"{entry['pattern']}: {entry.get('why', '')}\n" + "\n".join(
        f"  {c.id}: {c.status.value} — {c.detail}" for c in judged.values())
    if entry.get("uncertain"):  # left uncertain, as it says: one of the readings on record gives the label
        unsure = [key for key, status in got.items() if status == "uncertain"]
        assert unsure, shown
        for key in unsure:
            assert entry["expect"][key] in {r.verdict.value for r in judged[key].readings}, shown
        assert {k: v for k, v in got.items() if k not in unsure} == {
            k: v for k, v in entry["expect"].items() if k not in unsure}, shown
        return
    assert got == entry["expect"], shown


def test_the_rules_agree_with_the_blind_labels_on_all_but_the_listed() -> None:
    agreed = [e for e in ENTRIES if not e.get("known") and not e.get("disputed") and not e.get("uncertain")]
    # 644 of 653: the first corpus 52 of 55 (3 labels disputed), the composed one 50 of 50, the
    # entities one 70 of 71 (1 disputed) — 53 of 71 when it was written, against the first cut of the
    # entity model — and the held-out ones 137 of 137, 60 of 60, 80 of 80, 89 of 92 (3 disputed: 2 of
    # them label a <think> block as part of the answer, which is set apart) and 106 of 108 (2 known;
    # 134, 59, 78, 84 and 91 when they were written)
    # The four later ones, first contact → now: reasoning 84 → 97 of 110 (11 disputed: they label a
    # <think> block as part of the answer; 2 known), mixed 56 → 105 of 110 (5 known), tables 75 → 108
    # of 110 (1 left uncertain, as it says; 1 known), held-out 6 105 → 123 of 130 (1 disputed, 1
    # uncertain, 5 known), held-out 7 111 → 127 of 129 (1 left uncertain, as it says; 1 known),
    # held-out 8 121 → 129 of 129, held-out 9 106 → 123 of 125 (2 known), held-out 10
    # 124 → 135 of 138 (3 known), held-out 11 95 → 107 of 110 (3 known), held-out 12 94 → 105 of 110
    # (1 left uncertain, as it says; 4 known), held-out 13 109 → 119 of 120 (1 known), held-out 14
    # 105 → 105 of 110 (2 left uncertain, as they say; 3 known) — entries whose every constraint got
    # its label
    assert len(ENTRIES) >= 2084 and len(agreed) >= len(ENTRIES) - 57


def test_every_entry_labels_every_rule_constraint_of_its_case() -> None:
    for entry in ENTRIES:
        rules = {c.id for c in cases()[entry["case"]].constraints if c.is_rule and c.applies_to(entry.get("group", "A"))}
        assert set(entry["expect"]) == rules, entry["id"]
        assert set(entry["expect"].values()) <= {"pass", "fail"}, entry["id"]
