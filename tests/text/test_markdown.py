"""Markdown structure via the parser: lists (merged when numbering goes on), tables, formatting."""

from __future__ import annotations

from gate.text.markdown import MarkdownDoc


def test_nested_items_stay_in_their_top_level_item() -> None:
    lists = MarkdownDoc("- 北京\n  - 故宫\n  - 长城\n- 上海\n  - 外滩\n").lists()
    assert [item.head for item in lists[0].items] == ["北京", "上海"]
    assert lists[0].items[0].text == "北京\n故宫\n长城"


def test_ordered_list_broken_by_prose_is_merged_and_prose_joins_the_item() -> None:
    doc = MarkdownDoc("1. 鹿回头\n\n需要预约。\n\n2. 海棠湾\n3. 天涯\n")
    (merged,) = doc.lists()
    assert [item.head for item in merged.items] == ["鹿回头", "海棠湾", "天涯"]
    assert merged.items[0].text == "鹿回头\n需要预约。"


def test_sub_points_written_as_separate_bullet_lists_join_their_items() -> None:
    doc = MarkdownDoc("1. 鹿回头\n- 人均 280 元\n2. 海棠湾\n- 人均 320 元\n3. 天涯\n- 人均 240 元\n")
    (merged,) = doc.lists()
    assert [item.text for item in merged.items] == ["鹿回头\n人均 280 元", "海棠湾\n人均 320 元", "天涯\n人均 240 元"]


def test_a_heading_stops_the_merge() -> None:
    doc = MarkdownDoc("1. A\n\n## 其他\n\n2. B\n")
    assert [len(block.items) for block in doc.lists()] == [1, 1]


def test_list_items_know_their_bold_lead() -> None:
    (block,) = MarkdownDoc("- **Bose QC Ultra**：降噪\n- Apple：生态\n").lists()
    assert [item.bold for item in block.items] == ["Bose QC Ultra", None]


def test_hyphens_in_dates_and_ranges_are_text() -> None:
    doc = MarkdownDoc("2025-05-10 出发\n3-5 天\n- 这一行才是列表\n")
    assert doc.formatting()[0].kind == "list"
    assert doc.formatting()[0].line == 3
    assert MarkdownDoc("2025-05-10 出发，3-5 天").formatting() == []


def test_tables_inside_lists_are_found() -> None:
    doc = MarkdownDoc("- 对比\n\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n")
    (table,) = doc.tables()
    assert table.cells == [["a", "b"], ["1", "2"]]


def test_literal_double_stars_beside_cjk_punctuation_count_as_emphasis() -> None:
    kinds = [f.kind for f in MarkdownDoc("推荐去“**清水寺**”看日落。").formatting()]
    assert kinds == ["emphasis"]


def test_heading_marks_with_no_space_count_as_a_heading_but_a_hashtag_does_not() -> None:
    assert [(f.kind, f.line) for f in MarkdownDoc("京都三日\n##京都\n第一天清水寺").formatting()] == [("heading", 2)]
    assert MarkdownDoc("#巴厘岛# 五天四晚，正文里的 ## 也不是").formatting() == []
    assert [f.kind for f in MarkdownDoc("```\n##not a heading\n```").formatting()] == ["code"]


def test_a_paragraph_indented_by_four_spaces_is_prose_not_code() -> None:
    from gate.text.markdown import MarkdownDoc

    doc = MarkdownDoc("三亚推荐：\n\n    第一天去亚龙湾，第二天去蜈支洲岛。\n\n    第三天休息。\n\n```\nfenced = True\n```\n")
    assert [b.kind for b in doc.blocks] == ["paragraph", "paragraph", "paragraph", "code"]
    assert [f.kind for f in doc.formatting()] == ["code"]  # the fence, and only it


def test_a_parsed_answer_is_freed_with_its_answer_without_the_collector() -> None:
    """Its tree holds parents weakly, so no cycle waits for a full collection (which a gate process
    runs rarely): 10,000 distinct answers stayed in memory until one came."""
    import gc
    import weakref

    doc = MarkdownDoc("# 推荐\n\n1. **索尼** WH-1000XM5\n   - 降噪\n2. Bose QC45\n\n| 型号 | 价格 |\n|---|---|\n| A | 1.2 万 |\n")
    list_node = doc.blocks[1].node
    assert list_node is not None and list_node.parent is doc.root and list_node.children[0].parent is list_node
    root = weakref.ref(doc.root)
    gc.disable()
    try:
        del doc, list_node
        assert root() is None
    finally:
        gc.enable()
