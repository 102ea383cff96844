"""Sentence splitting: terminators end sentences; decimals, versions and abbreviations do not."""

from __future__ import annotations

from typing import Any

import pytest

from gate.text.sentences import split_sentences
from tests.text.cases import corpus


@pytest.mark.parametrize("case", corpus("sentences"))
def test_sentences_counted_as_the_corpus_says(case: dict[str, Any]) -> None:
    assert len(split_sentences(case["text"])) == case["count"], case.get("why", "")


def test_closing_quote_stays_with_its_sentence() -> None:
    assert split_sentences("“太好了！”他说完就走了。") == ["“太好了！”", "他说完就走了。"]


def test_an_embedded_quotation_does_not_end_the_sentence() -> None:
    assert split_sentences("他说：“太好了！”然后走了。") == ["他说：“太好了！”然后走了。"]
    one = "iPhone 16 的卖点可以用一句“A18 加持，AI 更聪明，拍照快人一步！”来概括。"
    assert split_sentences(one) == [one]
    assert len(split_sentences("苹果官网写着「最快的 iPhone」。它的续航也更长。")) == 2





def test_a_blank_line_ends_a_sentence_without_an_end_mark() -> None:
    answer = "钟水饺皮薄馅嫩。\n👉 点击下方卡片领券，到店更划算～\n\n担担面挂满酱汁。\n👉 点击下方卡片领券，到店更划算～\n\n冒菜一人份。"
    assert split_sentences(answer) == ["钟水饺皮薄馅嫩。", "👉 点击下方卡片领券，到店更划算～", "担担面挂满酱汁。",
                                       "👉 点击下方卡片领券，到店更划算～", "冒菜一人份。"]
