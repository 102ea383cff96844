"""The lexicon's data proves itself: every example is matched by its class and by no class it
excludes, no counter-example is matched, every alias group finds its examples and none of its
counter-examples, patterns stay linear, and wording does not creep back into the code."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gate import lexicon
from gate.errors import GateError
from gate.lexicon.load import DIRECTORY, alias_groups, classes, read_file
from gate.lexicon.model import PATTERN_PREFIX, WordClass
from gate.text.terms import expand, find

ROOT = Path(__file__).resolve().parents[2]
CLASSES = sorted(classes().by_name)
GROUPS = list(alias_groups())


@pytest.mark.parametrize("name", CLASSES)
def test_every_example_is_matched_by_its_class(name: str) -> None:
    missed = [example for example in lexicon.word_class(name).examples if not lexicon.pattern(name).search(example)]
    assert not missed, f"{classes().files[name]}: {name} does not match {missed}"


@pytest.mark.parametrize("name", CLASSES)
def test_no_counter_example_is_matched_by_its_class(name: str) -> None:
    hit = [example for example in lexicon.word_class(name).counter_examples if lexicon.pattern(name).search(example)]
    assert not hit, f"{classes().files[name]}: {name} matches {hit}"


EXCLUSIONS = sorted({tuple(sorted((name, other))) for name in CLASSES for other in lexicon.word_class(name).excludes})


@pytest.mark.parametrize(("one", "other"), EXCLUSIONS, ids=["·".join(pair) for pair in EXCLUSIONS])
def test_classes_that_exclude_each_other_share_no_example(one: str, other: str) -> None:
    for name, against in ((one, other), (other, one)):
        overlap = [example for example in lexicon.word_class(name).examples if lexicon.pattern(against).search(example)]
        assert not overlap, f"{name}'s examples {overlap} are also {against}"


def test_an_example_matched_by_a_class_it_excludes_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    # the check above catches the overlap: an example of one that the other matches
    one = WordClass(description="d", zh=["不推荐"], examples=["不推荐这款"], excludes=["test_other"])
    other = WordClass(description="d", zh=["推荐"], examples=["推荐这款"])
    monkeypatch.setitem(classes().by_name, "test_one", one)
    monkeypatch.setitem(classes().by_name, "test_other", other)
    with pytest.raises(AssertionError, match=r"test_one's examples \['不推荐这款'\] are also test_other"):
        test_classes_that_exclude_each_other_share_no_example("test_one", "test_other")


@pytest.mark.parametrize("group", GROUPS)
def test_every_alias_group_finds_its_examples_and_none_of_its_counter_examples(group: str) -> None:
    names = expand([], [group])
    written = alias_groups()[group]
    assert [example for example in written.examples if not find(example, names)] == []
    assert [example for example in written.counter_examples if find(example, names)] == []


def _parsed(expression: str) -> list[tuple[object, object]]:
    parser = getattr(re, "_parser", None)
    if parser is None:  # Python 3.10
        import sre_parse as parser
    return list(parser.parse(expression))


_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _trouble(items: list[tuple[object, object]], inside_repeat: bool = False) -> str | None:
    """A backreference, or a repeat inside a repeat: what can make a regular expression backtrack."""
    for opcode, argument in items:
        name = str(opcode)
        if name in ("GROUPREF", "GROUPREF_EXISTS"):
            return "a backreference"
        children: list[list[tuple[object, object]]] = []
        repeats = False
        if name in _REPEATS:
            _low, high, sub = argument  # type: ignore[misc]
            repeats = high != 1
            if repeats and inside_repeat:
                return "a nested quantifier"
            children = [list(sub)]
        elif name == "SUBPATTERN":
            children = [list(argument[-1])]  # type: ignore[index]
        elif name == "BRANCH":
            children = [list(branch) for branch in argument[1]]  # type: ignore[index]
        elif name in ("ASSERT", "ASSERT_NOT"):
            children = [list(argument[1])]  # type: ignore[index]
        for child in children:
            found = _trouble(child, inside_repeat or repeats)
            if found:
                return found
    return None


@pytest.mark.parametrize("name", CLASSES)
def test_every_class_compiles_to_a_linear_pattern(name: str) -> None:
    assert _trouble(_parsed(lexicon.source(name))) is None, lexicon.source(name)


def test_the_linearity_check_catches_what_backtracks() -> None:
    assert _trouble(_parsed(r"(?:a+)+")) == "a nested quantifier"
    assert _trouble(_parsed(r"(a)\1")) == "a backreference"
    assert _trouble(_parsed(r"(?:ab?){2}c*")) is None


def test_a_class_is_one_pattern_of_its_phrases_longest_first() -> None:
    word_class = WordClass(description="d", zh=["推荐", "强烈推荐", "re:首推(?!荐)"], examples=["推荐"])
    from gate.lexicon.compile import source

    # each character also in its traditional spelling (薦, 強), inside a set as well as outside
    assert source("x", word_class, lambda other: "") == "(?:[强強]烈推[荐薦]|推[荐薦]|首推(?![荐薦]))"
    assert source("x", WordClass(description="d", zh=["不", "别"], en=["-"], examples=["不"]), str) == r"[不别別彆\-]"


@pytest.mark.parametrize(("written", "compiled"), [
    ("景点", "景[点點]"),
    ("[^点a-z]", "[^点點a-z]"),
    ("[一-龥]", "[一-龥]"),  # a range's ends are left as they are
    (r"\[点\]", r"\[[点點]\]"),
    ("[]点]", "[]点點]"),
    ("点{2}", "[点點]{2}"),
])
def test_a_pattern_matches_traditional_spellings(written: str, compiled: str) -> None:
    from gate.lexicon.traditional import with_traditional

    assert with_traditional(written) == compiled


def test_traditional_answers_read_as_simplified_ones() -> None:
    from gate.lexicon.traditional import fold

    assert lexicon.pattern("suggests").search("也值得考慮") is not None
    assert lexicon.numbered("cn_digit")["兩"] == 2
    assert fold("鹿回頭海鮮樓") == "鹿回头海鲜楼" and len(fold("打個卡")) == 3


def test_a_class_in_braces_is_the_other_class(tmp_path: Path) -> None:
    from gate.lexicon.compile import source

    word_class = WordClass(description="d", zh=["re:第{digit}天"], not_after="negates", examples=["第1天"])
    assert source("x", word_class, lambda other: f"<{other}>") == "(?<!<negates>)(?:第<digit>天)"


def test_a_file_with_an_unknown_key_is_an_error_naming_the_file_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "cues.yaml"
    path.write_text("recommends:\n  description: d\n  zh: [推荐]\n  examples: [推荐]\n  counter_exmaples: [不推荐]\n",
                    encoding="utf-8")
    with pytest.raises(GateError) as caught:
        read_file(path, WordClass)
    assert str(caught.value) == (f"{path}:5: recommends.counter_exmaples: Extra inputs are not permitted"
                                 " — did you mean 'counter_examples'?")


def test_a_class_without_entries_or_examples_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "cues.yaml"
    path.write_text("recommends:\n  description: d\n  examples: [推荐]\n", encoding="utf-8")
    with pytest.raises(GateError, match=r"cues.yaml:2: recommends: a class needs entries: zh, en or both"):
        read_file(path, WordClass)
    path.write_text("Recommends:\n  description: d\n", encoding="utf-8")
    with pytest.raises(GateError, match="'Recommends': a name is lower case"):
        read_file(path, WordClass)


def test_a_class_the_code_names_must_exist() -> None:
    with pytest.raises(lexicon.LexiconError, match=r"no word class 'cn_digits' — did you mean 'cn_digit'\?"):
        lexicon.pattern("cn_digits")


def _named_in_code() -> set[str]:
    """Every string in the code that names a class: ``pattern("negates")``, ``charset("comma", …)``,
    a tuple of class names read in turn."""
    named = set()
    for path in (ROOT / "gate").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", node.value):
                named.add(node.value)
    return named


def _named_in_data() -> set[str]:
    named = set()
    for word_class in classes().by_name.values():
        named |= {name for name in (word_class.not_after, word_class.not_before) if name}
        for entry in word_class.entries():
            if entry.startswith(PATTERN_PREFIX):
                named |= set(re.findall(r"\{([a-z][a-z0-9_]*)\}", entry))
    return named


def test_every_class_is_read_by_the_code_or_another_class() -> None:
    assert set(CLASSES) - _named_in_code() - _named_in_data() == set()


CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f]")
ESCAPED_CJK = re.compile(r"\\(?:u(?:2e[89a-f]|2f|3[0-9a-f]|[4-9][0-9a-f]|f[9a]|fe[34]|ff)[0-9a-f]{2}|U0002[0-9a-f]{4})",
                         re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for statement in body:  # a docstring, or the string under a field that documents it
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    found.add(id(statement.value))
    return found


def cjk_literals(package: Path) -> list[str]:
    """Every string in the code, docstrings aside, holding a CJK character or an escape of one."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        documenting = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documenting
                    and (CJK.search(node.value) or ESCAPED_CJK.search(node.value))):
                found.append(f"{path.relative_to(package.parent)}:{node.lineno}")
    return found


