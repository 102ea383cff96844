"""Sentence splitting for 'one sentence' constraints, Chinese and English."""

from __future__ import annotations

import re

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.deferred import deferred


def _terminator(lower: bool) -> str:
    # A run of terminators (with closing quotes/brackets) ends a sentence. '.' ends one only when
    # followed by space and a capital/CJK/end — so 3.5, v1.2.3 and 5.5k stay inside — and not after
    # an initial or a one-letter abbreviation part (J. K., U.S., e.g.) or a title (Dr.). After a
    # model name it does end one: "全新 A18. 相机…", "USB-C. It …". Text written all in lower case
    # ("this is one. this is two.") has no capital to mark a new sentence: there a '.' before a
    # space and any letter ends one (abbreviations aside).
    closers = charset("closing_mark") + "*"
    marks = charset("full_stop", "exclamation_mark", "question_mark")
    run = rf"(?:{marks}+|……|\.\.\.|…){closers}"
    if lower:
        after = rf"(?:[A-Za-z]|{source('han')})"
        titles = r"(?<!\b(?:vs|no|st|dr|mr|ms|jr|sr|ca))(?<!\b(?:etc|fig))(?<!\bapprox)"
    else:
        after = rf"(?:[A-Z]|{source('han')})"
        titles = r"(?<!\b(?:Mr|Ms|Dr|St|Jr|Sr|vs|No))(?<!\b(?:Mrs|Fig))"
    initial = charset("open_bracket", also=r"\s.")  # an initial or a one-letter part: J. K., U.S., (e.g.
    return (rf"{run}|(?<!{initial}[A-Za-z])(?<!^[A-Za-z]){titles}"
            rf"\.(?={closers}(?:\s+{after}|\s*$)){closers}")


_terminator_re = deferred(lambda: _terminator(lower=False))
_lower_terminator_re = deferred(lambda: _terminator(lower=True))
_CAPITAL_RE = re.compile(r"[A-Z]")
_HAS_CONTENT_RE = re.compile(r"[^\W_]")


def _end_mark() -> str:
    # An end mark after the last sentence ("（完）", "【完】", "-- The End --") closes the text: no sentence of its own.
    before = charset("open_bracket", "label_open", also=r"\s\[—–~-")
    after = charset("close_bracket", "label_close", "full_stop", "exclamation_mark", also=r"\s\]—–~.-")
    return rf"{before}{{0,4}}{source('end_mark')}{after}{{0,4}}"


_end_mark_re = deferred(_end_mark)


def _quote() -> str:
    # A quotation inside a sentence ("用一句“A18 加持，拍照快人一步！”来概括") is part of it: its own
    # terminators end nothing. Only embedded quotes count — one that opens the text is not embedded.
    pairs = [(pair[0], pair[1]) for pair in lexicon.words("quote_pair")]
    return "(?<=\\S)(?:" + "|".join(rf"{o}[^{o}{c}\n]{{1,80}}{c}" for o, c in pairs) + ")"


_quote_re = deferred(_quote)


def _list_marker() -> str:
    # A line that starts a list item ("- ", "1. ", "1、", "一、") ends what came before it, even
    # without a terminator: bullet points are separate statements, not one sentence.
    numbered = charset("enumeration_comma", "close_bracket", also=".")
    return (rf"(?:[-*+•][ \t]|\d{{1,2}}{numbered}(?!\d)"
            rf"|{source('cn_ordinal_numeral')}{{1,3}}{charset('enumeration_comma')})")


# A blank line ends a paragraph, and the sentence in it with no end mark ("👉 点击下方卡片领券～").
_list_line_re = deferred(lambda: rf"\n(?=[ \t]*{_list_marker()})|\n[ \t]*(?=\n)")
# One whitespace run before the marker: "\s*[ \t]*" would split a long run every possible way.
_leading_marker_re = deferred(lambda: rf"\s*{_list_marker()}")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``; text after the last terminator is one more sentence."""
    sentences: list[list[str]] = []  # each sentence as its pieces, joined once at the end
    for segment in _list_line_re().split(text):
        start = 0
        marker = _leading_marker_re().match(segment)  # the "1." of "1. 第一" ends nothing
        quoted = [(q.start(), q.end() - 1) for q in _quote_re().finditer(segment)]
        next_quote = 0  # quotes and terminators both come in text order: one pass over each
        terminators = _terminator_re() if _CAPITAL_RE.search(segment) else _lower_terminator_re()
        for match in terminators.finditer(segment, marker.end() if marker else 0):
            while next_quote < len(quoted) and quoted[next_quote][1] <= match.start():
                next_quote += 1
            if next_quote < len(quoted) and quoted[next_quote][0] < match.start():
                continue  # inside a quotation
            piece = segment[start : match.end()].strip()
            start = match.end()
            if _HAS_CONTENT_RE.search(piece) and not (sentences and _end_mark_re().fullmatch(piece)):
                sentences.append([piece])
            elif sentences:  # a stray terminator run belongs to the sentence before it
                sentences[-1].append(piece)
        tail = segment[start:].strip()
        if sentences and _end_mark_re().fullmatch(tail):
            sentences[-1].append(tail)
        elif _HAS_CONTENT_RE.search(tail):
            sentences.append([tail])
    return ["".join(pieces) for pieces in sentences]
