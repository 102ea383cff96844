"""YAML reading with places: errors name the file, the line and the field path."""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from gate.errors import GateError
from gate.yamlsafe import RefusedYaml, StrictLoader

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
    skip = 0
    try:
        raw = path.read_bytes()
        skip = len(codecs.BOM_UTF8) if raw.startswith(codecs.BOM_UTF8) else 0
        return raw, raw[skip:].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except FileNotFoundError:
        raise GateError("file not found", where=str(path)) from None
    except UnicodeDecodeError as exc:
        raise GateError(f"not UTF-8 text (byte {exc.start + skip})", where=str(path)) from None
    except OSError as exc:
        raise GateError(f"cannot read: {exc.strerror}", where=str(path)) from None


def read_text(path: Path) -> str:
    return read_bytes(path)[1]


def dotted(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a field path: constraints[1].params.exact."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("function-after", "function-before") or str(part).startswith(("function-", "tagged-union")):
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


def _message(error: Any) -> str:
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def validation_error(path: Path, text: str, exc: ValidationError, prefix: Sequence[int | str] = ()) -> GateError:
    """The first error of ``exc`` as a GateError naming file, line and field path (+ how many more)."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = [*prefix, *first["loc"]]
    loc_clean = [p for p in loc if not (isinstance(p, str) and p.startswith("function-"))]
    line = line_of(text, loc_clean)
    where = f"{path}:{line}" if line else str(path)
    more = f" (+{len(errors) - 1} more error(s))" if len(errors) > 1 else ""
    return GateError(f"{dotted(loc_clean)}: {_message(first)}{more}", where=where)
