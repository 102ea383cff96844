"""Why a structure the reader found is not the picks: notes, questions, criteria, plans and offers,
checklists of the request, one item's attributes, a draft a correction replaces — said in words a
report can show."""

from __future__ import annotations

from gate.lexicon import charset, source
from gate.text.asides import aside, led_by
from gate.text.cues import criteria_lead, notes_label, notes_lead
from gate.text.deferred import deferred
from gate.text.item import ItemList
from gate.text.layouts import attributes_only, clauses_of_a_named_lead, lead_units
from gate.text.markdown import MarkdownDoc
from gate.text.runs import Unit


def notes(all_units: list[Unit], line: int) -> bool:
    """True when the candidate at ``line`` is led by a notes label ("选购建议：" "### 怎么选？"), by a
    line introducing advice, criteria or exclusions ("买之前可以留意这几点："), by a plan ("我先梳理一下
    思路：") or by an offer of more help ("如果需要，我还可以：")."""
    lead = lead_units(all_units, line)
    if any(led_by(u.text, "correction_lead") for u in lead):
        return False  # "等等，去掉第 4 款，最终推荐：" sets the draft's extra aside and gives the picks again
    if lead and _checked_re().match(lead[0].raw) and not _label_end_re().search(lead[0].text):
        return False  # "✅ 不推荐火锅" ends a checklist above the list; "❌ **排除了：**" labels one
    return (any(notes_label(u.text) for u in lead) or (bool(lead) and notes_lead(lead[0].text)) or aside(lead)
            or checklist_led(lead))


def checklist_led(lead: list[Unit]) -> bool:
    """Led by a line that checks the answer against the request ("需求核对：", "Checklist:")."""
    return bool(lead) and led_by(lead[0].text, "checklist_lead")


# A list entry ticked or crossed off ("- ✅ 恰好 3 款", "2. ❌ 不推荐火锅", "- [x] JSON 格式").
_checked_re = deferred(lambda: rf"^\s*(?:[-*+•]|\d{{1,2}}{charset('enumeration_comma', also='.)')})?\s*{source('check_mark')}")


_label_end_re = deferred(lambda: charset("colon") + r"\W*$")


def checked(candidate: ItemList, doc: MarkdownDoc) -> bool:
    """Every entry of ``candidate`` ticked or crossed off: a checklist, if anything else is read."""
    lines = doc.lines
    return len(candidate.items) >= 2 and all(
        0 < item.line <= len(lines) and _checked_re().match(lines[item.line - 1]) for item in candidate.items)


def criteria(all_units: list[Unit], line: int) -> bool:
    """The candidate at ``line`` lists selection criteria ("先从这几个角度想一想："), not items."""
    lead = lead_units(all_units, line)
    return bool(lead) and criteria_lead(lead[0].text)


_question_re = deferred(lambda: charset("question_mark") + r"\s*$")


def questions(candidate: ItemList) -> bool:
    """Every entry a question to the user ("能吃辣吗？" "大概住在哪个区域？"): a clarification, not items."""
    return bool(candidate.items) and all(_question_re().search(item.text.split("\n", 1)[0]) for item in candidate.items)


def why_set_aside(candidate: ItemList, all_units: list[Unit], doc: MarkdownDoc | None = None) -> str | None:
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
    if checklist_led(lead) or (doc is not None and checked(candidate, doc)):
        return "a checklist of the request"
    if criteria(all_units, candidate.line):
        return "selection criteria"
    if notes(all_units, candidate.line):
        return "notes: advice, a summary or exclusions"
    return None
