"""HTML and fenced lists read as a reader sees them rendered: the item view, and what it changes
for the checks that count picks or look for lists."""

from __future__ import annotations

import pytest

from gate.checkers import REGISTRY
from gate.subject import Subject
from gate.text.html import as_markdown, has_html
from gate.text.readable import item_view
from gate.trajectory import Trajectory


def subject(answer: str) -> Subject:
    return Subject(Trajectory(case_id="c", group="A", run=0, final_answer=answer))


def check(name: str, answer: str, **params: object) -> tuple[str, str]:
    entry = REGISTRY[name]
    outcome = entry(subject(answer), entry.params.model_validate(params))
    return outcome.status.value, outcome.detail


def test_a_rowspan_cell_is_repeated_down_the_rows_it_spans() -> None:
    html = ("<table><thead><tr><th>type</th><th>model</th><th>price</th></tr></thead><tbody>"
            "<tr><td rowspan='2'>over-ear</td><td>Bose QC Ultra</td><td>2999</td></tr>"
            "<tr><td>Sennheiser Momentum 4</td><td>2499</td></tr>"
            "<tr><td>in-ear</td><td>AirPods Pro 2</td><td>1899</td></tr></tbody></table>")
    assert as_markdown(html).strip().splitlines() == [
        "| type | model | price |", "|---|---|---|", "| over-ear | Bose QC Ultra | 2999 |",
        "| over-ear | Sennheiser Momentum 4 | 2499 |", "| in-ear | AirPods Pro 2 | 1899 |"]


def test_a_row_spanning_the_table_is_a_note_after_it_and_a_colspan_header_fills_its_columns() -> None:
    html = ("<table><tr><th colspan='2'>pick</th><th>price</th></tr>"
            "<tr><td>1</td><td>Bose</td><td>2999</td></tr>"
            "<tr><td colspan='3'>note: prices from the official store</td></tr></table>")
    assert as_markdown(html).strip().splitlines() == [
        "| pick | pick | price |", "|---|---|---|", "| 1 | Bose | 2999 |", "", "note: prices from the official store"]


def test_lists_bold_and_breaks() -> None:
    html = "Picks:<ol><li><b>Bose</b> quiet<br>light</li><li>Sony<ul><li>XM5</li></ul></li></ol>Done."
    assert as_markdown(html) == "Picks:\n\n1. **Bose** quiet\nlight\n2. Sony\n   - XM5\n\nDone.\n"


@pytest.mark.parametrize("text", ["价格 <3000 元，a<b 也行", "no tags at all", "1 < 2 > 0"])
def test_prose_with_angle_brackets_is_left_alone(text: str) -> None:
    assert not has_html(text) and as_markdown(text) == text


def test_unclosed_tags_and_entities_still_read() -> None:
    assert as_markdown("<ul><li>A &amp; B<li>C").strip().splitlines() == ["- A & B", "- C"]
    assert "| x | y |" in as_markdown("<table><tr><td>x<td>y")


def test_a_hostile_span_is_bounded() -> None:
    rows = as_markdown("<table><tr><td rowspan='999999999' colspan='999999'>x</td></tr></table>").splitlines()
    assert max(len(line) for line in rows) < 1000


@pytest.mark.parametrize(("answer", "count"), [
    ("<table><tr><th>model</th><th>price</th></tr><tr><td>Bose QC Ultra</td><td>2999 元</td></tr>"
     "<tr><td>AirPods Pro 2</td><td>1899 元</td></tr><tr><td>FreeBuds Pro 4</td><td>1299 元</td></tr></table>", 3),
    ("For you:<ul><li><b>Bose QC Ultra</b>: 2999 元</li><li><b>AirPods Pro 2</b>: 1899 元</li></ul>", 2),
    ("```text\n1. Bose QC Ultra  2999 元\n2. AirPods Pro 2  1899 元\n3. FreeBuds Pro 4  1299 元\n```", 3),
    ("```markdown\n- Bose QC Ultra\n- AirPods Pro 2\n```", 2),
])
def test_picks_in_html_and_in_plain_fences_are_counted(answer: str, count: int) -> None:
    status, detail = check("items:count", answer, exact=count)
    assert status == "pass", detail


def test_code_and_formulas_stay_fenced() -> None:
    formula = "```text\n|ψ⟩ = (|01⟩ + |10⟩) / √2\n```"
    code = "```python\n- x\n- y\n```"
    assert item_view(formula) == formula and item_view(code) == code


@pytest.mark.parametrize("answer", ["<ol><li>Day 1: Kyoto</li><li>Day 2: Nara</li></ol>",
                                    "```text\n- Day 1: Kyoto\n- Day 2: Nara\n```"])
def test_a_list_in_html_or_in_a_fence_is_a_list_to_no_list_and_plain_text(answer: str) -> None:
    assert check("markdown:no_list", answer)[0] == "fail"
    assert check("markdown:plain_text", answer, forbid=["list"])[0] == "fail"


def test_html_is_not_plain_text_nor_a_markdown_table() -> None:
    answer = "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
    status, detail = check("markdown:plain_text", answer)
    assert status == "fail" and "html at line 1" in detail
    assert check("markdown:table", answer)[0] == "fail"


def test_a_closed_reasoning_block_is_set_apart_from_the_answer_judged() -> None:
    thinking = "<think>\nThe user excluded Sony, so not the WH-1000XM5. Draft: 1. Bose 2. AirPods 3. Sony\n</think>\n\n"
    answer = '[{"name": "Bose QC Ultra"}, {"name": "AirPods Pro 2"}, {"name": "FreeBuds Pro 4"}]'
    judged = subject(thinking + answer)
    assert judged.answer == answer and judged.reasoning.startswith("The user excluded Sony")
    assert check("json:valid", thinking + answer)[0] == "pass"
    assert check("terms:forbidden", thinking + answer, groups=["sony"])[0] == "pass"
    assert check("items:count", thinking + answer, exact=3)[0] == "pass"
    unclosed = "<think>\nSony is out\n" + answer  # ran out of tokens while thinking: all of it was answered
    assert subject(unclosed).answer == unclosed and check("terms:forbidden", unclosed, groups=["sony"])[0] == "fail"


def test_lists_left_open_do_not_indent_every_later_line_deeper() -> None:
    hostile = "<ul><li>甲" * 2000  # each list opened inside the last, none closed
    assert len(as_markdown(hostile)) < 100_000  # one indent level per list would be 6 million spaces


@pytest.mark.parametrize("tail", ["</s>", "<|im_end|>", "\n<|eot_id|>\n"])
def test_a_chat_template_token_left_at_the_end_is_no_part_of_the_picks(tail: str) -> None:
    answer = '[{"name": "Bose QC Ultra"}, {"name": "AirPods Pro 2"}, {"name": "FreeBuds Pro 4"}]\n' + tail
    subject = Subject(Trajectory(case_id="c", group="A", run=0, final_answer=answer))
    assert (subject.analysed.items.source, len(subject.analysed.items)) == ("json", 3)
    assert not subject.analysed.json.ok  # the JSON format check still sees the answer as written

