"""YAML reading with places: errors name the file, the line and the field path."""

from __future__ import annotations

import codecs
import typing
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from gate.errors import GateError, GateErrors, did_you_mean
from gate.files import safefiles
from gate.files.yamlsafe import RefusedYaml, StrictLoader

# Built on the C loader where PyYAML has it: several times faster on a large case set.
_Loader: Any = StrictLoader


def load(path: Path, text: str | None = None) -> Any:
    """Parse a YAML file; a syntax error becomes a :class:`GateError` at its line."""
    if text is None:
        text = read_text(path)
    try:
        return yaml.load(text, Loader=_Loader)
    except RefusedYaml as exc:
        raise GateError(exc.message, where=f"{path}:{exc.line}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc)
        context, start = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and start is not None and mark is not None and start.line != mark.line:
            problem += f" ({context} that starts at line {start.line + 1})"
        raise GateError(f"invalid YAML: {problem}", where=where) from None


def read_bytes(path: Path) -> tuple[bytes, str]:
    """The file's bytes and its UTF-8 text (newlines as Python reads them), from one read.

    A leading UTF-8 byte-order mark, as Windows editors and PowerShell's ``Out-File`` write, is dropped.
    """
    raw = safefiles.read_bytes(path)  # a regular file of bounded size, or a GateError naming it
    skip = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
    try:
        return raw, raw[skip:].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        raise GateError(f"not UTF-8 text (byte {exc.start + skip})", where=str(path)) from None


def read_text(path: Path) -> str:
    return read_bytes(path)[1]


def _schema_step(part: int | str) -> bool:
    """A step pydantic adds to a location for its own schema (a validator function, the member of a
    tagged union such as ``union:http``), not a key of the file."""
    return isinstance(part, str) and part.startswith(("function-", "tagged-union", "union:"))


def dotted(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a field path: constraints[1].params.exact."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _schema_step(part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def line_of(text: str, loc: Sequence[int | str]) -> int | None:
    """The 1-based line of the node at ``loc`` in a YAML document, or of its nearest parent."""
    try:
        node: Any = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            match = node.value[part]
        else:
            match = None
        if match is None:
            break
        node = match
        line = node.start_mark.line + 1
    return line


def place_in(path: Path | str, loc: Sequence[int | str]) -> str:
    """``path:line`` of the node at ``loc`` in a YAML file (or of its nearest parent); the path
    alone when the file cannot be read: where an error found after loading points."""
    try:
        line = line_of(read_text(Path(path)), loc)
    except GateError:
        line = None
    return f"{path}:{line}" if line else str(path)


def error_message(error: Any) -> str:
    """A pydantic error's message without pydantic's "Value error, " prefix."""
    return str(error["msg"]).removeprefix("Value error, ")


def first_problem(exc: ValidationError) -> str:
    """The first problem of a validation error as one line: ``field.path: message``."""
    error = exc.errors(include_url=False)[0]
    path = dotted(error["loc"])
    return error_message(error) if path == "(top level)" else f"{path}: {error_message(error)}"


def _one(path: Path, text: str, error: Any, prefix: Sequence[int | str], keys: Iterable[str]) -> GateError:
    loc = [*prefix, *error["loc"]]
    loc_clean = [p for p in loc if not _schema_step(p)]
    line = line_of(text, loc_clean)
    where = f"{path}:{line}" if line else str(path)
    hint = ""
    if error.get("type") == "extra_forbidden" and loc_clean and isinstance(loc_clean[-1], str):
        hint = did_you_mean(loc_clean[-1], keys)  # a misspelt key: name the one it resembles
    return GateError(f"{dotted(loc_clean)}: {error_message(error)}{hint}", where=where)


def validation_error(path: Path, text: str, exc: ValidationError, prefix: Sequence[int | str] = (),
                     keys: Iterable[str] = ()) -> GateError:
    """The first error of ``exc`` as a GateError naming file, line and field path (+ how many more);
    with every error (``GateErrors.problems``) for a caller that reports them all."""
    errors = exc.errors(include_url=False)
    known = sorted(set(keys))
    problems = [_one(path, text, error, prefix, known) for error in errors]
    if len(problems) == 1:
        return problems[0]
    return GateErrors(problems, summary=f"{problems[0]} (+{len(errors) - 1} more error(s))")


def model_keys(model: type[BaseModel]) -> set[str]:
    """Every field name of ``model`` and of the models it nests: the vocabulary for did-you-mean."""
    found: set[str] = set()
    pending: list[Any] = [model]
    seen: set[Any] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        if isinstance(current, type) and issubclass(current, BaseModel):
            for name, field in current.model_fields.items():
                found.add(field.alias or name)
                pending.append(field.annotation)
        for argument in typing.get_args(current):
            pending.append(argument)
    return found
