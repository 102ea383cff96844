"""Times each text analyser on adversarial inputs of its own kind (run in a subprocess by
test_linear_time.py, away from coverage tracing): prints one JSON object, name → CPU seconds."""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any, get_args

MB = 1_000_000
GROWTH = 11.0  # four times the input: about 4 when linear, 16 when quadratic; between is a shared machine's noise
LEXICON_GROWTH = 6.0  # one compiled class alone, timed without a reader around it: a tighter bound
NOISE_S = 0.01  # below this the larger input is too quick to time


def fill(unit: str, size: int) -> str:
    """``unit`` repeated to ``size`` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def _analysers() -> dict[str, tuple[Callable[[str], Any], list[str]]]:
    from gate.scoring import fields as consistency_fields
    from gate.text import canonical, cues, days, items, jsonanswer, names, prices, sentences, terms, units

    sony = terms.expand([], ["sony"])
    # Per analyser, the inputs that cost it most: long runs of what it reacts to.
    return {
        "sentences": (sentences.split_sentences, [" ", "\n1、", "“好。”", "……", "「他说。」"]),
        "days": (days.days_mentioned, ["第1、", "第一天到", "第 ", "Day 1 & "]),
        "prices": (prices.find_prices, ["1,299 ", "一百多块 ", "约1.2万元起 ", "200-300元 ", "Free3 - 499 元\n", "9"]),
        # a price, then one long run of spaces: what may follow a price was tried at every split of it
        "spaced_price": (lambda text: prices.find_prices("1元" + text), [" ", "\n", " \t"]),
        "terms": (lambda text: terms.find(text, sony), ["Sony索尼 ", "ＳＯＮＹ ", "\u200b", "S\u200eo\u0332n\u034fy "]),
        # marks of alternating classes: the normaliser reorders a run of them by insertion (quadratic
        # over a whole text, bounded by the stream-safe stretch); ignorables; composing and decorating
        "canonical": (canonical.canonical, ["a" + "\u0301\u0316" * 8, "\u0316\u0301", "\u200e\U000e0041", "e\u0301\u0332",
                                           "हिंदी ", "ﬁ㎏ ", "\u1100\u1161\u11a8"]),
        # every unit; a token of punctuation alone was once read to its end from each of its characters
        "units": (lambda text: [units.count(text, unit) for unit in get_args(units.Unit)], ["中a1 ", "😀", "!"]),
        "json": (jsonanswer.parse_answer, ["[", "```json\n[1]\n```\n", '{"a":']),
        "numbers": (consistency_fields._numbers, ["1 ", "-3~5℃ ", "零下 3 度 "]),
        "names": (lambda text: (names.split_name(text, None), names.named(text, None), names.called(text, text)),
                  ["**a**：", "（", "："]),
        "cues": (lambda text: (cues.marker(text), cues.notes_label(text), cues.notes_lead(text),
                               cues.stated_count(text), cues.attribute(text), cues.day(text)),
                 ["第1、", "推荐 3 款：", "1️⃣", "一、"]),
        # the item reader on many short runs numbering again from 1, each of which once read to the
        # end of the answer and was matched against every other (quadratic: 4.5 s at 20,000 chars)
        "items": (items.extract, ["1、甲\n\n2、乙\n\n3、丙\n\n", "1、甲\n2、乙\n3、丙\n", "Option A：甲\n\nOption B：乙\n\n",
                                  "1. 甲\n2) 乙\n3、丙\n\n",
                                  # glyph runs beside lists: each run once asked whether it frames a list
                                  "• 甲\n• 乙\n\n## 标题\n\n- 项\n- 项\n\n"]),
    }


def _checks() -> dict[str, tuple[Prepare, list[str]]]:
    """Checkers timed alone, on a subject read before the timing starts."""
    return {
        # the bullet lines under each of many headings: the answer was split into lines for each
        "plain_text": (_checked("markdown:plain_text"), ["## 标题\n• 甲\n• 乙\n\n", "*a* "]),
    }


def _long_lines() -> dict[str, tuple[Prepare, list[str]]]:
    """Analysers whose worst step was a copy per step: cheap per character, so its square shows only
    on inputs of hundreds of thousands of characters."""
    from gate.checkers import text_checks

    return {
        # the section labels of one long line of numbering: each lead once cut off a copy of the rest
        "sections": (_called(text_checks._labels), ["1、", "关于", "- ", "一、**交通**："]),
        # one long line of emphasis: the line was stripped (copied whole) for the snippet of each; wide
        # characters make the copy dearer
        "plain_text": (_checked("markdown:plain_text"), ["*😀* ", "*中* ", "`a` "]),
    }


Prepare = Callable[[str], Callable[[], Any]]
"""What makes the timed call from the text: what it does first is not timed."""


def _called(analyse: Callable[[str], Any]) -> Prepare:
    """``analyse`` timed from its first step."""
    return lambda text: partial(analyse, text)


def _checked(check: str) -> Prepare:
    """The checker ``check`` timed alone, on a subject parsed and its items read before the timing
    starts: beside the parse, a checker's own square would show only on far longer answers."""
    from gate.checkers import REGISTRY
    from gate.subject import Subject
    from gate.trajectory import Trajectory

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    from tests.checkers.example_files import PARAMS

    checker = REGISTRY[check]
    params = checker.params.model_validate(PARAMS[check])

    def prepare(text: str) -> Callable[[], Any]:
        subject = Subject(Trajectory(case_id="P", group="A", run=0, final_answer=text))
        assert subject.markdown and subject.viewed and subject.items is not None  # read, and kept
        return partial(checker, subject, params)

    return prepare


