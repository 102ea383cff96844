"""The composite action's results step: step outputs from results.json, and annotations.

Run as ``python -m gate.github.action --out-dir DIR --exit-code N [--config gate.yaml]``. It reads
the reports defensively — `gate check` may have stopped before writing them (exit 2 or 3) — into
the one results model, and never fails the step itself: the action's last step fails with the
gate's own exit code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

import click
from pydantic import ValidationError

import gate.github.annotations as gh_annotations
from gate.errors import GateError
from gate.files import safefiles, safejson
from gate.files.yamlio import first_problem
from gate.github.annotations import command
from gate.redaction.sanitize import one_line
from gate.results import ResultsFile
from gate.verdict import Status


def _rate(value: float | None) -> str:
    if value is None:
        return ""
    return f"{float(value):.4f}".rstrip("0").rstrip(".") if value else "0"


def read_results(path: Path) -> ResultsFile | str:
    """results.json validated, or why there is none to read (missing, not JSON, not the model)."""
    if not path.exists():
        return f"no {path}"
    try:
        data = safejson.loads(safefiles.read_bytes(path, what="results file", limit=safefiles.DOCUMENT_LIMIT))
    except GateError as exc:
        return str(exc)
    except ValueError as exc:
        return f"{path} is not JSON: {one_line(str(exc))}"
    try:
        return ResultsFile.model_validate(data)
    except ValidationError as exc:
        return f"{path} is not a results.json: {one_line(first_problem(exc))}"


def outputs(results: ResultsFile | None, out_dir: Path, exit_code: int) -> dict[str, str]:
    """The action's outputs. Rates are fractions (0.85); empty when the run produced none."""
    base = out_dir.resolve()
    found = {
        "passed": "true" if exit_code == 0 and (results is None or results.passed) else "false",
        "exit-code": str(exit_code),
        "results-path": str(base / "results.json"),
        "junit-path": str(base / "junit.xml"),
        "summary-path": str(base / "comment.md"),
    }
    if results is None:
        return {**found, "verdict": "", "a-pass-rate": "", "b-pass-rate": "", "failing-cases": "",
                **dict.fromkeys(_STATE_OUTPUTS, "")}
    overall = results.metrics.overall
    failing = {r.case_id for r in results.results if r.status in (Status.FAIL, Status.ERROR)}
    states = [state for case in results.metrics.cases.values() for state in case.states.values()]
    return {**found,
            "verdict": results.verdict or "",
            "a-pass-rate": _rate(overall["A"].case_pass_rate if "A" in overall else None),
            "b-pass-rate": _rate(overall["B"].case_pass_rate if "B" in overall else None),
            "failing-cases": str(len(failing)),
            **{name: str(states.count(state)) for name, state in _STATE_OUTPUTS.items()}}


_STATE_OUTPUTS = {"new-failures": "new-failure", "known-failures": "known-failure", "fixed": "fixed"}
"""(case, group) pairs failing anew, failing as in the baseline, and fixed since it."""


def write_outputs(values: Mapping[str, str], target: str | None) -> None:
    """Append ``key=value`` lines to $GITHUB_OUTPUT (stdout when it is not set); a file that cannot
    be written is a warning, not a failed step (the action's last step fails with the gate's code)."""
    text = "".join(f"{key}={value}\n" for key, value in values.items() if "\n" not in value)
    if target:
        try:
            with open(target, "a", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            click.echo(command("warning", f"the step outputs could not be written to GITHUB_OUTPUT ({target}): "
                               f"{exc.strerror or exc}", title="agent-gate"))
    else:
        click.echo(text, nl=False)


def known_failures_setting(config: str | None) -> str:
    """gate.yaml's ``reports.annotations.known_failures`` (notice when gate.yaml cannot be read)."""
    from gate.config.gate_yaml import load_config
    from gate.errors import GateError

    try:
        return load_config(config).reports.annotations.known_failures
    except (GateError, OSError):
        return "notice"


def case_paths(config: str | None, workspace: Path) -> dict[str, tuple[str, int]]:
    """Case id → (file relative to the workspace, line of its ``id:``); empty if cases won't load."""
    from gate.cases.loader import load_cases
    from gate.config.gate_yaml import load_config
    from gate.errors import GateError

    try:
        cfg = load_config(config)
        case_set = load_cases(cfg.resolve(cfg.cases.path))
    except (GateError, OSError):
        return {}
    found = {}
    for case_id, case in case_set.cases.items():
        path = Path(case.path).resolve()
        try:
            shown = path.relative_to(workspace.resolve()).as_posix()
        except ValueError:
            shown = path.as_posix()
        found[case_id] = (shown, case.line)
    return found


@click.command()
@click.option("--out-dir", default="gate-results", show_default=True)
@click.option("--exit-code", "exit_code", type=int, required=True)
@click.option("--config", default=None, help="gate.yaml, to point annotations at case files.")
def main(out_dir: str, exit_code: int, config: str | None) -> None:
    """Write the action's outputs and print annotations for the failing runs."""
    results = read_results(Path(out_dir) / "results.json")
    write_outputs(outputs(results if isinstance(results, ResultsFile) else None, Path(out_dir), exit_code),
                  os.environ.get("GITHUB_OUTPUT"))
    if not isinstance(results, ResultsFile):
        click.echo(command("warning", f"{results} (gate check exited {exit_code}); see the log above",
                           title="agent-gate"))
        return
    workspace = Path(os.environ.get("GITHUB_WORKSPACE") or ".")
    for line in gh_annotations.annotations(results, case_paths(config, workspace), known_failures_setting(config)):
        click.echo(line)
    if results.verdict == "inconclusive":
        open_ = [f for f in results.findings if f.outcome == "inconclusive" and f.level != "info"]
        click.echo(command("warning", f"not a pass: {len(open_)} decision(s) lack the evidence to say the agent is "
                           f"fine — {one_line(open_[0].message) if open_ else 'see the report'}",
                           title="agent-gate inconclusive"))
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    main()
