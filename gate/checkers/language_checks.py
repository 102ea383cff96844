"""The language of the answer ("reply in English", "用中文回答"): the share of its words in one."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from gate.checkers.base import Params, checker
from gate.subject import Subject
from gate.text.units import UNIT_NAMES, count_zi
from gate.verdict import Outcome

_LATIN_WORD_RE = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
_URL_RE = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_NAMES = {"en": "English", "zh": "Chinese"}


class LanguageParams(Params):
    language: Literal["en", "zh"]
    """en: words in Latin letters; zh: Chinese characters (字)."""
    min_share: float = Field(default=0.8, gt=0, le=1)
    """The least share of the answer's words that must be in ``language``."""


def _prose(subject: Subject) -> str:
    """The answer without code blocks and links, whose words are no one's language."""
    text = " ".join(block.text for block in subject.markdown.flow if block.kind != "code")
    return _URL_RE.sub(" ", text)


@checker("text:language", LanguageParams,
         "the answer is written in the language asked: its share of English words or of Chinese characters "
         "(code and links left out)")
def text_language(subject: Subject, params: LanguageParams) -> Outcome:
    prose = _prose(subject)
    zi, latin = count_zi(prose), len(_LATIN_WORD_RE.findall(prose))
    total = zi + latin
    if not total:
        return Outcome.failed(f"no words in English or Chinese; {_NAMES[params.language]} required")
    share = (latin if params.language == "en" else zi) / total
    detail = (f"{share:.0%} {_NAMES[params.language]} ({latin} English words, {zi} {UNIT_NAMES['zi']}); "
              f"at least {params.min_share:.0%} required")
    return Outcome.of(share >= params.min_share, detail)
