"""The `gate` command line. Commands stay thin: options in, a runner called, an exit code out.

Heavy modules are imported inside the commands so `gate --help` starts fast.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import click

from gate.errors import EXIT_INTERNAL, EXIT_UNUSABLE, GateError


class _Group(click.Group):
    """Turns GateError into a message + exit 2, and any other exception into exit 3 + traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except GateError as exc:
            click.echo(f"gate: error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("gate: interrupted", err=True)
            sys.exit(130)
        except Exception:  # noqa: BLE001 - a bug: keep the traceback for the report, exit 3
            text = traceback.format_exc()
            crash = Path("gate-crash.txt")
            try:
                crash.write_text(text, encoding="utf-8")
                kept = f" (traceback kept in {crash})"
            except OSError:
                kept = ""
            click.echo(f"gate: internal error — please report it{kept}:\n{text}", err=True)
            sys.exit(EXIT_INTERNAL)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="agent-gate", prog_name="gate")
def main() -> None:
    """agent-gate: gate pull requests on how faithfully an LLM agent follows instructions."""


def _existing(path: str, what: str) -> Path:
    p = Path(path)
    if not p.exists():
        raise GateError(f"{what} not found", where=path)
    return p


@main.command("eval")
@click.option("--cases", "cases_dir", default="cases", show_default=True, help="Case directory.")
@click.option("--trajectories", "trajectories", required=True, help="Trajectory file (JSON Lines).")
@click.option("--json", "json_out", default=None, help="Write results.json here.")
def eval_command(cases_dir: str, trajectories: str, json_out: str | None) -> None:
    """Judge recorded trajectories (no agent call) and print a per-case verdict table.

    Exits 0 once every record is judged, whatever the verdicts; 2 on unusable input.
    """
    from gate.evalrun import run_eval

    sys.exit(run_eval(Path(cases_dir), _existing(trajectories, "trajectory file"), json_out))


@main.command("validate")
@click.option("--cases", "cases_dir", default="cases", show_default=True, help="Case directory.")
def validate_command(cases_dir: str) -> None:
    """Validate every case file and self-test its checkers on its pass/fail examples.

    Exits 0 when all is well, 1 when an example does not behave as its case says, 2 on a bad file.
    """
    from gate.loader import load_cases
    from gate.validate import check_examples

    case_set = load_cases(Path(cases_dir))
    problems = [p for case in case_set.cases.values() for p in check_examples(case)]
    for problem in problems:
        click.echo(f"{problem.path}: {problem.case_id}: {problem.message}")
    total = len(case_set.cases)
    examples = sum(
        len(c.examples.pass_) + len(c.examples.fail) for c in case_set.cases.values() if c.examples
    )
    if problems:
        click.echo(f"{len(problems)} problem(s) in {len({p.case_id for p in problems})} of {total} cases", err=True)
        sys.exit(1)
    click.echo(f"{total} cases valid; {examples} examples judged as their cases say")


@main.command("checkers")
@click.option("--markdown", is_flag=True, help="Print the README's checker table.")
def checkers_command(markdown: bool) -> None:
    """List the registered checkers and their parameters."""
    from gate.docs import checker_table

    click.echo(checker_table(markdown=markdown))


if __name__ == "__main__":  # pragma: no cover
    main()
