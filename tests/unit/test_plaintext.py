"""`plaintext.clean` and `one_line`, held to their definitions: control characters removed
(newlines and tabs kept), then every run of whitespace one space and the ends trimmed, for
every code point and for any text."""

from __future__ import annotations

import re
import sys

from hypothesis import given
from hypothesis import strategies as st

from tiercheck.plaintext import clean, one_line

#: The definitions, spelled as regular expressions (what the functions did before their
#: faster passes): C0 and C1 controls but tab and newline, DEL and lone surrogates removed;
#: whitespace as `\s` matches it.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
SPACE = re.compile(r"\s+")


def by_definition(text: str) -> str:
    return SPACE.sub(" ", CONTROL.sub("", text)).strip()


def test_every_code_point_alone_and_between_letters() -> None:
    chars = [chr(code) for code in range(sys.maxunicode + 1)]
    # `clean` keeps a printable text as it is: no printable character is a control one.
    printable = "".join(char for char in chars if char.isprintable())
    assert CONTROL.search(printable) is None
    assert clean(printable) == printable
    # Each one between letters, then all in a row (runs of whitespace among them).
    every = "a".join(chars) + "".join(chars)
    assert clean(every) == CONTROL.sub("", every)
    assert one_line(every) == by_definition(every)


@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_any_text(text: str) -> None:
    assert clean(text) == CONTROL.sub("", text)
    assert one_line(text) == by_definition(text)


def test_a_limit_cuts_with_an_ellipsis_and_none_is_empty() -> None:
    assert one_line("  a \x00b\n\tc  ") == "a b c"
    assert one_line("abcdef", limit=4) == "abc…"
    assert one_line("ab  ", limit=4) == "ab"
    assert clean(None) == one_line(None) == ""
    assert clean(7) == "7"
