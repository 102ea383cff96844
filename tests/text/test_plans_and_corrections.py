"""What a reasoning model writes around its picks: a plan before them, an offer of more help after
them, an entry that is an offer, and a correction that gives the picks again."""

from __future__ import annotations

import pytest

from gate.text.items import extract
from tests.conftest import run_checker


def names(answer: str) -> list[str]:
    return [item.name for item in extract(answer).items]


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("好的，我先梳理一下思路：\n\n1. 明确需求\n2. 筛选在售型号\n3. 说明亮点\n4. 给出推荐\n\n推荐这 3 款：\n\n"
                 "- **Bose QC Ultra**：约 2999 元\n- **AirPods Pro 2**：约 1899 元\n- **FreeBuds Pro 4**：约 1299 元\n",
                 ["Bose QC Ultra", "AirPods Pro 2", "FreeBuds Pro 4"], id="a plan longer than the picks"),
    pytest.param("推荐这 3 款：\n\n1. **Bose QC Ultra**\n2. **AirPods Pro 2**\n3. **FreeBuds Pro 4**\n\n"
                 "如果需要，我还可以：\n\n1. 按预算再筛一遍\n2. 对比降噪参数\n3. 推荐配套耳塞\n4. 查优惠\n",
                 ["Bose QC Ultra", "AirPods Pro 2", "FreeBuds Pro 4"], id="an offer of more help after them"),
    pytest.param("1. 鹿回头海鲜楼：人均 280 元\n2. 天涯渔港：人均 240 元\n3. 以上都不合适时告诉我预算，我再找\n",
                 ["鹿回头海鲜楼", "天涯渔港"], id="an entry that is an offer"),
    pytest.param("为您推荐：\n\n1. **Bose QC Ultra**：2999 元\n2. **AirPods Max**：3999 元\n3. **FreeBuds Pro 4**：1299 元\n"
                 "4. **Momentum 4**：2499 元\n\n等等，您要的是 3 款，去掉第 4 款，最终推荐：\n\n"
                 "- **Bose QC Ultra**\n- **AirPods Max**\n- **FreeBuds Pro 4**\n",
                 ["Bose QC Ultra", "AirPods Max", "FreeBuds Pro 4"], id="a correction gives the picks again"),
    pytest.param("Here are 3 picks:\n\n1. **Bose QC Ultra**\n2. **Sony XM5**\n3. **AirPods Max**\n\nUpdate: Sony is out, final list:\n\n"
                 "1. **Bose QC Ultra**\n2. **AirPods Max**\n3. **FreeBuds Pro 4**\n",
                 ["Bose QC Ultra", "AirPods Max", "FreeBuds Pro 4"], id="an English correction"),
])
def test_only_the_picks_are_read(answer: str, expected: list[str]) -> None:
    assert names(answer) == expected


def test_a_later_list_without_a_correction_does_not_replace_the_picks() -> None:
    answer = ("推荐这 3 款：\n\n1. **Bose QC Ultra**\n2. **AirPods Pro 2**\n3. **FreeBuds Pro 4**\n\n选购建议：\n\n"
              "- 长途飞行选头戴式\n- 通勤选入耳式\n")
    assert names(answer) == ["Bose QC Ultra", "AirPods Pro 2", "FreeBuds Pro 4"]


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("1. **Bose QC Ultra**：2999 元\n2. **AirPods Pro 2**：1899 元\n"
                 "3. **以上都不合适时可选：漫步者 NeoBuds Pro 2**：约 699 元\n",
                 ["Bose QC Ultra", "AirPods Pro 2", "漫步者 NeoBuds Pro 2"], id="a fallback that names a pick is that pick"),
    pytest.param("1. **Bose QC Ultra**：2999 元\n2. **AirPods Pro 2**：1899 元\n"
                 "3. **以上都不合适时**：告诉我你的预算和手机型号，我再帮你挑\n",
                 ["Bose QC Ultra", "AirPods Pro 2"], id="a fallback that asks for more is no pick"),
    pytest.param("| 型号 | 价格 |\n|---|---|\n| 一加 Ace 5 | 2299 元 |\n| 荣耀 GT | 2199 元 |\n\n"
                 "另外 Redmi Turbo 4（1999 元）也值得看，性价比很高。\n",
                 ["一加 Ace 5", "荣耀 GT", "Redmi Turbo 4"], id="another pick added in prose without a comma"),
])
def test_entries_around_the_picks(answer: str, expected: list[str]) -> None:
    assert names(answer) == expected


