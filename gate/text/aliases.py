"""The alias library: a brand or category under all the names an answer may use.

Each group lists plain aliases (matched case- and width-insensitively; Latin ones on word
boundaries) and ``re:`` patterns for model lines. Chinese aliases are chosen long enough not to
hit unrelated words (钟表 not 钟, which is in 分钟).
"""

from __future__ import annotations

ALIAS_GROUPS: dict[str, tuple[str, ...]] = {
    "alienware": ("外星人", "Alienware"),
    "android": ("安卓", "Android"),
    "apple": (
        "苹果", "Apple", "MacBook", "iMac", "Mac mini", "Mac Studio", "Mac Pro", "AirPods",
        "iPhone", "iPad", "re:\\bMac\\b",
    ),
    "beijing": ("北京", "Beijing", "帝都", "Peking"),
    "bose": ("Bose",),
    "gaming_laptop": (
        "游戏本", "电竞本", "gaming laptop", "ROG", "玩家国度", "败家之眼", "外星人", "Alienware",
        "拯救者", "Legion", "暗影精灵", "OMEN", "光影精灵", "Victus", "雷神", "枪神",
        "re:机械革命(?!\\s*无界)",  # 机械革命无界 is the brand's thin-and-light line
        "魔霸", "天选", "TUF", "飞行堡垒", "掠夺者", "Predator", "暗影骑士", "Nitro",
        "re:战神\\s?[a-z]{1,2}\\d",  # 战神 Z8 / 战神S8, not 作战神器
        "神舟战神", "灵刃", "Razer Blade", "雷蛇", "微星泰坦", "Titan GT", "Raider", "火影",
        "七彩虹将星", "MSI Katana", "Katana GF", "Strix", "Scar", "幻16", "幻14", "Zephyrus",
        "re:(?<![a-z0-9])[ry][79]000[pkx]?(?![a-z0-9])",  # 拯救者 Y9000P / R9000P / Y7000P, often named bare
    ),
    # 《王者荣耀》 (Honor of Kings) is a game, not the brand
    "honor": ("re:(?<!王者)荣耀", "re:(?<![a-z0-9])honor(?![a-z])(?![\\s\\-_]*of[\\s\\-_]*kings)"),
    "hotpot": ("火锅", "hot pot", "hotpot", "牛油锅", "鸳鸯锅", "re:九宫格(?![拍照图])"),  # 九宫格 is the Chongqing pot
    "huawei": ("华为", "Huawei", "HUAWEI"),
    "oppo": (
        "OPPO", "OnePlus", "realme",
        # Not the arithmetic of 一加一大于二, nor 统一加入 / 唯一加分项 / 进一加强 / 第一加 ….
        "re:(?<![统唯进第单专同划万])一加(?![一二三四五六七八九两入上强大了以])",
        "re:真我\\s*(?:GT|Neo|\\d|手机)",  # 真我 alone is an everyday phrase
    ),
    "samsung": ("三星", "Samsung", "Galaxy"),
    "shanghai": ("上海", "Shanghai", "魔都"),
    "sony": (
        "索尼", "Sony", "re:WH-?1000X?M\\d*", "re:WF-?1000X?M\\d*", "re:\\b1000XM\\d\\b",
        "LinkBuds", "ULT WEAR", "INZONE", "re:\\bXM[3-6]\\b",
    ),
    "taboo_gift": (
        "钟表", "挂钟", "座钟", "台钟", "闹钟", "送钟", "手表", "腕表", "怀表", "智能手表",
        "re:(?<![a-z])watch(?![a-z])",  # 华为WATCH FIT 3, Apple Watch: a watch named without 手表
        "鞋", "雨伞", "遮阳伞", "折叠伞", "伞",
        "re:(?<!凤)梨",  # 凤梨 (pineapple, 凤梨酥) is not 梨 (pear)
        "剪刀",
        "re:菊花(?!茶)",  # 菊花茶 (chrysanthemum tea) is a common gift, not the flower of mourning
    ),
    "vivo": ("vivo", "iQOO"),
    "xiaomi": ("小米", "Xiaomi", "Redmi", "红米", "POCO", "re:\\bMi\\s?\\d{1,2}\\b", "米家"),
}
