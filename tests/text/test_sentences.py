"""Sentence splitting: terminators end sentences; decimals, versions and abbreviations do not."""

from __future__ import annotations

import pytest

from gate.text.sentences import split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("iPhone 16 续航多 3.5 小时，iOS 18.1 支持 v1.2 插件，e.g. 写作工具。", 1),
        ("拍照更好。续航更长！值得买吗？", 3),
        ("拍照更好了……续航也更长", 2),
        ("Camera is better... battery lasts longer.", 2),
        ("Dr. Smith tested it at 5.5 GHz. It was fast.", 2),
        ("没有结尾标点的一句话", 1),
        ("好吗？！真的。", 2),
        ("到手价约 5.5k 元。", 1),
        ("", 0),
        ("！！！", 0),
        ("1. 第一点\n2. 第二点", 2),
    ],
)
def test_sentence_count(text: str, expected: int) -> None:
    assert len(split_sentences(text)) == expected


def test_closing_quote_stays_with_its_sentence() -> None:
    assert split_sentences("“太好了！”他说完就走了。") == ["“太好了！”", "他说完就走了。"]


def test_an_embedded_quotation_does_not_end_the_sentence() -> None:
    assert split_sentences("他说：“太好了！”然后走了。") == ["他说：“太好了！”然后走了。"]
    one = "iPhone 16 的卖点可以用一句“A18 加持，AI 更聪明，拍照快人一步！”来概括。"
    assert split_sentences(one) == [one]
    assert len(split_sentences("苹果官网写着「最快的 iPhone」。它的续航也更长。")) == 2


@pytest.mark.parametrize(("text", "expected"), [
    ("this is a sentence. this is another one. and a third", 3),  # no capital marks the starts
    ("i like it, e.g. the bose. it is quiet etc. and cheap.", 2),  # abbreviations end nothing
    ("bose qc ultra. sony xm5 is lighter.", 2),
    ("see fig. 3 for the price.", 1),
    ("This is one. this stays one because the text uses capitals.", 1),
])
def test_all_lowercase_english_is_still_split(text: str, expected: int) -> None:
    assert len(split_sentences(text)) == expected
