"""An agent with a live tool of its own, for test_record_tools.py: it closes ticket 7 in its own
ticket store, reads it back, and reports both calls with the results its tool gave."""

from __future__ import annotations

import json
from typing import Any


def answer(request: dict[str, Any]) -> dict[str, Any]:
    tickets = {7: "open"}
    tickets[7] = "closed"
    calls = [{"name": "update_ticket", "args": {"id": 7, "status": "closed", "note": "re: call"}, "result": json.dumps({"id": 7, "status": "closed"})},
             {"name": "get_ticket", "args": {"id": 7}, "result": json.dumps({"id": 7, "status": tickets[7]})},
             {"name": "notify", "args": {"to": "ops"}}]  # no result reported: nothing to record
    return {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
            "final_answer": "Ticket 7 is closed.", "tool_calls": calls}
