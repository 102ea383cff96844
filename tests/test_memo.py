"""What is made once per shared object, by its identity."""

from __future__ import annotations

from gate.process.memo import ByIdentity


def test_made_once_per_object_and_extra_and_never_for_a_reused_id() -> None:
    made: list[str] = []
    memo: ByIdentity[str] = ByIdentity(limit=2)

    def make(value: list[str]) -> str:
        made.append(",".join(value))
        return made[-1]

    first, second = ["a"], ["a"]  # equal, not the same object
    assert memo.get(first, make, first) == memo.get(first, make, first) == "a"
    assert memo.get(second, make, second) == "a" and made == ["a", "a"]
    assert memo.get(first, make, first, extra="fail") == "a" and len(made) == 3
    for _ in range(5):  # a new object each time: were the first one freed, its id could come back
        fresh = [str(len(made))]
        assert memo.get(fresh, make, fresh) == fresh[0]
