"""Config and case files written to mislead: duplicate keys, alias bombs, booleans and NaN as numbers.

Each is refused with exit 2 and a message naming the file, the line and what was expected.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
import yaml

from gate.errors import GateError
from gate.files import yamlio

from .conftest import CASE, gate, validate


def _refused(case_text: str) -> str:
    result = validate(case_text)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    return result.stderr


# --- duplicate keys: the second value must not silently win ------------------------------------

@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # a second params block that loosens the check: exact 3 would silently become max 100
        ("    params:\n      exact: 3\n", "    params:\n      exact: 3\n    params:\n      max: 100\n",
         "cases/QC-01.yaml:19: duplicate key 'params' (first at line 17)"),
        # the same key twice inside one mapping, the later one winning
        ("      exact: 3\n", "      exact: 3\n      exact: 30\n",
         "cases/QC-01.yaml:19: duplicate key 'exact' (first at line 18)"),
        # an empty constraints list at the end would leave the case with nothing to check
        ("examples:\n", "constraints: []\nexamples:\n",
         "cases/QC-01.yaml:19: duplicate key 'constraints' (first at line 14)"),
        # two keys on one line of a flow mapping
        ("  A: {skill_enabled: false}", "  A: {skill_enabled: false, skill_enabled: true}",
         "cases/QC-01.yaml:12: duplicate key 'skill_enabled' (first at line 12)"),
        # a group given twice: its second setting would silently win
        ("  A: {skill_enabled: false}", "  A: {skill_enabled: false}\n  A: {skill_enabled: true}",
         "cases/QC-01.yaml:13: duplicate key 'A' (first at line 12)"),
    ],
    ids=["params-twice", "exact-twice", "constraints-emptied", "flow-mapping", "group-twice"],
)
def test_a_duplicate_key_in_a_case_names_both_lines(old: str, new: str, message: str) -> None:
    assert old in CASE
    assert _refused(CASE.replace(old, new, 1)) == f"gate: error: {message}\n"


def test_a_duplicate_key_in_gate_yaml_names_both_lines() -> None:
    Path("gate.yaml").write_text("out_dir: out\nagent:\n  adapter: replay\n  trajectories: runs.jsonl\n"
                                 "agent:\n  command: [python, agent.py]\n", encoding="utf-8")
    result = gate("check")
    assert (result.exit_code, result.stderr) == (2, "gate: error: gate.yaml:5: duplicate key 'agent' (first at line 2)\n")


def test_true_and_yes_are_the_same_key() -> None:
    with pytest.raises(GateError, match=r"^f\.yaml:2: duplicate key 'True' \(first at line 1\)$"):
        yamlio.load(Path("f.yaml"), "true: 1\nyes: 2\n")


def test_a_merge_key_may_still_be_overridden() -> None:
    # `<<: *base` then a key of its own is YAML's way of overriding, not a duplicate
    text = "base: &base {exact: 3, unit: zi}\nparams:\n  <<: *base\n  exact: 4\n"
    assert yamlio.load(Path("f.yaml"), text)["params"] == {"exact": 4, "unit": "zi"}


# --- alias bombs: refused fast, in bounded memory --------------------------------------------

def _bomb(levels: int, width: int = 10) -> str:
    lines = ["  l0: &l0 [" + ", ".join(['"lol"'] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"  l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_in_a_case_is_refused_quickly_in_bounded_memory() -> None:
    # ten levels of ten aliases each: 10^10 strings once expanded; a few hundred bytes on disk
    case = CASE.replace("input:\n", "input:\n  context:\n" + _bomb(10).replace("  l", "    l"), 1)
    tracemalloc.start()
    start = time.process_time()  # CPU time: a loaded machine stretches wall time, not this
    try:
        stderr = _refused(case)
    finally:
        elapsed = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert stderr.startswith("gate: error: cases/QC-01.yaml:14: too large once aliases (*name) are expanded:"
                             " more than 100000 YAML nodes")
    assert elapsed < 2.0
    assert peak < 50 * 1024 * 1024


def test_a_recursive_alias_is_refused() -> None:
    case = CASE.replace("input:\n", "input:\n  context: &loop\n    again: *loop\n", 1)
    assert _refused(case) == (
        "gate: error: cases/QC-01.yaml:9: an alias refers to a collection that contains it (a recursive structure)\n"
    )


def test_aliases_of_a_sensible_size_still_work() -> None:
    text = "shared: &m [{role: user, content: hi}]\n" + "".join(f"v{i}: *m\n" for i in range(50))
    assert yamlio.load(Path("f.yaml"), text)["v49"] == [{"role": "user", "content": "hi"}]


# --- booleans and non-finite numbers where a number is expected ------------------------------

@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("      exact: 3\n", "      exact: true\n",
         "cases/QC-01.yaml:18: constraints[0].params.exact: a boolean (true) where a number is expected"),
        ("    check: items:count\n    params:\n      exact: 3\n",
         "    check: tools:max_calls\n    params:\n      max: no\n",
         "cases/QC-01.yaml:18: constraints[0].params.max: a boolean (false) where a number is expected"),
        ("    check: items:count\n    params:\n      exact: 3\n",
         "    check: items:price\n    params:\n      max: .inf\n",
         "cases/QC-01.yaml:18: constraints[0].params.max: not a finite number (inf)"),
        ("    check: items:count\n    params:\n      exact: 3\n",
         "    check: items:price\n    params:\n      min: .nan\n",
         "cases/QC-01.yaml:18: constraints[0].params.min: not a finite number (nan)"),
        ("    check: items:count\n    params:\n      exact: 3\n",
         "    check: tools:args\n    params:\n      tool: search\n      args: {limit: .NaN}\n",
         "cases/QC-01.yaml:19: constraints[0].params.args: not a finite number (nan) at limit"),
        ("tags: [golden]\n", "tags: [golden]\nrepeats: yes\n",
         "cases/QC-01.yaml:8: repeats: a boolean (true) where a number is expected"),
    ],
    ids=["exact-true", "max-calls-no", "price-max-inf", "price-min-nan", "args-nan", "repeats-yes"],
)
def test_a_boolean_or_non_finite_number_is_a_parameter_error(old: str, new: str, message: str) -> None:
    assert old in CASE
    assert _refused(CASE.replace(old, new, 1)) == f"gate: error: {message}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("agent:\n  command: [python, a.py]\n  concurrency: true\n",
         "gate.yaml:3: agent.concurrency: a boolean (true) where a number is expected"),
        ("agent:\n  adapter: openai\n  url: http://127.0.0.1:1/v1\n  temperature: .nan\n",
         "gate.yaml:4: agent.temperature: not a finite number (nan)"),
        ("thresholds:\n  per_dimension:\n    B3/QC: {min_a: .nan}\n",
         "gate.yaml:3: thresholds.per_dimension: not a finite number (nan) at B3/QC.min_a"),
        ("repeats: on\n", "gate.yaml:1: repeats: a boolean (true) where a number is expected"),
    ],
    ids=["concurrency-true", "temperature-nan", "per-dimension-nan", "repeats-on"],
)
def test_a_boolean_or_non_finite_number_in_gate_yaml_is_refused(text: str, message: str) -> None:
    Path("gate.yaml").write_text(text, encoding="utf-8")
    result = gate("check")
    assert (result.exit_code, result.stderr) == (2, f"gate: error: {message}\n")


def test_a_boolean_stays_a_boolean_where_one_is_expected() -> None:
    assert validate(CASE.replace("  A: {skill_enabled: false}", "  A: {skill_enabled: no}")).exit_code == 0


def test_only_a_document_with_an_anchor_has_its_alias_graph_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    """No anchor, no alias: nothing is shared, so the walk that bounds an expansion is skipped."""
    from gate.files import yamlsafe

    walked: list[object] = []
    real = yamlsafe.check_expansion
    monkeypatch.setattr(yamlsafe, "check_expansion", lambda root: walked.append(root) or real(root))
    assert yaml.load("a: [1, 2]\nb: 'Q & A'\n", Loader=yamlsafe.StrictLoader) == {"a": [1, 2], "b": "Q & A"}
    assert len(walked) == 1  # an ampersand in a string is walked too: the check is on the text
    assert yaml.load("a: [1, 2]\nb: x\n", Loader=yamlsafe.StrictLoader) == {"a": [1, 2], "b": "x"}
    assert len(walked) == 1
    assert yaml.load("a: &x [1]\nb: *x\n", Loader=yamlsafe.StrictLoader) == {"a": [1], "b": [1]}
    assert len(walked) == 2


# --- scalars PyYAML cannot build: exit 2 at their line, never a traceback ------------------------

@pytest.mark.parametrize(
    ("new", "message"),
    [
        ("      exact: !!int 0x\n", "cases/QC-01.yaml:18: '0x' is not an integer"),
        ("      exact: " + "9" * 5000 + "\n", "cases/QC-01.yaml:18: an integer of more than 100 digits"),
        ("      exact: !!float abc\n", "cases/QC-01.yaml:18: 'abc' is not a number"),
        ("      exact: !!bool maybe\n", "cases/QC-01.yaml:18: 'maybe' is not true or false"),
    ],
    ids=["int-0x", "int-5000-digits", "float-abc", "bool-maybe"],
)
def test_a_scalar_yaml_cannot_build_is_refused_at_its_line(new: str, message: str) -> None:
    assert _refused(CASE.replace("      exact: 3\n", new, 1)) == f"gate: error: {message}\n"


def test_a_scalar_yaml_cannot_build_in_gate_yaml_is_refused_at_its_line() -> None:
    Path("gate.yaml").write_text("out_dir: out\nrepeats: !!int 0x\n", encoding="utf-8")
    result = gate("check")
    assert (result.exit_code, result.stderr) == (2, "gate: error: gate.yaml:2: '0x' is not an integer\n")


def test_a_date_looking_scalar_is_a_string_where_a_string_is_wanted() -> None:
    Path("cases").mkdir()
    Path("cases/2025-02-28.yaml").write_text(
        CASE.replace("id: QC-01", "id: 2025-02-28").replace("title: 精确数量", "title: 2025-02-29"), encoding="utf-8")
    result = gate("validate", "--cases", "cases")
    assert result.exit_code == 0, result.output
    assert yamlio.load(Path("x.yaml"), "id: 2025-02-29\nat: 2025-02-28 10:00:00\n") == {
        "id": "2025-02-29", "at": "2025-02-28 10:00:00"}
