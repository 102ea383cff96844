"""What every `gate` command runs inside: errors turned into exit codes, the garbage collector tuned
for a batch process (and kept from scanning at exit), and the cache writer flushed before exit."""

from __future__ import annotations

import contextlib
import gc
import sys
import traceback
from pathlib import Path
from typing import Any

import click

from gate.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, GateError, GateErrors
from gate.formats.workflow_commands import error_annotations, error_lines
from gate.process.interrupts import command_starts, take_stop_signals
from gate.redaction.secrets import public
from gate.redaction.streams import redacted_streams

WATCHING_STOPS = frozenset({"check", "eval"})
"""Commands that watch for stops from their first line and end with reports of what finished: a stop
while the process started is their first (gate.process.interrupts)."""

COLLECTOR_THRESHOLDS = (50_000, 50, 50)
"""``gc.set_threshold`` for a gate process (Python's default: 700, 10, 10)."""


class GateGroup(click.Group):
    """Turns GateError into a message + exit 2, and any other exception into exit 3 + traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """The process's entry point (the ``gate`` script, ``python -m gate``; a test's CliRunner calls
        :meth:`main`): the process ends when it returns. SIGINT and SIGTERM end it with exit 130 from
        here on (a command that writes reports watches for them itself)."""
        take_stop_signals()
        try:
            return self.main(*args, **kwargs)
        finally:
            # The interpreter's collections at exit scanned every object still alive (the modules'
            # classes, validators and parsers, a run's cases and verdicts) for nothing, a cost paid
            # by every process however short its command. Frozen objects are left out of those
            # collections.
            gc.freeze()

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        command_starts(watches=name in WATCHING_STOPS)
        return name, command, rest

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:  # a bad option of `gate` itself
            _annotate_usage(exc)
            raise

    def invoke(self, ctx: click.Context) -> object:
        # A gate process keeps what it builds (cases, trajectories, verdicts) until its reports are
        # written, so the collector's default full passes only rescan a growing live heap, a cost
        # that grows with the case set. Young objects are collected every 50,000 allocations, old
        # ones rarely.
        collector = gc.get_threshold()
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
        for stream in (sys.stdout, sys.stderr):
            _escape_what_it_cannot_encode(stream)
        with redacted_streams():
            return self._invoke(ctx, collector)

    def _invoke(self, ctx: click.Context, collector: tuple[int, int, int]) -> object:
        try:
            return super().invoke(ctx)
        except GateError as exc:
            say_input_errors(exc)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:  # a subcommand's bad option or argument: an input error too
            _annotate_usage(exc)
            raise
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("gate: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except Exception:
            text = traceback.format_exc()
            crash = Path("gate-crash.txt")
            try:
                crash.write_text(public(text), encoding="utf-8")
                kept = f" (traceback kept in {crash})"
            except OSError:
                kept = ""
            click.echo(f"gate: internal error — please report it{kept}:\n{text}", err=True)
            sys.exit(EXIT_INTERNAL)
        finally:
            gc.set_threshold(*collector)  # as it was, for a caller that invokes gate in its own process
            if "gate.files.jsonstore" in sys.modules:  # a command that used a cache leaves its entries on disk
                sys.modules["gate.files.jsonstore"].flush()


def _annotate_usage(error: click.UsageError) -> None:
    for line in error_annotations([GateError(error.format_message())]):
        click.echo(line)


def say_input_errors(error: GateError) -> None:
    """The problems on stderr (one line for a summarised GateErrors), each made safe to show, and
    under GitHub Actions an ``::error`` annotation per problem on stdout, on its file and line."""
    shown = [error] if isinstance(error, GateErrors) and error.summary else error.problems
    for line in error_lines(shown):
        click.echo(line, err=True)
    for line in error_annotations(error.problems):
        click.echo(line)


def _escape_what_it_cannot_encode(stream: object) -> None:
    """Let a terminal or pipe in a narrow encoding (PYTHONIOENCODING=latin-1, a cp1252 console) show
    what it cannot encode as a \\u escape: a summary line with a Δ or a Chinese case title raised
    UnicodeEncodeError there, after the reports were written, and ended in a traceback."""
    encoding = getattr(stream, "encoding", None) or ""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None or encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf8sig"):
        return
    with contextlib.suppress(ValueError, OSError):  # a stream closed or detached: nothing is written to it
        reconfigure(errors="backslashreplace")
