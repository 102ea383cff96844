"""The agent of test_check.py, called in process through the python adapter: a fixed answer per user
message, and the cases named in ``BREAK`` (in the groups of ``BREAK_GROUPS``) answered badly on purpose."""

from __future__ import annotations

import os
from typing import Any

ANSWERS = {"推荐 3 款降噪耳机": "1. Bose\n2. Apple\n3. 华为", "推荐 2 款跑鞋": "1. 亚瑟士\n2. 索康尼"}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    text = ANSWERS[request["messages"][-1]["content"]]
    if request["case_id"] in os.environ.get("BREAK", "").split(",") and \
            request["group"] in os.environ.get("BREAK_GROUPS", "AB"):
        text += "\n9. 多余的一款"
    return {"case_id": request["case_id"], "group": request["group"], "run": request["run"], "final_answer": text,
            "tool_calls": []}
