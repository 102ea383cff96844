"""The gate's CLI run in process, as the command tests drive it."""

from __future__ import annotations

from click.testing import CliRunner

from gate.cli.app import main


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``gate ARGS`` (an unexpected exception is raised, not hidden)."""
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr
