"""Text for XML documents built with ElementTree (the JUnit reports, the Atom feed): the one
cleaning.

ElementTree escapes `& < > "` itself; what it does not do is leave out the characters XML 1.0
cannot hold at all. Harness output from the SDK under test may carry them (NUL, ESC, lone
surrogates), and one of them makes the whole file unreadable to every parser. The characters
that hide or reorder text, and the noncharacters, are shown as `[U+202E]`
(`tiercheck.plaintext.visible`), as every output kind shows them.
"""

from __future__ import annotations

import re

from tiercheck.plaintext import visible

__all__ = ["xml_text"]

# XML 1.0 allows only these characters.
_NOT_XML = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: object) -> str:
    """`text` without the characters XML 1.0 forbids, the ones that hide or reorder text shown
    as `[U+202E]` (None as the empty string)."""
    return _NOT_XML.sub("", visible("" if text is None else str(text)))
