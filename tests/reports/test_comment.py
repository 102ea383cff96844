"""The PR comment rendered by GitHub's own Markdown engine (cmarkgfm)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from gate.github.comment import COMMENT_MARKER
from gate.report import comment
from gate.report.model import GateReport


def html(markdown: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def test_marker_then_verdict_first(mixed_report: GateReport) -> None:
    lines = comment.render(mixed_report).splitlines()
    assert lines[0] == COMMENT_MARKER
    assert lines[2].startswith("## ❌ **agent-gate failed**")


def test_the_first_screen_is_the_why_then_what_moved(mixed_report: GateReport) -> None:
    text = comment.render(mixed_report)
    order = [text.index(marker) for marker in (
        "agent-gate failed", "Newly failing cases", "`exactly_3_items` (items:count)", "### Findings",
        "### Dimensions that moved (2 of 2)", "<details><summary><b>All dimensions</b> and the legend")]
    assert order == sorted(order)
    assert "**A** skills off · **B** skills on" in text and "-50.0 pts" in text


def test_commit_and_run_link_on_actions(report_factory: Callable[..., GateReport],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in {"GITHUB_SHA": "f" * 40, "GITHUB_SERVER_URL": "https://github.com",
                       "GITHUB_REPOSITORY": "acme/agent", "GITHUB_RUN_ID": "7"}.items():
        monkeypatch.setenv(key, value)
    report = report_factory({("B3-QC-01", "A"): "1. Bose\n2. Apple\n3. 华为"})
    lines = comment.render(report).splitlines()
    assert "commit `ffffffffffff` · [workflow run](https://github.com/acme/agent/actions/runs/7)" in lines[4:8]
    assert json.loads("".join(report.document_text()))["context"] == {
        "commit": "f" * 40, "run_url": "https://github.com/acme/agent/actions/runs/7"}


def test_dimension_table_renders_as_a_table(mixed_report: GateReport) -> None:
    rendered = html(comment.render(mixed_report))
    table = rendered.split("<table>")[1].split("</table>")[0]
    rows = re.findall(r"<tr>", table)
    assert len(rows) == 1 + 2  # header + PC + QC
    assert "<td>B3/QC</td>" in table
    assert "50.0% (1/2 cases) [13–87%]" in table


def test_newly_failing_case_names_constraint_and_attribution(mixed_report: GateReport) -> None:
    text = comment.render(mixed_report)
    section = text.split("Newly failing cases")[1].split("</details>")[0]
    assert "**B3-QC-01** [B]" in section and "attributed to: **skill**" in section
    assert "`exactly_3_items` (items:count): 4 items found" in section
    assert "B3-PC-01" not in section  # it failed in the baseline too


def test_agent_output_cannot_inject_html_mentions_or_break_tables(mixed_report: GateReport) -> None:
    rendered = html(comment.render(mixed_report))
    assert "<script>" not in rendered
    assert "@octocat" not in rendered  # a zero-width joiner follows the '@'
    body_tables = rendered.count("<table>")
    assert body_tables == 2  # the dimensions that moved, and all of them folded: no table from agent text


def test_no_durations_and_deterministic(mixed_report: GateReport) -> None:
    first = comment.render(mixed_report)
    assert first == comment.render(mixed_report)
    assert "1234" not in first and "latency" not in first


def test_huge_detail_is_truncated_but_the_verdict_stays(report_factory: Callable[..., GateReport]) -> None:
    answers = {(c, g): "1. 索尼\n2. Bose" for c in ("B3-QC-01", "B3-QC-02", "B3-PC-01") for g in "AB"}
    report = report_factory(answers, runs=200)
    assert sum(len(v.failing()) for v in report.verdicts) == 2400
    text = comment.render(report)
    assert len(text.encode("utf-8")) <= comment.MAX_BYTES
    assert "Detail left out" in text
    assert "agent-gate failed" in text.splitlines()[2]
    assert "| B3/QC |" in text


def test_quoted_text_renders_as_written() -> None:
    from gate.report.markdown_safe import inline

    rendered = html(f"| a |\n|---|\n| {inline('8999 元 > 8000 | *粗* [链接](x) `代码` #1 @team')} |")
    cell = rendered.split("<td>")[1].split("</td>")[0]
    assert cell == "8999 元 &gt; 8000 | *粗* [链接](x) `代码` #1 @\u200dteam"


def test_newly_passing_cases_are_listed(report_factory: Callable[..., GateReport]) -> None:
    good = "1. Bose\n2. Apple\n3. 华为"
    answers = {(c, g): good for c in ("B3-QC-01", "B3-QC-02", "B3-PC-01") for g in "AB"}
    baseline = {"schema": "gate.baseline/v1", "cases_digest": "sha256:old", "dimensions": {},
                "cases": {"B3-PC-01": {"A": "fail", "B": "pass"}}}
    text = comment.render(report_factory(answers, baseline))
    assert "🎉 Newly passing since the baseline (1): **B3-PC-01** [A]" in text


def test_the_curve_chart_draws_what_its_title_says() -> None:
    from gate.report.consistency_md import render_consistency
    from gate.scoring.consistency import ConsistencyReport, CurvePoint, DegradationCurve

    def chart(b: list[float | None]) -> list[str]:
        points = tuple(CurvePoint(case_id=f"X-CD-0{i + 1}", difficulty=d, a=a, b=bb)
                       for i, (d, a, bb) in enumerate(zip(("easy", "medium", "hard"), (1.0, 0.9, 0.8), b, strict=True)))
        curve = DegradationCurve(case_id="X-CD-04", points=points, smooth=None, breaks=(), decay_a=None, decay_b=None,
                                 b_decays_less=None, hardest_gain=None, status=None)
        lines = render_consistency(ConsistencyReport(cases=(), curves=(curve,)))
        return lines[lines.index("```mermaid"):]

    both = chart([1.0, 1.0, 0.9])
    assert '    title "Consistency by task complexity: A (blue) and B (red)"' in both
    assert [line for line in both if line.startswith("    line")] == ["    line [100, 90, 80]", "    line [100, 100, 90]"]
    assert "plotColorPalette" in both[1]
    only_a = chart([None, None, None])
    assert '    title "Consistency by task complexity: A (blue)"' in only_a
    assert [line for line in only_a if line.startswith("    line")] == ["    line [100, 90, 80]"]
