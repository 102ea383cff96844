"""junit-xml's pretty-printed document, written from its element trees without the DOM round trip.

``junit_xml.to_xml_report_string`` serialises the trees, cleans the text, parses it back into
``xml.dom.minidom`` and pretty-prints the DOM. With thousands of testcases the parse is most of
the time spent on the report, and the DOM grows with them. The text below follows the same path
character by character, and a test holds it to junit-xml's own output on hostile text:

- the serialiser writes every non-ASCII character as a reference, so the cleaning reaches only
  the ASCII controls;
- a carriage return is one of those in text, but in an attribute it is written as a reference and
  survives the parse;
- minidom escapes ``& < " >`` in text and attributes, puts text alone in its element on the
  element's line, and indents child elements by a tab.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from functools import cache
from typing import Any
from xml.etree.ElementTree import Element

from gate.files.spool import Held, TextSpool

_TEXT_DROPPED = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_ATTRIBUTE_DROPPED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_ESCAPED = {ord("&"): "&amp;", ord("<"): "&lt;", ord('"'): "&quot;", ord(">"): "&gt;"}
_COUNTS = ("disabled", "errors", "failures", "tests")


@cache
def _attribute_escapes() -> dict[int, str]:
    """How this Python's minidom writes attribute characters: newer releases also write tab,
    newline and carriage return as references, so they are asked rather than assumed."""
    from xml.dom import minidom

    table = dict(_ESCAPED)
    element = minidom.Document().createElement("a")
    for char in "\t\n\r":
        element.setAttribute("v", char)
        table[ord(char)] = element.toxml()[len('<a v="'):-len('"/>')]
    return table


def report_parts(suites: Iterable[Any], time: Decimal) -> Iterator[str]:
    """What ``junit_xml.to_xml_report_string(suites, prettyprint=True)`` returns, with the root's
    ``time`` the exact ``time`` instead of junit-xml's float sum, in parts: the root, whose counts
    need every suite written first, then each suite's text. Each suite is written and let go before
    the next is taken, so ``suites`` may build them one at a time; their texts wait in a temporary
    file, never all in memory."""
    escapes = _attribute_escapes()
    totals = dict.fromkeys(_COUNTS, 0)
    with TextSpool("the JUnit report's suites") as spool:
        body: list[Held] = []
        for suite in suites:
            tree = suite.build_xml_doc()
            for key in _COUNTS:
                totals[key] += int(tree.get(key, 0))
            lines: list[str] = []
            _write(tree, "\t", escapes, lines)
            body.append(spool.hold("".join(lines)))
        if not body:
            yield '<?xml version="1.0" ?>\n<testsuites/>\n'
            return
        root = Element("testsuites", {key: str(value) for key, value in totals.items()}, time=str(time))
        yield '<?xml version="1.0" ?>\n' + _head(root, "", escapes) + ">\n"
        for part in body:
            yield spool.text(part)
        yield "</testsuites>\n"


def _head(element: Element, indent: str, escapes: dict[int, str]) -> str:
    return indent + "<" + element.tag + "".join(
        f' {name}="{_ATTRIBUTE_DROPPED.sub("", value).translate(escapes)}"' for name, value in element.attrib.items())


def _write(element: Element, indent: str, escapes: dict[int, str], lines: list[str]) -> None:
    """``element`` as minidom pretty-prints it (junit-xml's trees set no tails)."""
    head = _head(element, indent, escapes)
    text = _TEXT_DROPPED.sub("", element.text) if element.text else ""
    if len(element):
        lines.append(head + ">\n")
        if text:
            lines.append(f"{indent}\t{text.translate(_ESCAPED)}\n")
        for child in element:
            _write(child, indent + "\t", escapes, lines)
        lines.append(f"{indent}</{element.tag}>\n")
    elif text:
        lines.append(f"{head}>{text.translate(_ESCAPED)}</{element.tag}>\n")
    else:
        lines.append(head + "/>\n")