def _judging(sizes: list[int]) -> dict[str, dict[int, float]]:
    """Every checker on one shared subject, as a run is judged: Markdown-shaped inputs."""
    from gate.checkers import REGISTRY
    from gate.subject import Subject
    from gate.trajectory import Trajectory

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    from tests.checkers.example_files import PARAMS

    params = {check: REGISTRY[check].params.model_validate(PARAMS[check]) for check in REGISTRY}
    shapes = {
        "emphasis": "*a* ", "strong": "**鹿回头**：好 ", "nested-list": "  - a\n", "brackets": "[",
        "short-lists": "段落。\n\n- 甲\n- 乙\n\n", "numbered-lines": "1、苹果\n", "bold-lines": "**店**：人均 280 元\n",
        "headings": "## 交通\n", "table-rows": "| a | 1,299 元 |\n", "fences": "```\nx\n```\n", "quotes": "> ",
        "ordered": "1. 苹果 299 元\n", "brand-hits": "1. " + "Sony " * 50 + "\n",
        # what the item reader adds after a list, and the layouts it reads besides lists
        "extras": "1. 甲\n\n另外，**乙** 也值得考虑，约 300 元。\n\n", "unmarked-extras": "另外，森海塞尔 M4 也值得考虑\n\n",
        "region-lines": "乌布地区：梯田、圣泉寺、皇宫\n", "bold-prose": "**AirPods Pro 2** 和 ", "emoji-lines": "🎧 Bose：好\n",
        # glyph runs beside lists under headings: each run once asked whether it frames a list
        "glyph-runs": "• 甲\n• 乙\n\n## 标题\n\n- 项\n- 项\n\n",
        # the entity reader: structures beside the picks, set aside, and entries matched by their words
        "budget-tables": "1. **Bose QC Ultra**：好\n\n| 预算 | 推荐 |\n|---|---|\n| 1000 元 | Bose QC |\n| 900 元 | X1 |\n\n",
        "arrow-lines": "- 通勤 → Bose QuietComfort Ultra 头戴式\n", "set-aside": "以下几款已排除：\n\n- **a b c**：但直接买\n\n",
        "prose-picks": "1. **甲**：好\n\n| 型号 | 降噪 |\n|---|---|\n| 乙 X1 | 强 |\n\n也可以看看乙 X1，**丙** 是更好的选择。\n\n",
        "labelled-tables": "### 主推\n\n| 机型 | 价格 |\n|---|---|\n| 甲 | 1 元 |\n| 乙 | 2 元 |\n\n",
        "titles": "推荐《书》和**《书》**、", "commented-json": "```json\n// 注\n[1]\n```\n",
        "named-last": "我会选 **X1 C**：\n- 约 9 元，1kg\n\n", "inline-stated": "推荐这 3 款：甲（约 1 元）、乙、丙。\n\n",
        # many short runs, each numbering again from 1: a run's last entry once read to the end of the answer
        "restarting-runs": "1、甲\n\n2、乙\n\n3、丙\n\n", "mixed-markers": "1. 甲\n2) 乙\n3、丙 1 元\n\n",
        "summary-rows": "| 型号 | 价格 |\n|---|---|\n| 甲 | 1 元 |\n| 合计 | 1 元 |\n\n",
        # the readers of later styles: HTML, reasoning, cards, alternatives, prose ordinals, spoken picks
        "html-tables": "<table><tr><td>甲</td><td>1 元</td></tr>", "html-lists": "<ul><li>甲<li>乙 1 元</li>",
        "think-blocks": "<think>1. 甲\n</think>\n", "unclosed-think": "<think>推荐 3 款：",
        "cards": "🎧 Bose QC\n💰 券后 ¥2,699｜好\n", "coupon-lines": "🥟 【甲】2 份｜券后 ¥19.9\n",
        "alternatives": "1. 甲 / 乙 或 丙\n", "backups": "首选 **甲**，人均 1 元；备选 **乙**；",
        "prose-ordinals": "第一款推荐甲 X1，约 1 元；第二款是乙，", "ordinal-fillers": "第三个嘛，魔都其实也不错，",
        "spoken-picks": "我推荐京兆尹雍和宫店，可以考虑四季民福故宫店，", "party-prices": "4 人套餐 ¥1,088（4 人份）",
        "plans": "我先梳理一下思路：\n\n1. 明确需求\n", "disguised-terms": "S.o.n.y s0ny 索 尼 ",
        "pipe-lines": "甲 | 浙江 | 1 元\n", "key-value-blocks": "型号: 甲\n价格: 1 元\n\n", "checklists": "- ✅ 恰好 3 款\n",
        "report-sections": "## 执行摘要\n\n[1]\n\n", "template-tokens": "<|im_end|></s>", "unclosed-bold": "**甲 ",
    }
    def judge_all(trajectory: Trajectory) -> None:
        subject = Subject(trajectory)
        for check, checker in REGISTRY.items():
            checker(subject, params[check])

    def judging(unit: str, size: int) -> Callable[[], None]:
        return partial(judge_all, Trajectory(case_id="P", group="A", run=0, final_answer=fill(unit, size)))

    return {shape: _timed_by_size(partial(judging, unit), sizes) for shape, unit in shapes.items()}


