"""judge.md and judge-calibration.md: the judge's verdicts in the comment's style — a verdict line,
a table, the detail folded — with every judge- or agent-written text quoted safely."""

from __future__ import annotations

from gate.formats.percent import percent
from gate.formats.rates import span
from gate.report.markdown_safe import inline
from gate.semantic.document import CalibrationDocument, JudgeDocument, QueueEntry, Rate, Usage

MAX_LISTED = 50


def _rate(rate: Rate) -> str:
    if rate.rate is None:
        return "—" if not rate.errors else f"— ({rate.errors} errors)"
    interval = None if rate.low is None or rate.high is None else (rate.low, rate.high)
    errors = f", {rate.errors} errors" if rate.errors else ""
    return f"{percent(rate.rate)} ({rate.passed}/{rate.judged}{errors}){span(interval)}"


def _usage(usage: Usage) -> str:
    parts = [f"{usage.requests} samples asked", f"{usage.cached} from the cache"]
    if usage.total_tokens:
        parts.append(f"{usage.prompt_tokens:,} prompt + {usage.completion_tokens:,} completion tokens")
    if usage.cost is not None:
        parts.append(f"≈ {usage.cost:.4f} {usage.currency}")
    return " · ".join(parts)


def _more(total: int) -> list[str]:
    return [f"- … and {total - MAX_LISTED} more (judge.json has them all)"] if total > MAX_LISTED else []


def render_judge(document: JudgeDocument, queue: list[QueueEntry]) -> str:
    """judge.md."""
    info = document.judge
    failed = [r for r in document.constraints if r.final == "fail"]
    errors = [r for r in document.constraints if r.final == "error"]
    split = sum(1 for r in document.constraints if any(rubric.split for rubric in r.rubrics))
    human = sum(1 for r in document.constraints if r.source == "human")
    head = (f"**{len(failed)} of {len(document.constraints)} rubric verdicts failed** · overall "
            f"{_rate(document.overall)} · {info.samples} samples each by `{inline(info.model, 60)}` · "
            f"{split} split votes · {len(queue)} queued for review")
    if errors:
        head += f" · **{len(errors)} undecided** (judge errors, counted apart from the verdicts)"
    if human:
        head += f" · {human} decided by human review"
    lines = ["## agent-gate · LLM judge", ""]
    if document.interrupted:
        lines += ["> [!WARNING]", "> The judge was interrupted: these verdicts are partial.", ""]
    lines += [head, "", "| Dimension | Group | Rules (runs) | Judge (rubrics) | Fully followed (runs) |",
              "|---|---|---|---|---|"]
    lines += [f"| {d.dimension} | {d.group} | {_rate(d.rules)} | {_rate(d.rubrics)} | {_rate(d.runs)} |"
              for d in document.dimensions]
    for title, chosen in (("Failing rubric verdicts", failed), ("Rubrics the judge could not decide", errors)):
        if not chosen:
            continue
        lines += ["", f"<details><summary><b>{title}</b> ({len(chosen)})</summary>", ""]
        for record in chosen[:MAX_LISTED]:
            by = " (human review)" if record.source == "human" else ""
            detail = "; ".join(r.detail for r in record.rubrics)
            lines.append(f"- **{record.case_id}** {record.group}#{record.run} `{record.constraint}`{by}: {inline(detail, 300)}")
        lines += [*_more(len(chosen)), "", "</details>"]
    if queue:
        lines += ["", f"<details><summary><b>Review queue</b> ({len(queue)}, `gate review` walks it)</summary>", ""]
        lines += [f"- **{e.case_id}** {e.group}#{e.run} `{e.constraint}` — {', '.join(e.reasons)}: rule {e.rule}, "
                  f"judge {e.judge} ({e.votes.pass_} pass · {e.votes.fail} fail)" for e in queue[:MAX_LISTED]]
        lines += [*_more(len(queue)), "", "</details>"]
    unjudged = f" · {document.unjudged_runs} runs not judged (agent errors)" if document.unjudged_runs else ""
    lines += ["", f"<sub>{len(document.constraints)} rubric verdicts{unjudged} · {_usage(document.usage)} · "
              f"prompt {info.prompt}, temperature {info.temperature:g}</sub>", ""]
    return "\n".join(lines)


def render_calibration(document: CalibrationDocument) -> str:
    """judge-calibration.md."""
    flagged = [r for r in document.rubrics if r.flagged]
    lines = ["## agent-gate · judge calibration", ""]
    if document.interrupted:
        lines += ["> [!WARNING]", "> Calibration was interrupted: the agreement is partial.", ""]
    human = sum(r.human for r in document.rubrics)
    labels = f"the labels ({human} human verdicts on real runs)" if human else "the case examples"
    lines += [f"**Agreement with {labels}: {_rate(document.agreement)}** · {len(flagged)} of "
              f"{len(document.rubrics)} rubrics flagged · `{inline(document.judge.model, 60)}`, "
              f"{document.judge.samples} samples each · floor {percent(document.min_agreement)}", "",
              "| Case | Rubric | Agreed | Flagged | Agreement of decided | Errors | Human labels | Trust |",
              "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {r.case_id} | `{r.rubric}` | {r.agreed}/{r.examples}"
              f"{f' ({r.undetermined} undetermined)' if r.undetermined else ''} | {'⚠️ yes' if r.flagged else 'no'} | "
              f"{_rate(r.agreement) if r.agreement else '—'} | {r.errors} | {r.human} | {r.trust or '—'} |"
              for r in document.rubrics]
    if document.disagreements:
        lines += ["", f"<details open><summary><b>Disagreements</b> ({len(document.disagreements)})</summary>", ""]
        lines += [f"- **{d.case_id}** `{d.rubric}` on {d.example}{f' ({inline(d.note, 80)})' if d.note else ''}: "
                  f"expected {d.expected}, judge {d.judge} — {inline(d.detail, 240)}"
                  for d in document.disagreements[:MAX_LISTED]]
        lines += [*_more(len(document.disagreements)), "", "</details>"]
    record = f" · record {inline(document.record, 120)}" if document.record else " · no calibration record written"
    lines += ["", f"<sub>{_usage(document.usage)} · each example judged without its own label among the "
              f"examples shown{record}</sub>", ""]
    return "\n".join(lines)
