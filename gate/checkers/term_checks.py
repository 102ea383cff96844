"""Forbidden and required terms, with the alias groups of the lexicon, over the answer or only its items."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator, model_validator

from gate import lexicon
from gate.checkers.base import Params, checker
from gate.errors import did_you_mean
from gate.lexicon import charset, source
from gate.subject import Subject
from gate.text import terms as term_text
from gate.text.canonical import canonical, visible
from gate.text.deferred import deferred
from gate.text.names import called
from gate.verdict import Outcome

Scope = Literal["answer", "items", "item_names"]


class TermsParams(Params):
    terms: list[str] = Field(default_factory=list)
    """Literal terms; a ``re:`` prefix makes a regular expression."""
    groups: list[str] = Field(default_factory=list)
    """Alias groups from the library (sony, apple, xiaomi, gaming_laptop, …)."""
    scope: Scope = "answer"
    """answer: anywhere; items: the recommended items' text; item_names: only their names."""

    @field_validator("terms")
    @classmethod
    def _valid_terms(cls, value: list[str]) -> list[str]:
        for term in value:
            if not term.strip() or term.strip() == "re:":
                raise ValueError("a term must not be empty")
            if term.startswith("re:"):
                try:
                    compiled = re.compile(term[3:])
                except re.error as exc:
                    raise ValueError(f"bad regular expression '{term}': {exc}") from None
                if compiled.fullmatch(""):
                    raise ValueError(f"regular expression '{term}' matches the empty string")
        return value

    @field_validator("groups")
    @classmethod
    def _known_groups(cls, value: list[str]) -> list[str]:
        for group in value:
            if group not in lexicon.aliases():
                raise ValueError(f"unknown alias group '{group}'{did_you_mean(group, lexicon.aliases())}")
        return value

    @model_validator(mode="after")
    def _something(self) -> TermsParams:
        if not self.terms and not self.groups:
            raise ValueError("give terms or groups")
        return self


# A bracketed note after a name ("天津（距北京高铁 30 分钟）" "串串香（签签计价的“小火锅”）") says
# something about the item, not what it is (``bracket_note``); a short plain apposition ("（智能手表）") stays.
def _bracket_note() -> str:
    note = charset("open_bracket", "close_bracket", negated=True)
    return rf"\s*{charset('open_bracket')}(?P<note>{note}*){charset('close_bracket')}"


_bracket_note_re = deferred(_bracket_note)
_APPOSITION_MAX = 6


def _without_notes(name: str) -> str:
    def strip(match: re.Match[str]) -> str:
        note = match.group("note")
        return "" if lexicon.pattern("bracket_note").search(note) or len(note) > _APPOSITION_MAX else match.group(0)

    return _bracket_note_re().sub(strip, name).strip() or name


def _texts(subject: Subject, scope: Scope) -> list[tuple[str, str]]:
    if scope == "answer":
        return [("answer", subject.answer)]
    if scope == "item_names":
        return [(f"item '{item.name}'", called(_without_notes(item.name), item.description))
                for item in subject.items.items]
    return [(f"item '{item.name}'", item.text) for item in subject.items.items]


def _clause() -> str:
    """A character of the same clause: no clause break."""
    return charset("comma", "full_stop", "semicolon", "exclamation_mark", "question_mark", also=".\n", negated=True)


def _excused_before() -> str:
    # An item that says what it is not ("非游戏本", "不是苹果", "不像《7 天精通 Java》那类速成书") restates
    # the filter, and one that measures itself against a brand ("做工媲美 MacBook Air", "不输入门游戏本")
    # does not recommend it. A negation may stand a few words off ("不属于传统游戏本"); "非" only right
    # before ("非常" is no negation). A comparison may frame the term ("和 MacBook Air 一较高下",
    # "只有游戏本的一半").
    return (rf"(?:{source('not_prefix')}\s{{0,3}}|{source('is_not')}{_clause()}{{0,6}}"
            rf"|{source('compared_to')}{_clause()}{{0,4}})$")