# Text of no class: CJK characters spread over the unified block, the same every run.
_CJK_NOISE = "".join(chr(0x4E00 + (index * 7919) % 20_000) for index in range(997))


def lexicon_inputs(name: str) -> dict[str, str]:
    """Hostile text for one class of the lexicon: its own examples and phrases over and over, its
    phrases each cut short by a character (a near miss at every position), CJK noise, and a run of digits
    or of Chinese numerals (a count pattern that restarts at every digit is quadratic on one)."""
    from gate import lexicon

    word_class = lexicon.word_class(name)
    phrases = [entry for entry in word_class.entries() if not entry.startswith("re:")] or word_class.examples
    own = " ".join([*word_class.examples, *phrases]) + " "
    near = "".join(phrase[:-1] or "?" for phrase in [*phrases, *word_class.examples]) + " "
    return {"own": own, "near": near, "noise": _CJK_NOISE, "digits": "9", "numerals": "三"}


def _lexicon(sizes: list[int]) -> dict[str, dict[int, float]]:
    """Every class's compiled pattern scanning hostile text of each kind to its end."""
    from gate import lexicon
    from gate.lexicon.load import classes

    found = {}
    for name in classes().by_name:
        pattern = lexicon.pattern(name)
        for kind, unit in lexicon_inputs(name).items():
            found[f"{name}:{kind}"] = _timed_by_size(
                lambda size, unit=unit, pattern=pattern: partial(_scan, pattern, fill(unit, size)), sizes,
                growth=LEXICON_GROWTH)
    return found


def _scan(pattern: Any, text: str) -> int:
    return sum(1 for _ in pattern.finditer(text))


def _timed_by_size(call_of: Callable[[int], Callable[[], Any]], sizes: list[int], rounds: int = 3,
                   growth: float = GROWTH) -> dict[int, float]:
    """Best CPU time of the call at each size, sizes interleaved so that a noisy moment on a shared
    machine slows one round of every size rather than every round of one. One round decides an input
    that grows linearly; only one that looks worse is timed again, up to ``rounds`` in all, so a slow
    moment costs a retry, not a failure. A short untimed call first pays what a first call pays once
    (compiled patterns, parser set-up), which would otherwise swell the smaller size and hide growth.
    The collector is paused while timing because its passes depend on what earlier calls left alive,
    not on the input; what was alive before is frozen, so each pass before a timing is cheap."""
    calls = {size: call_of(size) for size in sizes}
    call_of(min(sizes) // 20)()
    gc.collect()
    gc.freeze()
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(rounds):
        for size, call in calls.items():
            gc.collect()
            gc.disable()
            started = time.process_time()
            try:
                call()
            finally:
                elapsed = time.process_time() - started
                gc.enable()
            best[size] = min(best[size], elapsed)
        if not too_slow(best[min(sizes)], best[max(sizes)], growth):
            break
    return best


def too_slow(small: float, large: float, growth: float = GROWTH) -> bool:
    """Whether four times the input cost more than ``growth`` times as much, and enough to time."""
    return large > NOISE_S and large / max(small, 1e-6) > growth


def main() -> None:
    """``analysers SIZE…``, ``long SIZE…``, ``judging SIZE…`` or ``lexicon SIZE…``: the timings at
    each size, keyed by input then size."""
    mode, sizes = sys.argv[1], [int(size) for size in sys.argv[2:]]
    found: dict[str, dict[int, float]] = {}
    if mode in ("analysers", "long"):
        entries = ({name: (_called(analyse), units) for name, (analyse, units) in _analysers().items()}
                   | _checks() if mode == "analysers" else _long_lines())
        for name, (prepare, units) in entries.items():
            for unit in units:
                found[f"{name}:{unit!r}"] = _timed_by_size(
                    lambda size, prepare=prepare, unit=unit: prepare(fill(unit, size)), sizes)
    elif mode == "lexicon":
        found = _lexicon(sizes)
    else:
        found = _judging(sizes)
    print(json.dumps(found))


if __name__ == "__main__":
    main()