def test_an_html_table_without_a_header_row_reads_every_row_and_its_group_labels_as_notes() -> None:
    answer = ("<table><tr><th colspan='2'>日常训练</th></tr><tr><td>Nike Pegasus 41</td><td>899 元</td></tr>"
              "<tr><td>HOKA Clifton 9</td><td>1199 元</td></tr><tr><th colspan='2'>竞速</th></tr>"
              "<tr><td>特步 160X 6.0</td><td>1499 元</td></tr></table>")
    from gate.subject import Subject
    from gate.trajectory import Trajectory

    items = Subject(Trajectory(case_id="c", group="A", run=0, final_answer=answer)).items.items
    assert [item.name for item in items] == ["Nike Pegasus 41", "HOKA Clifton 9", "特步 160X 6.0"]


def test_english_attribute_labels_describe_a_single_pick() -> None:
    answer = ("My pick: **Siji Minfu Roast Duck**\n\n- Per person: ~¥250\n- Setting: private rooms\n"
              "- Order: the roast duck\n")
    assert names(answer) == ["Siji Minfu Roast Duck"]


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("第一款推荐联想 ThinkPad X1 Carbon，约 9999 元；第二款是华为 MateBook 14，约 5999 元；最后一款是华硕灵耀 14 Air，约 6499 元。",
                 ["联想 ThinkPad X1 Carbon", "华为 MateBook 14", "华硕灵耀 14 Air"], id="prose ordinals in one paragraph"),
    pytest.param("首推玉林路的串串香，按签子结账；其次是冒菜，一人份荤素自选。", ["玉林路的串串香", "冒菜"],
                 id="首推 … 其次是 …"),
    pytest.param("推荐三款：第一款是联想小新 Pro 14，约 5499 元；第二款是华为 MateBook 14，约 5999 元。",
                 ["联想小新 Pro 14", "华为 MateBook 14"], id="the first ordinal after a colon"),
    pytest.param("两千块以内的耳机我挑了几副，第一副是索尼 WH-CH720N，降噪够用；第二副是漫步者 W820NB，续航很长。",
                 ["索尼 WH-CH720N", "漫步者 W820NB"], id="the first ordinal after a comma"),
])
def test_picks_named_by_prose_ordinals_sentence_by_sentence(answer: str, expected: list[str]) -> None:
    assert names(answer) == expected


@pytest.mark.parametrize("answer", [
    "第一家是四季民福，烤鸭地道；第二家是大董，环境更好；第三家嘛，看你想不想排队。",
    "推荐三个地方。第一个杭州，西湖边骑车。第二个苏州，逛园林。第三个嘛，魔都其实也不错，外滩夜景很出片。",
])
def test_an_ordinal_that_names_no_clear_pick_leaves_a_count_it_decides_uncertain(answer: str) -> None:
    found = extract(answer)
    assert len(found) == 3 and found.unread_picks == 1  # its clause stands as the name: a term check still sees it
    outcome = run_checker("items:count", {"exact": 3}, answer)
    assert outcome.status.value == "uncertain"
    assert [(r.label, r.verdict.value) for r in outcome.readings] == [
        ("3 picks: the ordinal counts", "pass"), ("2 picks: only the named ones", "fail")]
    assert run_checker("items:count", {"min": 2}, answer).status.value == "pass"


def test_a_name_after_a_filler_is_taken_when_it_is_clearly_one() -> None:
    answer = "第一款是 Bose QC Ultra，降噪最强；第二款是 AirPods Pro 2，苹果生态；第三款呢，Sony WH-1000XM5，续航长。"
    found = extract(answer)
    assert [item.name for item in found.items][-1] == "Sony WH-1000XM5" and found.unread_picks == 0


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("商务宴请的话，我推荐京兆尹雍和宫店，有独立包间，人均大概 280 元。如果订不到，第二家可以考虑四季民福故宫店，人均 250 元。",
                 [("京兆尹雍和宫店", [280.0]), ("四季民福故宫店", [250.0])], id="a pick and a backup, each to the next"),
    pytest.param("推荐您选联想 IdeaPad 1，999 元，上网课够用。", [("联想 IdeaPad 1", [999.0])], id="a model"),
    pytest.param("我不推荐你去全聚德前门店，太挤了。", [], id="a declined one is no pick"),
    pytest.param("我推荐先想清楚预算，再去店里试试。", [], id="advice names no pick"),
    pytest.param("推荐四季民福烤鸭店（故宫店）。店里有包间，人均大约 260 元。", [("四季民福烤鸭店（故宫店）", [260.0])],
                 id="a bare 推荐 and a branch in brackets"),
    pytest.param("推荐您去新荣记（新源南路店）的午市，人均 350 元左右。", [("新荣记（新源南路店）", [350.0])],
                 id="a branch in brackets is part of the name"),
    pytest.param("告诉我你的口味，我再按区域给你推荐具体的店。", [], id="a kind of place is no pick"),
    pytest.param("我推荐最合适的露营地给你，先说说出发地吧。", [], id="a superlative describes, it does not name"),
])
def test_picks_spoken_in_plain_prose(answer: str, expected: list[tuple[str, list[float]]]) -> None:
    assert [(item.name, [p.value for p in item.prices]) for item in extract(answer).items] == expected


