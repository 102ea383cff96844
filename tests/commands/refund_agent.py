"""A support agent for the never-rule tests, called in process through the python adapter: it answers
every request politely, and calls the forbidden ``refund_order`` in a seeded share of its runs
(``REFUND_RATE``, drawn per case, group, run and ``REFUND_SEED``)."""

from __future__ import annotations

import hashlib
import os
from typing import Any


def refunds(case_id: str, group: str, run: int) -> bool:
    """Whether this run calls refund_order: the same draw every time for the same seed."""
    rate = float(os.environ.get("REFUND_RATE", "0"))
    key = f"{os.environ.get('REFUND_SEED', '0')}:{case_id}:{group}:{run}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64 < rate


def answer(request: dict[str, Any]) -> dict[str, Any]:
    calls = [{"name": "lookup_order", "args": {"id": "A-1"}, "result": '{"status": "delivered"}'}]
    if refunds(request["case_id"], request["group"], request["run"]):
        calls.append({"name": "refund_order", "args": {"id": "A-1"}, "result": '{"refunded": true}'})
    return {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
            "final_answer": "已为您查询订单，包裹已签收。", "tool_calls": calls}
