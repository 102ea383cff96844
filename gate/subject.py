"""What checkers look at: a trajectory plus its answer's analyses, each computed once and shared.

The analysers are imported when an answer is first analysed: loading and validating cases, or a
rerun whose verdicts are all cached, needs the checkers' parameters but never reads an answer."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from gate.trajectory import Trajectory

if TYPE_CHECKING:
    from gate.text.item import ItemList
    from gate.text.jsonanswer import JsonAnswer
    from gate.text.markdown import MarkdownDoc


class Subject:
    """A trajectory under judgement. Analyses are lazy: a tool-only case never parses Markdown."""

    def __init__(self, trajectory: Trajectory) -> None:
        self.trajectory = trajectory

    @property
    def answer(self) -> str:
        return self.trajectory.final_answer

    @cached_property
    def markdown(self) -> MarkdownDoc:
        from gate.text.markdown import MarkdownDoc

        return MarkdownDoc(self.answer)

    @cached_property
    def json(self) -> JsonAnswer:
        from gate.text.jsonanswer import parse_answer

        return parse_answer(self.answer)

    @cached_property
    def items(self) -> ItemList:
        from gate.text.items import extract

        return extract(self.answer, None if self.json.ok else self.markdown)
