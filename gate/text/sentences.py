"""Sentence splitting for 'one sentence' constraints, Chinese and English."""

from __future__ import annotations

import re

# A run of terminators (with closing quotes/brackets) ends a sentence. '.' ends one only when
# followed by space and a capital/CJK/end — so 3.5, v1.2, e.g. and 5.5k stay inside.
_CLOSERS = "”’」』）)\"'】》"
_TERMINATOR_RE = re.compile(
    rf"(?:[。！？!?]+|……|\.\.\.|…)[{_CLOSERS}]*"
    rf"|(?<![A-Z])(?<!\b(?:Mr|Ms|Dr|St|vs|No|eg|ie))(?<![.\d]\w)\.(?=[{_CLOSERS}]*(?:\s+[A-Z\u4e00-\u9fff]|\s*$))[{_CLOSERS}]*"
)
_HAS_CONTENT_RE = re.compile(r"[^\W_]")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``; text after the last terminator is one more sentence."""
    sentences: list[str] = []
    start = 0
    for match in _TERMINATOR_RE.finditer(text):
        piece = text[start : match.end()].strip()
        start = match.end()
        if _HAS_CONTENT_RE.search(piece):
            sentences.append(piece)
        elif sentences:  # a stray terminator run belongs to the sentence before it
            sentences[-1] += piece
    tail = text[start:].strip()
    if _HAS_CONTENT_RE.search(tail):
        sentences.append(tail)
    return sentences
