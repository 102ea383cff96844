"""What a run did, as judging tells repeats apart by: ``done_key`` is equal exactly when ``digest`` is."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gate.trajectory import ToolCall, Trajectory

texts = st.sampled_from(["", "1. Bose", "1. Bose\n", "[]", '[{"name":"a"}]', "中文", "\x00", "\ud800"]) | st.text(max_size=6)
calls = st.lists(st.builds(ToolCall, name=st.sampled_from(["search", "send_message"]),
                           arguments=st.dictionaries(st.sampled_from(["q", "to"]), texts | st.integers(), max_size=2)),
                 max_size=2).map(tuple)
runs = st.builds(Trajectory, case_id=st.just("B3-QC-01"), group=st.just("A"), run=st.integers(0, 3),
                 final_answer=texts, tool_calls=calls)


@given(runs, runs)
def test_done_key_tells_runs_apart_exactly_as_the_digest_does(first: Trajectory, second: Trajectory) -> None:
    assert (first.done_key == second.done_key) == (first.digest == second.digest)


def test_an_answer_that_spells_tool_calls_is_not_those_tool_calls() -> None:
    call = ToolCall(name="search", arguments={"q": "x"})
    with_call = Trajectory(case_id="c", group="A", run=0, final_answer="ok", tool_calls=(call,))
    spelled = Trajectory(case_id="c", group="A", run=1, final_answer='ok[{"arguments":{"q":"x"},"name":"search"}]')
    assert with_call.done_key != spelled.done_key
    assert with_call.done_key == with_call.model_copy(update={"run": 5, "metadata": {"ms": 1}}).done_key
