"""Regular expressions compiled when first used rather than when their module is imported.

Loading the cases imports the checkers (their parameter models validate each case's constraints),
and with them the analysers; a run whose verdicts all come from the cache never judges. Compiling
the larger patterns (wide Unicode classes, long alternations under IGNORECASE) was a good part of
that import, so those patterns are compiled on first use instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from gate import lexicon

_DEFERRED: list[Callable[[], re.Pattern[str]]] = []


def deferred(pattern: str | Callable[[], str], flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """A function that returns ``re.compile(pattern, flags)``, compiled on its first call and the
    same pattern object on every later call. ``pattern`` may be a function that builds the
    expression (from the lexicon's classes): it too is called on first use, not at import."""

    @cache
    def compiled() -> re.Pattern[str]:
        return re.compile(pattern if isinstance(pattern, str) else pattern(), flags)

    _DEFERRED.append(compiled)
    return compiled


def compile_deferred() -> None:
    """Compile every deferred pattern of the modules imported so far, and every class of the
    lexicon: a worker thread does this while the agent calls are out, so the first answer judged
    does not pay for it."""
    lexicon.compile_all()
    for compiled in tuple(_DEFERRED):
        compiled()
