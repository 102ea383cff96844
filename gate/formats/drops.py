"""The drop a check's runs could have detected, per dimension, as the terminal and the PR comment say it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def points(drop: object) -> str:
    """A drop (a share of 1) in whole points; — where the runs could detect none."""
    return f"{float(drop) * 100:.0f}" if isinstance(drop, float) else "—"


def detectable_drops(decisions: Iterable[Mapping[str, object]]) -> dict[str, str]:
    """Per dimension, from its decisions (results.json's ``decision.dimensions``): "81/70 pts (A/B)"
    after the first round, "19 pts after 6 more round(s)" once it was given more rounds."""
    first: dict[str, list[tuple[str, str]]] = {}
    more: dict[str, str] = {}
    for entry in decisions:
        dimension = str(entry["dimension"])
        if entry.get("stage") == "more rounds":
            more[dimension] = f"{points(entry['detectable_drop'])} pts after {entry['rounds']} more round(s)"
        else:
            first.setdefault(dimension, []).append((str(entry["group"]), points(entry["detectable_drop"])))
    shown = {d: f"{'/'.join(p for _, p in found)} pts ({'/'.join(g for g, _ in found)})" for d, found in first.items()}
    shown.update(more)
    return shown
