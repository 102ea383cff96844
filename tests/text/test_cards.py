"""Product cards read as one pick each: a name line and its detail lines, emoji-led, as shopping and
travel assistants lay them out; a voice assistant's spoken ordinals; emoji-led paragraphs as prose."""

from __future__ import annotations

import pytest

from gate.checkers import REGISTRY
from gate.subject import Subject
from gate.text.items import extract
from gate.trajectory import Trajectory


def read(answer: str) -> list[tuple[str, list[float]]]:
    return [(item.name, [price.value for price in item.prices]) for item in extract(answer).items]


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("3 款👇\n\n🎧 Bose QC Ultra\n💰 券后 ¥2,699｜降噪顶级\n\n🎧 AirPods Pro 2\n💰 到手价 ¥1,499｜生态\n",
                 [("Bose QC Ultra", [2699.0]), ("AirPods Pro 2", [1499.0])], id="cards opening with the same glyph"),
    pytest.param("🍵 张一元茉莉花茶礼盒\n💰 券后 ¥368（日常价 ¥428）\n✨ 老字号\n\n🌿 同仁堂西洋参礼盒\n💰 到手价 ¥658\n✨ 滋补\n\n"
                 "🚫 已帮你避开钟表、鞋、伞\n",
                 [("张一元茉莉花茶礼盒", [368.0]), ("同仁堂西洋参礼盒", [658.0])],
                 id="cards going on alike, the struck-through daily price no price, a lone remark no card"),
    pytest.param("🏕️ 适合露营的 2 个地方\n\n📍 安吉江南天池｜高山湖泊\n📍 莫干山｜竹林营地\n",
                 [("安吉江南天池", []), ("莫干山", [])], id="a title over lines sharing a glyph"),
    pytest.param("🏮 **京兆尹**\n💰 人均 ¥268\n📍 五道营胡同 2 号\n\n⚠️ 说明：人均 300 元偏紧\n",
                 [("京兆尹", [268.0])], id="one card, every glyph different, a remark under it"),
    pytest.param("几个人气团购👇\n\n🥟 【钟水饺】红油水饺 2 份｜券后 ¥19.9\n🐰 【老妈兔头】麻辣兔头 3 个｜券后 ¥36\n"
                 "🍲 【大龙燚火锅】经典 2 人餐｜券后 ¥198\n",
                 [("【钟水饺】红油水饺 2 份", [19.9]), ("【老妈兔头】麻辣兔头 3 个", [36.0]), ("【大龙燚火锅】经典 2 人餐", [198.0])],
                 id="every line names and prices its own pick, whatever the glyphs"),
    pytest.param("🍽️ **四季民福烤鸭店**\n🎫 【商务 4 人套餐】券后 ¥1,088\n🏯 包间窗外就是故宫角楼\n",
                 [("四季民福烤鸭店", [1088.0])], id="a card whose detail line prices a package"),
    pytest.param("🚄 周末去哪儿 · 3 个好去处\n\n🏯 **苏州** ｜ 园林古城\n🌊 **舟山** ｜ 东极岛看日出\n🛶 **朱家角古镇** ｜ 小桥流水\n\n"
                 "🎫 一键预订高铁 + 酒店 ｜ 周末特惠 8 折起\n",
                 [("苏州", []), ("舟山", []), ("朱家角古镇", [])], id="lines each naming a pick under a title, a footer beside"),
    pytest.param("🍽️ 北京必吃餐厅 · 精选 2 家\n\n🦆 **四季民福烤鸭店** ｜ 人均 ¥198\n招牌烤鸭，窗外故宫角楼。\n\n"
                 "🥢 **局气** ｜ 人均 ¥95\n京味家常菜。\n\n📍 查看附近餐厅 ｜ 🎟️ 领取美食券\n",
                 [("四季民福烤鸭店", [198.0]), ("局气", [95.0])], id="cards opening with a name, a title and a call to action"),
    pytest.param("📱 3000 元内热销手机 TOP3\n\n| 机型 | 到手价 |\n|---|---|\n| 一加 Ace 5 | ¥2,299 |\n| 荣耀 GT | ¥2,199 |\n"
                 "| iQOO Neo10 | ¥2,399 |\n\n🔥 下单立减 100 ｜ 支持 24 期免息\n",
                 [("一加 Ace 5", [2299.0]), ("荣耀 GT", [2199.0]), ("iQOO Neo10", [2399.0])], id="a title and a footer around a table"),
    pytest.param("🎁 为您精选 2 款长辈礼物\n\n【1】🍵 **大益普洱茶 7572 礼盒**\n￥528 ｜ 月销 2000+\n\n【2】💆 **SKG 颈椎按摩仪 K5**\n"
                 "￥699 ｜ 月销 8000+\n\n🛒 点击商品卡片查看详情\n",
                 [("大益普洱茶 7572 礼盒", [528.0]), ("SKG 颈椎按摩仪 K5", [699.0])], id="numbered cards between a title and a footer"),
    pytest.param("🍽️ 商务宴请推荐\n\n⭐ **四季民福烤鸭店（故宫店）**\n人均 ¥260 ｜ 有包间\n招待外地客户的经典之选\n\n"
                 "🔁 **备选：京兆尹（雍和宫店）**\n人均 ¥290 ｜ 四合院包间\n\n💡 小提示：人均 300 略紧。\n📅 点击「立即订座」锁定包间\n",
                 [("四季民福烤鸭店（故宫店）", [260.0]), ("京兆尹（雍和宫店）", [290.0])],
                 id="a bold name after the glyph, a labelled second pick its label's pick"),
    pytest.param("🎁 送长辈 · 体面不贵重 · 3 款精选\n\n1. **🍵 西湖龙井明前特级礼盒 250g** ¥588\n   包装雅致\n"
                 "2. **💆 倍轻松颈椎按摩仪 N5** ¥399\n   热敷+按摩\n3. **🧣 鄂尔多斯羊绒围巾** ¥868\n   轻薄保暖\n\n"
                 "🚚 今日下单明天达 · 可选礼品包装\n",
                 [("西湖龙井明前特级礼盒 250g", [588.0]), ("倍轻松颈椎按摩仪 N5", [399.0]), ("鄂尔多斯羊绒围巾", [868.0])],
                 id="a title and a footer around a numbered list"),
    pytest.param("📍 为你找到附近适合露营的地方：\n\n1. ⛺ **白河湾露营地** · 怀柔 · 86km · ⭐4.7\n   河边草坪\n"
                 "2. ⛺ **黄草梁营地** · 门头沟 · 95km · ⭐4.5\n   高山草甸看日出\n\n🚗 点击卡片可一键导航 | 🎫 营地预订满 200 减 30\n",
                 [("白河湾露营地 · 怀柔 · 86km · ⭐4.7", []), ("黄草梁营地 · 门头沟 · 95km · ⭐4.5", [])],
                 id="map cards whose facts follow the name after spaced dots: two picks, not the title"),
])
def test_cards(answer: str, expected: list[tuple[str, list[float]]]) -> None:
    assert read(answer) == expected


def test_a_voice_assistant_s_spoken_ordinals_are_picks() -> None:
    answer = "给你推荐三家。第一家，四季民福，人均两百。第二家，方砖厂炸酱面，人均三十。第三家，南门涮肉，人均一百二。"
    assert [name for name, _ in read(answer)] == ["四季民福", "方砖厂炸酱面", "南门涮肉"]


def test_emoji_led_paragraphs_are_plain_text_but_adjacent_emoji_lines_are_a_list() -> None:
    entry = REGISTRY["markdown:plain_text"]

    def status(answer: str) -> str:
        subject = Subject(Trajectory(case_id="c", group="A", run=0, final_answer=answer))
        return entry(subject, entry.params.model_validate({})).status.value

    assert status("🚗 交通｜直飞约 6 小时。\n\n🏨 住宿｜水明漾或库塔。\n\n🍽️ 美食｜脏鸭饭。\n") == "pass"
    assert status("• 海神庙\n• 情人崖\n• 圣泉寺\n") == "fail"
