"""An answer a token limit cut inside its last entry ("5. **春园海鲜广" and nothing after): the entry
may be a pick the user never got, so a count it changes is uncertain rather than guessed."""

from __future__ import annotations

from dataclasses import replace

from gate.lexicon import charset
from gate.text.deferred import deferred
from gate.text.item import ItemList

_opening_re = deferred(lambda: charset("open_bracket", "label_open", "title_open"))
_closing_re = deferred(lambda: charset("close_bracket", "label_close", "title_close"))
_clause_mark_re = deferred(lambda: charset("comma", "colon", "full_stop", "semicolon", "enumeration_comma",
                                           "exclamation_mark", "question_mark"))


def _unclosed(text: str) -> bool:
    """Emphasis or a bracket opened and never closed, with nothing but a name after it ("**春园海鲜广"):
    cut off as it was written. An unclosed bold before a whole description ("**Soundcore：¥599，…")
    is only a slip of formatting."""
    opened = [text.rfind(mark) for mark in ("**", "__") if text.count(mark) % 2 == 1]
    if len(_opening_re().findall(text)) > len(_closing_re().findall(text)):
        opened.append(max(match.start() for match in _opening_re().finditer(text)))
    return any(_clause_mark_re().search(text[start:]) is None for start in opened)


def cut_off(found: ItemList, answer: str) -> ItemList:
    """``found`` with its last entry marked unread when the answer ends inside it, unclosed."""
    if not found.items or found.unread_picks:
        return found
    last = found.items[-1].text.strip()
    tail = last.splitlines()[-1].strip() if last else ""
    if not tail or not answer.rstrip().endswith(tail) or not _unclosed(tail):
        return found
    return replace(found, unread_picks=1, unread_why="the answer ends inside its last entry")
