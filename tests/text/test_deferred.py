import re

from gate.text.deferred import _DEFERRED, compile_deferred, deferred


def test_a_deferred_pattern_compiles_on_first_use_and_is_the_same_object_after() -> None:
    pattern = deferred(r"第(\d+)天", re.IGNORECASE)
    assert pattern.cache_info().currsize == 0
    first = pattern()
    assert first.flags & re.IGNORECASE and first.search("行程第3天").group(1) == "3"
    assert pattern() is first


def test_compile_deferred_compiles_every_registered_pattern() -> None:
    pending = deferred(r"(?:only|仅)\s*\d+")
    assert pending in _DEFERRED and pending.cache_info().currsize == 0
    compile_deferred()
    assert all(compiled.cache_info().currsize == 1 for compiled in _DEFERRED)
