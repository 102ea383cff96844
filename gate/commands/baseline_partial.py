"""What a recording lacks before it may become the baseline: runs the configuration plans that it
does not hold (an interrupted check, cases left out) and runs that ended in an agent error. A
baseline recorded from such a run drops or fails the cases it lacks — a case that passed leaves the
bar without a word — so `gate baseline update` records one only when told to (``--accept-partial``),
and says what it accepted."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gate.results import RunKey

Pair = tuple[str, str]


@dataclass(frozen=True)
class Gaps:
    """The (case, group) pairs a recording lacks runs of, with (runs missing, runs planned), and
    those with agent errors, with (runs erred, runs held)."""

    missing: dict[Pair, tuple[int, int]]
    erred: dict[Pair, tuple[int, int]]
    interrupted: bool = False

    def __bool__(self) -> bool:
        return bool(self.missing or self.erred or self.interrupted)

    def lines(self) -> list[str]:
        """What the recording lacks, a line per kind."""
        found = ["the run was interrupted"] if self.interrupted else []
        if self.missing:
            found.append(f"runs missing for {len(self.missing)} (case, group) pair(s): {_listed(self.missing)}")
        if self.erred:
            found.append(f"agent errors in {len(self.erred)} (case, group) pair(s): {_listed(self.erred)}")
        return found


def _listed(pairs: dict[Pair, tuple[int, int]]) -> str:
    return ", ".join(f"{cid} ({group}) {lacking} of {planned} runs" for (cid, group), (lacking, planned) in sorted(pairs.items()))


def gaps(planned: Iterable[RunKey], recorded: Iterable[tuple[RunKey, str | None]], *, interrupted: bool = False) -> Gaps:
    """What ``recorded`` — each run's key and its agent error — lacks of the ``planned`` runs."""
    errors = dict(recorded)
    wanted: dict[Pair, int] = {}
    missing: dict[Pair, int] = {}
    for cid, group, run in planned:
        wanted[(cid, group)] = wanted.get((cid, group), 0) + 1
        if (cid, group, run) not in errors:
            missing[(cid, group)] = missing.get((cid, group), 0) + 1
    held: dict[Pair, int] = {}
    erred: dict[Pair, int] = {}
    for (cid, group, _), error in errors.items():
        held[(cid, group)] = held.get((cid, group), 0) + 1
        if error is not None:
            erred[(cid, group)] = erred.get((cid, group), 0) + 1
    return Gaps(missing={p: (n, wanted[p]) for p, n in missing.items()},
                erred={p: (n, held[p]) for p, n in erred.items()}, interrupted=interrupted)