def test_a_count_records_the_reading_it_took_and_the_ones_it_set_aside() -> None:
    answer = ("好的，我先梳理一下思路：\n\n1. 明确需求\n2. 筛选在售型号\n3. 说明亮点\n4. 给出推荐\n5. 总结\n\n推荐这 3 款：\n\n"
              "- **Bose QC Ultra**：约 2999 元\n- **AirPods Pro 2**：约 1899 元\n- **FreeBuds Pro 4**：约 1299 元\n")
    outcome = run_checker("items:count", {"exact": 3}, answer)
    assert outcome.status.value == "pass"
    assert outcome.detail.endswith("also read: 5 entries of the list at line 3 (a plan or an offer of more help)")
    assert [(r.label, r.verdict.value, r.chosen, r.why) for r in outcome.readings] == [
        ("3 items from the list at line 11", "pass", True, "a lead-in states their count"),
        ("5 entries of the list at line 3", "fail", False, "set aside: a plan or an offer of more help")]


def test_a_draft_a_correction_replaces_is_on_the_record_as_such() -> None:
    answer = ("为您推荐：\n\n1. **Bose QC Ultra**：2999 元\n2. **AirPods Max**：3999 元\n3. **FreeBuds Pro 4**：1299 元\n"
              "4. **Momentum 4**：2499 元\n\n等等，您要的是 3 款，去掉第 4 款，最终推荐：\n\n"
              "- **Bose QC Ultra**\n- **AirPods Max**\n- **FreeBuds Pro 4**\n")
    outcome = run_checker("items:count", {"exact": 3}, answer)
    assert outcome.status.value == "pass" and outcome.readings[0].why == "the list a correction gives"
    assert outcome.readings[1].why == "set aside: a draft the correction replaces"


@pytest.mark.parametrize(("answer", "expected", "why"), [
    pytest.param("需求核对：\n- ✅ Markdown 列表格式\n- ✅ 恰好 3 款\n- ✅ 附参考价\n- ✅ 不要苹果\n\n推荐如下：\n\n"
                 "- **ThinkPad X1 Carbon**：约 9999 元\n- **MateBook 14**：约 5999 元\n- **灵耀 14 Air**：约 6499 元\n",
                 ["ThinkPad X1 Carbon", "MateBook 14", "灵耀 14 Air"], "a checklist of the request", id="a checklist lead-in"),
    pytest.param("- ✅ 推荐 3 个城市\n- ✅ 适合周末游\n- ✅ 每个介绍 30 字以内\n- ❌ 不推荐北京、上海\n\n"
                 "1. **苏州**：园林与平江路\n2. **杭州**：西湖骑行\n3. **南京**：梧桐与城墙\n",
                 ["苏州", "杭州", "南京"], "a checklist of the request", id="ticked entries beside the picks"),
    pytest.param("✅ 成都美食\n✅ 不推荐火锅\n\n1. **串串香**：竹签串菜\n2. **担担面**：芽菜肉臊\n3. **钟水饺**：红油甜咸口\n",
                 ["串串香", "担担面", "钟水饺"], "a checklist of the request", id="a ticked line above the picks introduces nothing"),
])
def test_a_checklist_of_the_request_holds_no_picks(answer: str, expected: list[str], why: str) -> None:
    found = extract(answer)
    assert [item.name for item in found.items] == expected
    assert [a.why for a in found.also_read] == [why]


