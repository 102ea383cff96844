"""The one user-facing error type: raised anywhere, turned into a message and exit code by the CLI."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_UNUSABLE = 2
EXIT_INTERNAL = 3
EXIT_UNAVAILABLE = 4
EXIT_INTERRUPTED = 130  # SIGINT/SIGTERM: the reports so far are written, marked interrupted
"""Most runs of a group ended in agent errors: an outage, not a regression."""


class GateError(Exception):
    """Unusable input: bad config, case, trajectory or baseline file, unknown checker, bad argument.

    The message names the file, the place in it and what was expected. ``where`` is that file, or
    ``file:line``; a place that is not a file (a setting, a pull request) belongs in the message.
    """

    exit_code = EXIT_UNUSABLE

    def __init__(self, message: str, *, where: str | None = None) -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)

    @property
    def problems(self) -> list[GateError]:
        """Each problem on its own: this one (several for :class:`GateErrors`)."""
        return [self]

    @property
    def place(self) -> tuple[str | None, int | None]:
        """The file and line ``where`` names (either may be None)."""
        if not self.where:
            return None, None
        file, sep, line = self.where.rpartition(":")
        if sep and file and line.isdigit():
            return file, int(line)
        return self.where, None

    @property
    def message(self) -> str:
        """What is wrong, without the place."""
        text = str(self)
        return text.removeprefix(f"{self.where}: ") if self.where else text


class GateErrors(GateError):
    """Several problems at once (``gate validate`` reports every one, not only the first)."""

    def __init__(self, problems: list[GateError], summary: str | None = None) -> None:
        """``summary``: what to say when only one line is shown (the first problem and a count)."""
        self._problems = problems
        self.summary = summary
        super().__init__(summary or "\n".join(str(p) for p in problems))
        if summary:
            self.where = problems[0].where

    @property
    def problems(self) -> list[GateError]:
        return self._problems


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """A ' — did you mean 'x'?' suffix for the closest choice, or nothing."""
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""
