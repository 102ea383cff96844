"""Why a structure the reader found is not the picks: notes, questions, criteria, plans and offers,
one item's attributes, a draft a correction replaces — said in words a report can show."""

from __future__ import annotations

from gate.lexicon import charset
from gate.text.asides import aside, led_by
from gate.text.cues import criteria_lead, notes_label, notes_lead
from gate.text.deferred import deferred
from gate.text.item import ItemList
from gate.text.layouts import attributes_only, clauses_of_a_named_lead, lead_units
from gate.text.runs import Unit


def notes(all_units: list[Unit], line: int) -> bool:
    """True when the candidate at ``line`` is led by a notes label ("选购建议：" "### 怎么选？"), by a
    line introducing advice, criteria or exclusions ("买之前可以留意这几点："), by a plan ("我先梳理一下
    思路：") or by an offer of more help ("如果需要，我还可以：")."""
    lead = lead_units(all_units, line)
    if any(led_by(u.text, "correction_lead") for u in lead):
        return False  # "等等，去掉第 4 款，最终推荐：" sets the draft's extra aside and gives the picks again
    return any(notes_label(u.text) for u in lead) or (bool(lead) and notes_lead(lead[0].text)) or aside(lead)


def criteria(all_units: list[Unit], line: int) -> bool:
    """The candidate at ``line`` lists selection criteria ("先从这几个角度想一想："), not items."""
    lead = lead_units(all_units, line)
    return bool(lead) and criteria_lead(lead[0].text)


_question_re = deferred(lambda: charset("question_mark") + r"\s*$")


def questions(candidate: ItemList) -> bool:
    """Every entry a question to the user ("能吃辣吗？" "大概住在哪个区域？"): a clarification, not items."""
    return bool(candidate.items) and all(_question_re().search(item.text.split("\n", 1)[0]) for item in candidate.items)


def why_set_aside(candidate: ItemList, all_units: list[Unit]) -> str | None:
    """Why ``candidate`` holds no picks, or ``None`` when it might."""
    if attributes_only(candidate):
        return "one item's attributes"
    if clauses_of_a_named_lead(candidate, all_units):
        return "clauses of the pick named before it"
    if questions(candidate):
        return "questions to the user"
    lead = lead_units(all_units, candidate.line)
    if aside(lead):
        return "a plan or an offer of more help"
    if criteria(all_units, candidate.line):
        return "selection criteria"
    if notes(all_units, candidate.line):
        return "notes: advice, a summary or exclusions"
    return None
