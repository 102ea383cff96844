"""Measured figures live in benchmarks/README.md, beside the method that produced them, not in the
code: a comment or docstring in gate/ says why (what would grow, what is held), never how large or
how long it was on one machine, so a figure cannot go stale where no benchmark rerun updates it."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gate"

FIGURE = re.compile(r"(?<![\w.-])\d[\d,.]*[\s-]?(?:[KMG]i?B|bytes?|[mµ]s|s|min|(?:milli|micro)?seconds?|minutes?|[\w ]+/s)(?![\w/])")
"""A number with a unit of size or time, or a rate: '~40 MiB', '320–360 ms', '0.1 s', '650-byte',
'420 traces/s'."""

ALLOWED: dict[tuple[str, str], str] = {
    ("net/body.py", "10 MB"): "the format the function writes, shown by example",
    ("net/body.py", "64 KB"): "the same example",
    ("net/body.py", "300 bytes"): "the same example",
    ("runner/progress.py", "12 s"): "a progress line, shown by example",
    ("runner/progress.py", "25 s"): "the same example",
    ("files/safefiles.py", "25 MB"): "GitHub's documented cap on a webhook payload, the reason for a limit",
    ("text/prices.py", "128GB"): "a product's storage in an example answer",
}
"""(module under gate/, figure) → why it is not a measurement."""


def _prose(source: str) -> Iterator[tuple[int, str]]:
    """Each comment and docstring (a string that is a statement of its own) with its first line."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    statement_start = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    code = [token for token in tokens if token.type not in (tokenize.NL, tokenize.COMMENT)]
    for token in tokens:
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for before, token, after in zip([None, *code], code, [*code[1:], None], strict=False):
        if (token.type == tokenize.STRING and (before is None or before.type in statement_start)
                and (after is None or after.type in (tokenize.NEWLINE, tokenize.ENDMARKER))):
            yield token.start[0], token.string


def figures(path: Path) -> list[str]:
    """``module:line: figure`` for each measured figure in the prose of ``path`` not allowed."""
    module = path.relative_to(PACKAGE).as_posix()
    return [f"{module}:{line}: {match.group()}" for line, text in _prose(path.read_text(encoding="utf-8"))
            for match in FIGURE.finditer(text) if (module, match.group()) not in ALLOWED]


@pytest.mark.parametrize("text", [
    "# 16,700 verdicts at 6,000 cases: ~40 MiB", '"""Took 320–360 ms."""', "# (0.1 s) while",
    "# a 1 KB file", '"""held 13 MiB"""', "# 2 KB each", "# 4,500 trajectories/s here", "# a 650-byte record",
    "# 22 µs without", "# took 3 seconds",
])
def test_a_figure_in_a_comment_or_docstring_is_found(text: str) -> None:
    found = [match.group() for _, prose in _prose(f"def f() -> None:\n    {text}\n    x = 1\n")
             for match in FIGURE.finditer(prose)]
    assert len(found) == 1, found


@pytest.mark.parametrize("text", [
    'x = "10 MB"  # a limit', "MiB = 1024 * 1024", 'f(budget_s=5)  # seconds one answer may take',
    'print("3 s")', "# at most 256 shards", '"""Every 10 % and B3-FC-01s."""', "# in UTF-8 bytes",
])
def test_code_and_unitless_numbers_are_not_figures(text: str) -> None:
    found = [match.group() for _, prose in _prose(f"{text}\n") for match in FIGURE.finditer(prose)]
    assert found == []


def test_no_comment_or_docstring_in_gate_states_a_measured_figure() -> None:
    found = [figure for path in sorted(PACKAGE.rglob("*.py")) for figure in figures(path)]
    assert found == [], "move each figure to benchmarks/README.md, with its method:\n" + "\n".join(found)


def test_every_allowed_figure_is_still_there() -> None:
    stated = {(module, match.group()) for module, _ in ALLOWED
              for _, text in _prose((PACKAGE / module).read_text(encoding="utf-8"))
              for match in FIGURE.finditer(text)}
    assert set(ALLOWED) <= stated, set(ALLOWED) - stated