def test_ticked_entries_alone_are_the_picks() -> None:
    assert names("✅ 苏州：园林\n✅ 杭州：西湖\n✅ 南京：城墙\n") == ["苏州", "杭州", "南京"]


def test_a_report_s_section_headings_are_no_picks_and_its_table_is_read() -> None:
    rows = "".join(f"| {n} | 型号{n} X{n} | {4000 + n} 元 |\n" for n in range(1, 13))
    answer = (f"## 执行摘要\n\n我们扫描了在售机型[1]。\n\n## 市场全景\n\n| # | 型号 | 参考价 |\n|---|---|---|\n{rows}\n"
              "## 结论\n\n预算有限优先看 3 号。\n\n## Sources\n\n[1] 中关村在线\n")
    found = extract(answer)
    assert (found.source, len(found)) == ("table", 12)


def test_a_letter_announcing_its_pick_names_it_in_the_next_paragraph() -> None:
    answer = ("主题：商务宴请餐厅推荐\n\n刘总：\n\n您好！结合人均不超过 300 元的要求，推荐以下一家：\n\n"
              "京兆尹（雍和宫店）。四合院环境安静，人均约 280 元。\n\n说明：高端宴请通常人均 500 元以上。\n\n此致\n敬礼！\n")
    found = extract(answer)
    assert [(item.name, [price.value for price in item.prices]) for item in found.items] == [("京兆尹（雍和宫店）", [280.0])]
    # announcing a kind of thing is not announcing a pick
    assert extract("推荐以下几点：\n\n早点出发，避开高峰。\n").items == ()


def test_circled_numbers_inside_a_sentence_open_a_pick_each() -> None:
    answer = ("送长辈可以考虑这三样：①一套武夷山大红袍茶叶礼盒，约 680 元，体面又实用；②一台颈椎按摩仪，约 899 元，"
              "适合久坐的长辈；③一条羊绒围巾，约 450 元，冬天用得上。")
    found = extract(answer)
    assert len(found.items) == 3
    assert [price.value for item in found.items for price in item.prices] == [680.0, 899.0, 450.0]


def test_a_voice_transcript_without_marks_names_a_pick_after_each_ordinal() -> None:
    answer = ("好的给你推荐三款降噪耳机 第一个呢是 Bose QC Ultra 大概两千九百九十九 降噪效果最强 第二个是 AirPods Pro 2 "
              "一千八百九十九 苹果手机用起来最方便 第三个是华为 FreeBuds Pro 4 一千二百九十九 性价比很高 "
              "另外呢森海塞尔 Momentum 4 也可以考虑一下音质非常好")
    names = [item.name for item in extract(answer).items]
    assert names[:3] == ["Bose QC Ultra", "AirPods Pro 2", "华为 FreeBuds Pro 4"]
    assert len(names) == 4 and names[3].startswith("森海塞尔 Momentum 4")  # the one slipped in after 另外


def test_a_list_of_sources_is_not_the_picks() -> None:
    answer = ("一句话结论：新手优先缓震。\n\n1. **Nike Pegasus 41** — 约 899 元[1]\n2. **HOKA Clifton 9** — 厚底缓震[2]\n\n"
              "参考来源：\n1. RunRepeat 跑鞋评测 https://runrepeat.com\n2. HOKA 官网 https://www.hoka.com/cn\n"
              "3. 知乎 跑鞋选购指南 https://zhuanlan.zhihu.com/p/1\n")
    assert [item.name for item in extract(answer).items] == ["Nike Pegasus 41", "HOKA Clifton 9"]


@pytest.mark.parametrize(("answer", "status"), [
    pytest.param("推荐 3 家：\n\n1. **鹿回头海鲜楼**：人均 280 元\n2. **天涯渔港**：人均 240 元\n3. **春园海鲜广", "uncertain",
                 id="cut inside the last name"),
    pytest.param("推荐 3 家：\n\n1. **鹿回头海鲜楼**：人均 280 元\n2. **天涯渔港**：人均 240 元\n3. **春园海鲜广场：人均 150 元",
                 "pass", id="an unclosed bold before a whole entry is a slip"),
])
def test_an_answer_cut_inside_its_last_entry_leaves_the_count_uncertain(answer: str, status: str) -> None:
    outcome = run_checker("items:count", {"exact": 3}, answer)
    assert outcome.status.value == status, outcome.detail
    if status == "uncertain":
        assert "ends inside its last entry" in outcome.detail
        assert {reading.verdict.value for reading in outcome.readings} == {"pass", "fail"}