_excused_before_re = deferred(_excused_before)
_compared_with_re = deferred(lambda: rf"{source('compared_with')}{_clause()}{{0,4}}$")
_comparison_after_re = deferred(lambda: rf"^{_clause()}{{0,8}}?{source('on_par')}")
_fraction_after_re = deferred(lambda: rf"^\s{{0,3}}{source('fraction')}")


# Every excuse above spans a few characters; the windows bound the look around each hit, so an item
# with thousands of hits is read in one pass.
_WINDOW = 24


def _excused(folded: str, hit: term_text.Hit) -> bool:
    """``folded`` is the canonical form the hit was found in (``Hit.canonical_span`` indexes it)."""
    start, end = hit.canonical_span
    before, after = folded[max(0, start - _WINDOW) : start], folded[end : end + _WINDOW]
    if _excused_before_re().search(before) or _fraction_after_re().match(after):
        return True
    return _compared_with_re().search(before) is not None and _comparison_after_re().match(after) is not None


def _term_name(term: str, params: TermsParams) -> str:
    """How a detail names the term that matched: the term itself, an alias pattern by its group
    ("sony"), a pattern of the case by its place ("terms[1]") — a raw regex is never printed."""
    if not term.startswith("re:"):
        return term
    group = next((g for g in reversed(params.groups) if term in lexicon.aliases()[g]), None)
    if group is not None and term not in params.terms:
        return group
    return f"pattern terms[{params.terms.index(term)}]" if term in params.terms else "a pattern"


@checker("terms:forbidden", TermsParams,
         "none of the terms or their aliases appear (in the answer or in the items); a term 're:…' is a regular expression")
def terms_forbidden(subject: Subject, params: TermsParams) -> Outcome:
    wanted = term_text.expand(params.terms, params.groups)
    if params.scope != "answer" and not subject.items.items:
        if not term_text.find(subject.answer, wanted):  # no item could hold what the answer lacks
            return Outcome.passed(f"none of {len(wanted)} forbidden terms anywhere (no items found)")
        return Outcome.errored("no items found, so the items cannot be checked for forbidden terms")
    hits = [
        (where, hit)
        for where, text in _texts(subject, params.scope)
        for form in [canonical(text)]
        for hit in term_text.find_in(text, form, wanted)
        if params.scope == "answer" or not _excused(form.text, hit)
    ]
    if hits:
        shown = "; ".join(f"'{visible(hit.matched)}' ({_term_name(hit.term, params)}) in {where}" for where, hit in hits[:4])
        return Outcome.failed(f"{len(hits)} forbidden mention(s): {shown}", tuple(hit.matched for _, hit in hits))
    return Outcome.passed(f"none of {len(wanted)} forbidden terms in the {params.scope.replace('_', ' ')}")


class RequiredTermsParams(TermsParams):
    min_matches: int | None = Field(None, ge=1)
    """How many distinct terms must appear; default: all of them (each group counts as one)."""


@checker("terms:required", RequiredTermsParams,
         "the required terms (or enough of them) appear; a term 're:…' is a regular expression")
def terms_required(subject: Subject, params: RequiredTermsParams) -> Outcome:
    wanted: list[tuple[str, list[str]]] = [(t, [t]) for t in params.terms]
    wanted += [(g, term_text.expand([], [g])) for g in params.groups]
    texts = [text for _, text in _texts(subject, params.scope)]
    present = [label for label, aliases in wanted if any(term_text.find(t, aliases) for t in texts)]
    missing = [label for label, _ in wanted if label not in present]
    need = params.min_matches or len(wanted)
    named = [_term_name(label, params) for label in missing]
    detail = f"{len(present)} of {len(wanted)} present; {need} required" + (f"; missing {named}" if missing else "")
    return Outcome.of(len(present) >= need, detail, tuple(named))