MOST_CJK_LITERALS = 11
"""Wording lives in the lexicon: what is left in the code is display text (a unit's name) and the
few characters the analysers fold or split on."""


def test_wording_stays_in_the_lexicon_not_in_the_code() -> None:
    found = cjk_literals(ROOT / "gate")
    assert len(found) <= MOST_CJK_LITERALS, found


def test_the_count_sees_strings_escapes_and_f_strings_but_not_docstrings(tmp_path: Path) -> None:
    (tmp_path / "module.py").write_text('"""推荐 in a docstring"""\nA = "推荐"\nB = r"[\\u4e00-\\u9fff]"\n'
                                        'C = f"{A}精选"\nD = "plain"\n', encoding="utf-8")
    assert [place.rsplit(":", 1)[1] for place in cjk_literals(tmp_path)] == ["2", "3", "4"]


def test_gate_help_does_not_read_the_lexicon() -> None:
    code = ("import sys\nsys.argv = ['gate', '--help']\nfrom gate.cli.app import main\ntry:\n    main()\n"
            "except SystemExit:\n    pass\nprint('gate.lexicon' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True, cwd=ROOT)
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_the_files_are_package_data() -> None:
    assert any(DIRECTORY.glob("*.yaml"))
    assert '"lexicon/*.yaml"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
