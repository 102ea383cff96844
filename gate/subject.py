"""What checkers look at: a trajectory plus its answer's analyses, each computed once and shared.

The analyses belong to the answer's text, not to the run: runs that gave the same answer — a
deterministic agent's repeats, groups A and B answering alike, a refusal many cases get — share one
:class:`Answer` through :class:`Answers`, so its Markdown is parsed once however many runs and cases
judge it. The analysers are imported when an answer is first analysed, or by
:func:`prepare_analysers` while a run's first agent calls are out: loading and validating cases, or
a rerun whose verdicts are all cached, needs the checkers' parameters but never reads an answer."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from gate.trajectory import Trajectory

if TYPE_CHECKING:
    from gate.text.item import ItemList
    from gate.text.jsonanswer import JsonAnswer
    from gate.text.markdown import MarkdownDoc

T = TypeVar("T")


class Answer:
    """A final answer's analyses, lazy: a tool-only case never parses Markdown."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._readings: dict[str, Any] = {}

    @cached_property
    def markdown(self) -> MarkdownDoc:
        from gate.text.markdown import MarkdownDoc

        return MarkdownDoc(self.text)

    @cached_property
    def json(self) -> JsonAnswer:
        from gate.text.jsonanswer import parse_answer

        return parse_answer(self.text)

    @cached_property
    def view(self) -> str:
        """The text as a reader sees it rendered: HTML read as Markdown, fenced lists unwrapped
        (:mod:`gate.text.readable`); the text itself when it has neither."""
        from gate.text.readable import item_view

        return item_view(self.text)

    @cached_property
    def viewed(self) -> MarkdownDoc:
        """The Markdown of :attr:`view` (the answer's own when the view is the text)."""
        if self.view == self.text:
            return self.markdown
        from gate.text.markdown import MarkdownDoc

        return MarkdownDoc(self.view)

    @cached_property
    def items(self) -> ItemList:
        from gate.text.items import extract

        if self.json.ok:
            return extract(self.text, None)
        return extract(self.view, self.viewed)

    def reading(self, name: str, read: Callable[[Answer], T]) -> T:
        """``read(self)``, computed once per ``name``: any other reading that depends on the text alone."""
        if name not in self._readings:
            self._readings[name] = read(self)
        value: T = self._readings[name]
        return value


def prepare_analysers() -> None:
    """Import every analyser, build the Markdown parser and compile the deferred patterns, as the
    first answers analysed would: a run does this while its first agent calls are out,
    not while answers wait."""
    from gate.text.deferred import compile_deferred

    _ = Answer("").items  # the JSON reading, the Markdown parse and the items: every analyser
    compile_deferred()


class Answers:
    """The analyses of the answers judged lately, by text: a bounded memo, so a long stream holds
    at most ``kept`` answers, and none longer than ``longest`` characters (a huge answer is rare
    enough that keeping its parse costs more than parsing it again)."""

    def __init__(self, kept: int = 256, longest: int = 200_000) -> None:
        self._kept = kept
        self._longest = longest
        self._by_text: OrderedDict[str, Answer] = OrderedDict()

    def of(self, text: str) -> Answer:
        found = self._by_text.get(text)
        if found is not None:
            self._by_text.move_to_end(text)
            return found
        answer = Answer(text)
        if len(text) <= self._longest:
            self._by_text[text] = answer
            if len(self._by_text) > self._kept:
                self._by_text.popitem(last=False)
        return answer


class Subject:
    """A trajectory under judgement: the run itself (its tool calls) and its answer's analyses.

    A reasoning model's closed ``<think>…</think>`` block before its answer is its reasoning, not its
    answer — a chat client shows it apart or not at all — so it is set apart here, whatever the
    adapter (the openai adapter already sets it apart): the constraints judge the answer after it,
    and :attr:`reasoning` keeps it. A block left open is part of the answer."""

    def __init__(self, trajectory: Trajectory, answers: Answers | None = None) -> None:
        from gate.text.reasoning import split_reasoning

        self.trajectory = trajectory
        self.reasoning, text = split_reasoning(trajectory.final_answer)
        if not self.reasoning:
            text = trajectory.final_answer
        self._answer = text
        self.analysed = answers.of(text) if answers is not None else Answer(text)

    @property
    def answer(self) -> str:
        """The final answer judged: the agent's, after a closed reasoning block if it opens with one."""
        return self._answer

    @property
    def markdown(self) -> MarkdownDoc:
        return self.analysed.markdown

    @property
    def json(self) -> JsonAnswer:
        return self.analysed.json

    @property
    def items(self) -> ItemList:
        return self.analysed.items

    @property
    def viewed(self) -> MarkdownDoc:
        """The answer's Markdown as a reader sees it rendered (HTML and fenced lists read)."""
        return self.analysed.viewed
