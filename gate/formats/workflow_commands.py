"""GitHub Actions workflow commands (``::error file=…,line=…::…``), escaped by the runner's rules,
and the input errors of a command said as such: under Actions (``GITHUB_ACTIONS=true``) every
problem that ends a command with exit 2 is also an ``::error`` on its file and line.

Every message is made safe first: escape sequences and control characters dropped, credentials
in URLs and the values of secret-looking environment variables replaced by ***, and no line of it
able to start a workflow command of its own."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from gate.errors import GateError
from gate.redaction.sanitize import xml_safe
from gate.redaction.secrets import public as redacted

MAX_ANNOTATIONS = 10
"""GitHub shows at most ten annotations of each kind per step."""
TITLE = "agent-gate"


def escape_data(text: str) -> str:
    """A workflow command's message: escape sequences and control characters from agent text
    dropped (they would reach the Actions log), %, CR and LF escaped."""
    text = xml_safe(text)  # keeps tab, LF and CR, which are escaped below
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: as data, plus : and ,."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, *, file: str | None = None, line: int | None = None,
            title: str | None = None) -> str:
    """One workflow command line, e.g. ``::error file=a.yaml,line=3,title=T::message``."""
    props = []
    if file:
        props.append(f"file={escape_property(file)}")
        if line:
            props.append(f"line={int(line)}")
    if title:
        props.append(f"title={escape_property(title)}")
    head = f"::{kind} {','.join(props)}" if props else f"::{kind}"
    return f"{head}::{escape_data(message)}"


def under_actions(environ: Mapping[str, str]) -> bool:
    """Whether this process runs as a GitHub Actions step."""
    return environ.get("GITHUB_ACTIONS") == "true"


def public(text: str, environ: Mapping[str, str]) -> str:
    """``text`` fit for a log others read: no escape sequences or control characters, no secret."""
    return xml_safe(redacted(text, environ))


def error_lines(problems: Sequence[GateError], environ: Mapping[str, str] | None = None) -> list[str]:
    """``gate: error: …`` per problem, for stderr; the lines of a problem after its first are
    indented, so none starts a workflow command."""
    env = os.environ if environ is None else environ
    found = []
    for problem in problems:
        first, *rest = public(str(problem), env).replace("\r\n", "\n").replace("\r", "\n").split("\n")
        found.append("\n".join([f"gate: error: {first}", *(f"  {line}" for line in rest)]))
    return found


def _shown_path(file: str, environ: Mapping[str, str]) -> str:
    """``file`` relative to the workspace, as GitHub places annotations; as given when outside it."""
    path = Path(file)
    workspace = Path(environ.get("GITHUB_WORKSPACE") or ".").resolve()
    try:
        return path.resolve().relative_to(workspace).as_posix()
    except (ValueError, OSError):
        return file


def error_annotations(problems: Sequence[GateError], environ: Mapping[str, str] | None = None) -> list[str]:
    """Under GitHub Actions, an ``::error`` per problem, on its file and line when it names them
    (the message then leaves the place out); at most ten, then a notice counting the rest.
    Elsewhere, nothing."""
    env = os.environ if environ is None else environ
    if not under_actions(env):
        return []
    lines = []
    for problem in problems[:MAX_ANNOTATIONS]:
        file, line = problem.place
        message = problem.message if file else str(problem)
        lines.append(command("error", public(message, env), title=TITLE, line=line,
                             file=public(_shown_path(file, env), env) if file else None))
    if len(problems) > MAX_ANNOTATIONS:
        more = len(problems) - MAX_ANNOTATIONS
        lines.append(command("notice", f"… and {more} more input error{'s' if more > 1 else ''}; see the log",
                             title=TITLE))
    return lines
