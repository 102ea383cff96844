"""The consistency section of the PR comment: a table, and the degradation curve as a Mermaid chart."""

from __future__ import annotations

from typing import Any

from gate.percent import percent

_STATUS = {"pass": "✅", "warn": "⚠️", "fail": "❌", None: "—"}


def _pct(value: Any) -> str:
    return percent(value, places=0, missing="—")


def _gain(value: Any) -> str:
    return f"{value * 100:+.0f} pts" if isinstance(value, (int, float)) else "—"


def _yes_no(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "n/a" if value is None else str(value)


def _group_cell(group: dict[str, Any] | None) -> str:
    if not group:
        return "—"
    return f"{_pct(group.get('overall'))} {_STATUS.get(group.get('status'), '—')} ({group.get('runs', 0)} runs)"


def _chart(curve: dict[str, Any]) -> list[str]:
    points = curve.get("points", [])
    labels = [f"\"{p['case_id']} ({p.get('difficulty') or '?'})\"" for p in points]
    series = [[p.get(g) for p in points] for g in ("A", "B")]
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
    lines += [f"    line [{', '.join(f'{v * 100:.0f}' for v in values)}]" for values in complete]
    return [*lines, "```"]


def render_consistency(report: dict[str, Any]) -> list[str]:
    """Markdown lines for the consistency part of a results document (empty when there is none)."""
    cases = report.get("cases", {})
    curves = report.get("curves", {})
    if not cases and not curves:
        return []
    lines = ["### Consistency (repeated runs)", "",
             "| case | fields | A | B | stability gain B−A |", "|---|---|---:|---:|---:|"]
    for case_id, case in sorted(cases.items()):
        groups = case.get("groups", {})
        any_group: dict[str, Any] = next(iter(groups.values()), {})
        fields = ", ".join(sorted(any_group.get("fields", {})))
        gain = _gain(case.get("gain"))
        if case.get("gain_status"):
            gain += f" {_STATUS[case['gain_status']]}"
        lines.append(f"| {case_id} | {fields} | {_group_cell(groups.get('A'))} | {_group_cell(groups.get('B'))} | {gain} |")
    for case_id, curve in sorted(curves.items()):
        verdict = {"pass": "✅ passes", "warn": "⚠️ warns", "fail": "❌ fails"}.get(curve.get("status") or "", "not decided")
        lines += ["", f"**{case_id}** degradation curve: {verdict} · smooth: {_yes_no(curve.get('smooth'))} · "
                  f"B decays less than A: {_yes_no(curve.get('b_decays_less'))}", ""]
        lines += ["| task | A | B |", "|---|---:|---:|"]
        lines += [f"| {p['case_id']} ({p.get('difficulty') or '?'}) | {_pct(p.get('A'))} | {_pct(p.get('B'))} |"
                  for p in curve.get("points", [])]
        lines += ["", *_chart(curve)]
    return lines
