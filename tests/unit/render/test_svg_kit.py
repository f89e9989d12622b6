"""The SVG kit: XML-escaped text and attributes, self-closing shapes, no links.

Every expected string is written out by hand.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tiercheck.render.element import Href
from tiercheck.render.html import el as html_el
from tiercheck.render.svg import Svg, el, join, svg


def test_text_and_attributes_escape_quotes_as_well() -> None:
    got = el("text", "a<b & \"c\" 'd'", aria_label="x\" onload=\"y 'z'", font_size="9")
    assert got == (
        '<text aria-label="x&quot; onload=&quot;y &#x27;z&#x27;" font-size="9">'
        "a&lt;b &amp; &quot;c&quot; &#x27;d&#x27;</text>"
    )
    root = ET.fromstring(got)
    assert set(root.attrib) == {"aria-label", "font-size"}
    assert root.get("aria-label") == "x\" onload=\"y 'z'"


def test_characters_xml_cannot_hold_are_dropped_or_shown() -> None:
    # Control characters and lone surrogates go; noncharacters are shown by their code point.
    assert Svg.escape("a\x00b\x0bc\ufffed\uffffe\ud800f") == "abc[U+FFFE]d[U+FFFF]ef"


def test_what_reorders_or_hides_text_is_shown_by_its_code_point() -> None:
    assert el("text", "abc\u202edcba.exe", aria_label="\u200bx\u2066") == (
        '<text aria-label="[U+200B]x[U+2066]">abc[U+202E]dcba.exe</text>'
    )


def test_a_childless_element_closes_itself() -> None:
    assert el("rect", width=3, height="5") == '<rect width="3" height="5"/>'
    assert el("line", el("title", "t"), x1="1") == '<line x1="1"><title>t</title></line>'


def test_the_root_carries_the_namespace_first() -> None:
    got = svg(join([el("g"), "x"]), width=2, viewBox="0 0 2 2")
    assert got == '<svg xmlns="http://www.w3.org/2000/svg" width="2" viewBox="0 0 2 2"><g/>x</svg>'


def test_no_svg_element_carries_a_link() -> None:
    with pytest.raises(TypeError, match="never a link"):
        el("image", href=Href("#x"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes an Href"):
        el("a", href="javascript:alert(1)")


def test_svg_goes_into_a_page_as_it_is() -> None:
    assert html_el("td", svg()) == '<td><svg xmlns="http://www.w3.org/2000/svg"/></td>'
