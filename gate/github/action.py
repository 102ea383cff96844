"""The composite action's results step: step outputs from results.json, and annotations.

Run as ``python -m gate.github.action --out-dir DIR --exit-code N [--config gate.yaml]``. It reads
the reports defensively — `gate check` may have stopped before writing them (exit 2 or 3) — and
never fails the step itself: the action's last step fails with the gate's own exit code.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

import gate.github.annotations as gh_annotations
from gate import safejson
from gate.github.annotations import command


def _get(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _rate(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    return f"{float(value):.4f}".rstrip("0").rstrip(".") if value else "0"


def read_results(path: Path) -> dict[str, Any] | None:
    """results.json as a dict, or None when it is missing or unreadable."""
    try:
        data = safejson.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def outputs(results: Mapping[str, Any] | None, out_dir: Path, exit_code: int) -> dict[str, str]:
    """The action's outputs. Rates are fractions (0.85); empty when the run produced none."""
    failing = {
        str(r.get("case_id")) for r in (_get(results, "results") or [])
        if isinstance(r, dict) and r.get("status") in ("fail", "error")
    }
    passed = _get(results, "passed")
    base = out_dir.resolve()
    return {
        "passed": "true" if exit_code == 0 and passed is not False else "false",
        "exit-code": str(exit_code),
        "results-path": str(base / "results.json"),
        "junit-path": str(base / "junit.xml"),
        "summary-path": str(base / "comment.md"),
        "a-pass-rate": _rate(_get(results, "metrics", "overall", "A", "case_pass_rate")),
        "b-pass-rate": _rate(_get(results, "metrics", "overall", "B", "case_pass_rate")),
        "failing-cases": str(len(failing)) if results is not None else "",
        **_state_counts(results),
    }


_STATE_OUTPUTS = {"new-failures": "new-failure", "known-failures": "known-failure", "fixed": "fixed"}


def _state_counts(results: Mapping[str, Any] | None) -> dict[str, str]:
    """(case, group) pairs failing anew, failing as in the baseline, and fixed since it."""
    cases = _get(results, "metrics", "cases")
    if not isinstance(cases, dict):
        return dict.fromkeys(_STATE_OUTPUTS, "")
    states = [state for case in cases.values() if isinstance(case, dict)
              for state in (case.get("states") or {}).values()]
    return {name: str(states.count(state)) for name, state in _STATE_OUTPUTS.items()}


def write_outputs(values: Mapping[str, str], target: str | None) -> None:
    """Append ``key=value`` lines to $GITHUB_OUTPUT (stdout when it is not set)."""
    text = "".join(f"{key}={value}\n" for key, value in values.items() if "\n" not in value)
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(text)
    else:
        click.echo(text, nl=False)


def known_failures_setting(config: str | None) -> str:
    """gate.yaml's ``reports.annotations.known_failures`` (notice when gate.yaml cannot be read)."""
    from gate.config import load_config
    from gate.errors import GateError

    try:
        return load_config(config).reports.annotations.known_failures
    except (GateError, OSError):
        return "notice"


def case_paths(config: str | None, workspace: Path) -> dict[str, tuple[str, int]]:
    """Case id → (file relative to the workspace, line of its ``id:``); empty if cases won't load."""
    from gate.config import load_config
    from gate.errors import GateError
    from gate.loader import load_cases

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
    write_outputs(outputs(results, Path(out_dir), exit_code), os.environ.get("GITHUB_OUTPUT"))
    if results is None:
        click.echo(command("warning", f"no readable {out_dir}/results.json (gate check exited "
                                      f"{exit_code}); see the log above", title="agent-gate"))
        return
    workspace = Path(os.environ.get("GITHUB_WORKSPACE") or ".")
    for line in gh_annotations.annotations(results, case_paths(config, workspace), known_failures_setting(config)):
        click.echo(line)
    sys.stdout.flush()


if __name__ == "__main__":  # pragma: no cover
    main()
