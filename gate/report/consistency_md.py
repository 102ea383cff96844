"""The consistency section of the PR comment: a table, and the degradation curve as a Mermaid chart."""

from __future__ import annotations

from typing import Any

from gate.formats.percent import percent
from gate.scoring.consistency import ConsistencyReport, DegradationCurve
from gate.scoring.repeats import GroupConsistency, rounded

_STATUS = {"pass": "✅", "warn": "⚠️", "fail": "❌", None: "—"}


def _pct(value: Any) -> str:
    return percent(value, places=0, missing="—")


def _gain(value: Any) -> str:
    return f"{value * 100:+.0f} pts" if isinstance(value, (int, float)) else "—"


def _yes_no(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "n/a" if value is None else str(value)


def _group_cell(group: GroupConsistency | None) -> str:
    if group is None:
        return "—"
    return f"{_pct(rounded(group.overall))} {_STATUS.get(group.status, '—')} ({group.runs} runs)"


def _chart(curve: DegradationCurve) -> list[str]:
    points = curve.points
    labels = [f"\"{p.case_id} ({p.difficulty or '?'})\"" for p in points]
    series = [[rounded(p.a) for p in points], [rounded(p.b) for p in points]]
    complete = [values for values in series if values and all(isinstance(v, (int, float)) for v in values)]
    if not complete:
        return []  # nothing to draw: the table above says which points are missing
    drawn = [g for g, values in zip(("A", "B"), series, strict=True) if values in complete]
    legend = " and ".join(f"{g} ({colour})" for g, colour in zip(drawn, ("blue", "red"), strict=False))
    # colours that read on white and on GitHub's dark theme; the title names what is drawn
    lines = ["```mermaid",
             '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#1f6feb, #d1242f"}}}}%%',
             "xychart-beta", f'    title "Consistency by task complexity: {legend}"',
             f"    x-axis [{', '.join(labels)}]", '    y-axis "consistency %" 0 --> 100']
    lines += [f"    line [{', '.join(f'{v * 100:.0f}' for v in values if v is not None)}]" for values in complete]
    return [*lines, "```"]


def render_consistency(report: ConsistencyReport) -> list[str]:
    """Markdown lines for the consistency part of a run (empty when there is none)."""
    if not report.cases and not report.curves:
        return []
    lines = ["### Consistency (repeated runs)", "",
             "| case | fields | A | B | stability gain B−A |", "|---|---|---:|---:|---:|"]
    for case in sorted(report.cases, key=lambda c: c.case_id):
        any_group = next(iter(sorted(case.groups.items())), None)
        fields = ", ".join(sorted(f.field for f in any_group[1].fields)) if any_group else ""
        gain = _gain(rounded(case.gain))
        if case.gain_status:
            gain += f" {_STATUS[case.gain_status]}"
        lines.append(f"| {case.case_id} | {fields} | {_group_cell(case.groups.get('A'))} | "
                     f"{_group_cell(case.groups.get('B'))} | {gain} |")
    for curve in sorted(report.curves, key=lambda c: c.case_id):
        verdict = {"pass": "✅ passes", "warn": "⚠️ warns", "fail": "❌ fails"}.get(curve.status or "", "not decided")
        lines += ["", f"**{curve.case_id}** degradation curve: {verdict} · smooth: {_yes_no(curve.smooth)} · "
                  f"B decays less than A: {_yes_no(curve.b_decays_less)}", ""]
        lines += ["| task | A | B |", "|---|---:|---:|"]
        lines += [f"| {p.case_id} ({p.difficulty or '?'}) | {_pct(rounded(p.a))} | {_pct(rounded(p.b))} |"
                  for p in curve.points]
        lines += ["", *_chart(curve)]
    return lines
