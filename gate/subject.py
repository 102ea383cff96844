"""What checkers look at: a trajectory plus its answer's analyses, each computed once and shared."""

from __future__ import annotations

from functools import cached_property

from gate.text.item import ItemList
from gate.text.items import extract
from gate.text.jsonanswer import JsonAnswer, parse_answer
from gate.text.markdown import MarkdownDoc
from gate.trajectory import Trajectory


class Subject:
    """A trajectory under judgement. Analyses are lazy: a tool-only case never parses Markdown."""

    def __init__(self, trajectory: Trajectory) -> None:
        self.trajectory = trajectory

    @property
    def answer(self) -> str:
        return self.trajectory.final_answer

    @cached_property
    def markdown(self) -> MarkdownDoc:
        return MarkdownDoc(self.answer)

    @cached_property
    def json(self) -> JsonAnswer:
        return parse_answer(self.answer)

    @cached_property
    def items(self) -> ItemList:
        return extract(self.answer, None if self.json.ok else self.markdown)
