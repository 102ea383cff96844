"""What a new baseline changes: the (case, group) pairs it lowers or raises, and the dimensions.

Lowering the bar must be a visible, deliberate act: `gate baseline update` prints this diff and
refuses to record lowered pairs unless asked to (``--accept-regressions``).
"""

from __future__ import annotations

from dataclasses import dataclass

from gate.baseline.store import Baseline
from gate.formats.percent import percent
from gate.verdict import RunCount


@dataclass(frozen=True)
class BaselineDiff:
    """Pairs that pass by majority in the old baseline and not in the new (lowered), the reverse
    (raised), pairs only in one of them, and dimension rates that changed."""

    lowered: tuple[str, ...]
    raised: tuple[str, ...]
    added: int
    removed: int
    dimensions: tuple[str, ...]

    def lines(self) -> list[str]:
        if not (self.lowered or self.raised or self.added or self.removed or self.dimensions):
            return ["baseline unchanged in what it passes"]
        found = []
        if self.lowered:
            found.append(f"lowered ({len(self.lowered)}): {', '.join(self.lowered)}")
        if self.raised:
            found.append(f"raised ({len(self.raised)}): {', '.join(self.raised)}")
        if self.added or self.removed:
            found.append(f"pairs added: {self.added} · removed: {self.removed}")
        if self.dimensions:
            found.append(f"dimensions: {'; '.join(self.dimensions)}")
        return found


def _passing(count: RunCount) -> bool:
    return 2 * count.passed > count.judged


def diff(old: Baseline, new: Baseline) -> BaselineDiff:
    """The changes from ``old`` to ``new``, each list in case id and group order."""
    pairs = sorted({(c, g) for b in (old, new) for c, groups in b.cases.items() for g in groups})
    lowered, raised, added, removed = [], [], 0, 0
    for case_id, group in pairs:
        was, now = old.count(case_id, group), new.count(case_id, group)
        if was is None:
            added += 1
        elif now is None:
            removed += 1
        elif _passing(was) and not _passing(now):
            lowered.append(f"{case_id} ({group}) {was.passed}/{was.judged} → {now.passed}/{now.judged} runs"
                           + (f", {now.uncertain} uncertain" if now.uncertain else ""))
        elif _passing(now) and not _passing(was):
            raised.append(f"{case_id} ({group})")
    dimensions = []
    for key in sorted(set(old.dimensions) | set(new.dimensions)):
        for group in sorted(set(old.dimensions.get(key, {})) | set(new.dimensions.get(key, {}))):
            a, b = old.dimensions.get(key, {}).get(group), new.dimensions.get(key, {}).get(group)
            if a is not None and b is not None and round(a, 4) != round(b, 4):
                dimensions.append(f"{key} ({group}) {percent(a)} → {percent(b)}")
    return BaselineDiff(tuple(lowered), tuple(raised), added, removed, tuple(dimensions))
