"""One treatment of the characters that hide or reorder text (`tiercheck.plaintext.visible`),
in every output kind: bidirectional controls, zero-width characters and noncharacters are shown
as `[U+202E]` in HTML, SVG, the Atom feed, JUnit XML, Markdown and the issues' titles, and
never reach a file name. Expected values are worked by hand."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tiercheck.history.datafile import line_slug
from tiercheck.notify.texts import issue_title
from tiercheck.plaintext import HIDDEN, visible
from tiercheck.render import markdown as md
from tiercheck.render.atom import AtomEntry, atom_feed
from tiercheck.render.html import Html
from tiercheck.render.svg import Svg
from tiercheck.render.xml import xml_text

#: A file named to read `abcexe.abcd`, with an isolate, a mark and a zero-width joiner.
NAME = "abc\u202edcba.exe \u2067x\u2069\u200e\u200d"
SHOWN = "abc[U+202E]dcba.exe [U+2067]x[U+2069][U+200E][U+200D]"


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        # Bidirectional controls: the Arabic letter mark, the marks, embeddings, overrides,
        # isolates.
        ("\u061c", "[U+061C]"),
        ("\u200e", "[U+200E]"),
        ("\u200f", "[U+200F]"),
        ("\u202a", "[U+202A]"),
        ("\u202b", "[U+202B]"),
        ("\u202c", "[U+202C]"),
        ("\u202d", "[U+202D]"),
        ("\u202e", "[U+202E]"),
        ("\u2066", "[U+2066]"),
        ("\u2067", "[U+2067]"),
        ("\u2068", "[U+2068]"),
        ("\u2069", "[U+2069]"),
        # Zero-width and invisible characters.
        ("\u200b", "[U+200B]"),
        ("\u200c", "[U+200C]"),
        ("\u200d", "[U+200D]"),
        ("\u2060", "[U+2060]"),
        ("\u2064", "[U+2064]"),
        ("\ufeff", "[U+FEFF]"),
        # Noncharacters: U+FDD0–U+FDEF and the last two of every plane.
        ("\ufdd0", "[U+FDD0]"),
        ("\ufdef", "[U+FDEF]"),
        ("\ufffe", "[U+FFFE]"),
        ("\uffff", "[U+FFFF]"),
        ("\U0001fffe", "[U+1FFFE]"),
        ("\U000effff", "[U+EFFFF]"),
        ("\U0010fffe", "[U+10FFFE]"),
        ("\U0010ffff", "[U+10FFFF]"),
    ],
)
def test_each_is_shown_by_its_code_point(char: str, shown: str) -> None:
    assert visible(f"a{char}b") == f"a{shown}b"


def test_the_characters_beside_them_are_left_as_they_are() -> None:
    # Right-to-left letters, the characters just outside each range, emoji and accents.
    kept = "שלום مرحبا \u061b\u061d \u2010\u2029 \ufdcf\ufdf0 \ufffd \U0001f600 é a\u0301"
    assert visible(kept) == kept
    assert visible(SHOWN) == SHOWN  # shown once, it stays so


def test_every_code_point_is_shown_exactly_when_the_one_pattern_names_it() -> None:
    # Every code point of the first plane and each plane's last 3 and first 2, one text each
    # way: alone, and among others (a long text is read in two passes, the first plane's and,
    # only when a character lies beyond it, the other planes').
    points = [*range(0x10000)] + [
        p for plane in range(0x10000, 0x110000, 0x10000) for p in (plane, plane + 1)
    ]
    points += [
        p
        for plane in range(0x10000, 0x110000, 0x10000)
        for p in range(plane + 0xFFFD, plane + 0x10000)
    ]
    chars = [chr(p) for p in points if not 0xD800 <= p <= 0xDFFF]
    for char in chars:
        expected = f"[U+{ord(char):04X}]" if HIDDEN.fullmatch(char) else char
        assert visible(char) == expected, hex(ord(char))
    text = "".join(chars)
    assert visible(text) == "".join(
        f"[U+{ord(c):04X}]" if HIDDEN.fullmatch(c) else c for c in chars
    )
    assert len([c for c in chars if HIDDEN.fullmatch(c)]) == 1 + 5 + 5 + 5 + 4 + 1 + 32 + 34


def test_every_output_kind_shows_them_the_same_way() -> None:
    assert Html.escape(NAME) == SHOWN
    assert Svg.escape(NAME) == SHOWN
    assert xml_text(NAME) == SHOWN
    assert md.clean(NAME) == SHOWN
    # In Markdown text, `][` could make a link reference: that word is a code span.
    assert md.text(NAME) == "abc[U+202E]dcba.exe `[U+2067]x[U+2069][U+200E][U+200D]`"
    assert md.code(NAME) == f"`{SHOWN}`"
    assert md.code_block([NAME]) == ["```", SHOWN, "```"]
    assert issue_title(NAME) == f"Nightly matrix: {SHOWN} regressed"


def test_the_feeds_titles_show_them() -> None:
    entry = AtomEntry(
        id="urn:x", title=NAME, updated="2026-01-01T00:00:00Z", link=None, content=NAME
    )
    feed = atom_feed(
        feed_id="urn:f",
        title=NAME,
        updated="2026-01-01T00:00:00Z",
        author=NAME,
        alternate="index.html",
        entries=[entry],
    )
    assert not HIDDEN.search(feed)
    root = ET.fromstring(feed)
    a = "{http://www.w3.org/2005/Atom}"
    assert [t.text for t in root.iter(f"{a}title")] == [SHOWN, SHOWN]
    assert root.findtext(f"{a}entry/{a}content") == SHOWN


def test_a_file_name_never_holds_them() -> None:
    # A line's or a scenario's file name is a slug: letters, digits, `.`, `_`, `-`.
    assert re.fullmatch(r"abc-dcba\.exe-x-[0-9a-f]{8}", line_slug(NAME))
    assert re.fullmatch(r"line-[0-9a-f]{8}", line_slug("\u202e\ufffe"))
