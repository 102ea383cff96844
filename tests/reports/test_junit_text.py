"""The JUnit text is junit-xml's own pretty print, byte for byte, written without its DOM round trip."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import junit_xml
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.report.junit_text import report_parts

# What agents and attackers put in answers, beside any other character junit-xml can write at all
# (it fails on surrogates and U+FFFE/U+FFFF, which gate.redaction.sanitize.xml_safe removes first).
_TRICKY = ["\r", "\n", "\r\n", "\t", "&", "<", ">", '"', "'", "]]>", "&amp;", "&#10;", "\x00", "\x07", "\x0b",
           "\x1b[31m", "\x7f", "\x85", "\x9f", "\u2028", "\ufeff", "😀", "无索尼", "  ", "<![CDATA[x]]>"]
_TEXT = st.lists(st.one_of(st.sampled_from(_TRICKY), st.text(st.characters(
    blacklist_categories=("Cs",), blacklist_characters="\ufffe\uffff"), max_size=6)), max_size=6).map("".join)


def report_string(suites: list[Any], time: Decimal) -> str:
    return "".join(report_parts(suites, time))


def _junit_xml(suites: list[Any], time: Decimal) -> str:
    """The reference: junit-xml's document, with the root's float time replaced as gate replaces it."""
    text: str = junit_xml.to_xml_report_string(suites, prettyprint=True)
    return re.sub(r'(<testsuites [^>]*? time=")[^"]*', lambda m: f"{m.group(1)}{time}", text, count=1)


def _case(texts: list[str], kind: int, elapsed: Decimal | None) -> junit_xml.TestCase:
    name, classname, message, output, stdout = texts
    case = junit_xml.TestCase(name=name, classname=classname or None, elapsed_sec=elapsed,
                              file=f"cases/{name}.yaml", line=len(name) or None)
    if kind == 1:
        case.add_failure_info(message=message, output=output, failure_type="constraint")
    elif kind == 2:
        case.add_error_info(message=message, output=output, error_type="agent-error")
    elif kind == 3:
        case.add_skipped_info(message=message, output=output or None)
    case.stdout = stdout or None
    return case


@given(st.lists(st.tuples(_TEXT, st.dictionaries(_TEXT, _TEXT, max_size=3), st.lists(st.tuples(
    st.lists(_TEXT, min_size=5, max_size=5), st.integers(0, 3),
    st.none() | st.decimals(0, 1000, places=3)), max_size=4)), max_size=3))
def test_hostile_text_is_written_as_junit_xml_writes_it(drawn: list[Any]) -> None:
    suites = [junit_xml.TestSuite(name=name, properties=properties or None,
                                  test_cases=[_case(texts, kind, elapsed) for texts, kind, elapsed in cases])
              for name, properties, cases in drawn]
    suites.append(junit_xml.TestSuite(name="gate", test_cases=[junit_xml.TestCase("min-a", "gate", Decimal(0))]))
    assert report_string(suites, Decimal("36.796")) == _junit_xml(suites, Decimal("36.796"))


def test_a_carriage_return_survives_in_an_attribute_and_is_dropped_from_text() -> None:
    case = junit_xml.TestCase(name="a\rb", classname="c")
    case.add_failure_info(message="m\r\nn", output="x\r\ny")
    text = report_string([junit_xml.TestSuite(name="s", test_cases=[case])], Decimal(0))
    assert text == _junit_xml([junit_xml.TestSuite(name="s", test_cases=[case])], Decimal(0))
    assert 'name="a\rb"' in text and ">x\ny</failure>" in text


def test_an_element_whose_text_is_all_controls_is_written_empty() -> None:
    case = junit_xml.TestCase(name="n")
    case.stdout = "\x01\x02\x1b"
    text = report_string([junit_xml.TestSuite(name="s", test_cases=[case])], Decimal(0))
    assert "<system-out/>" in text
    assert text == _junit_xml([junit_xml.TestSuite(name="s", test_cases=[case])], Decimal(0))


def test_no_suite_is_an_empty_root() -> None:
    assert report_string([], Decimal(0)) == junit_xml.to_xml_report_string([], prettyprint=True)


def _suites(count: int) -> list[junit_xml.TestSuite]:
    return [junit_xml.TestSuite(name=f"B3/QC/{n}", test_cases=[junit_xml.TestCase(name=f"B3-QC-{n:02d} [A] run 0")])
            for n in range(count)]


def test_the_document_is_given_a_suite_at_a_time_never_joined() -> None:
    parts = list(report_parts(_suites(5), Decimal(1)))
    assert len(parts) == 5 + 2 and all(part.startswith("\t<testsuite ") for part in parts[1:-1])
    assert "".join(parts) == _junit_xml(_suites(5), Decimal(1))


def test_suites_that_cannot_wait_on_disk_wait_in_memory_and_the_text_is_the_same(
        fill_disk: Callable[[], None], capsys: pytest.CaptureFixture[str]) -> None:
    fill_disk()
    assert report_string(_suites(3), Decimal(1)) == _junit_xml(_suites(3), Decimal(1))
    assert capsys.readouterr().err.count("cannot keep the JUnit report's suites") == 1
