"""Untrusted text as plain text for a terminal, a log or a one-line message.

Harness messages come from the SDK under test, which is untrusted: an ESC in a check message
must not reach a terminal as an escape sequence, nor a NUL reach an XML or Markdown reader; a
lone surrogate (legal in JSON escapes) cannot even be written out as UTF-8. Bottom layer: no
imports of tiercheck, so the command line's start-up can use it.

`visible` is the one treatment of the characters that hide or reorder text, which every output
kind applies to untrusted text (the HTML, SVG, Atom and JUnit XML kits in `tiercheck.render`,
and the Markdown kit, and so the issue bodies): a bidirectional control (an override, an
embedding, an isolate or a mark), a zero-width or invisible character, and a noncharacter are
shown as `[U+202E]`, so `abc\u202edcba.exe` reads as `abc[U+202E]dcba.exe`, never as
`abcexe.abcd`. JSON documents keep the text as it was.
"""

from __future__ import annotations

import re

__all__ = ["HIDDEN", "clean", "one_line", "visible"]

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SPACE = re.compile(r"\s+")
#: Characters that hide or reorder text: the Arabic letter mark, the zero-width space,
#: non-joiner and joiner, the left-to-right and right-to-left marks, the embeddings and
#: overrides (U+202A–U+202E), the word joiner and invisible operators (U+2060–U+2064), the
#: isolates (U+2066–U+2069), the zero-width no-break space (BOM), and the noncharacters
#: (U+FDD0–U+FDEF, and the last two code points of every plane, U+FFFE, U+FFFF … U+10FFFF).
_HIDDEN_BMP = (
    "\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufdd0-\ufdef\ufffe\uffff"
)
_HIDDEN_ASTRAL = "".join(
    chr(plane | 0xFFFE) + chr(plane | 0xFFFF) for plane in range(0x10000, 0x110000, 0x10000)
)
HIDDEN = re.compile(f"[{_HIDDEN_BMP}{_HIDDEN_ASTRAL}]")
# The same, in two passes a long text goes through faster: a class of ranges is one comparison
# a character, a list of 32 code points is 32; the list is read only where a character lies
# beyond the first plane.
_BMP = re.compile(f"[{_HIDDEN_BMP}]")
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")
_ASTRAL = re.compile(f"[{_HIDDEN_ASTRAL}]")


def clean(text: object) -> str:
    """`text` as a string without control characters (newlines and tabs kept)."""
    return _CONTROL.sub("", "" if text is None else str(text))


def one_line(text: object, limit: int = 0) -> str:
    """`text` cleaned and collapsed to one line; cut to `limit` characters with … when > 0."""
    flat = _SPACE.sub(" ", clean(text)).strip()
    if limit and len(flat) > limit:
        return flat[: limit - 1].rstrip() + "…"
    return flat


def visible(text: str) -> str:
    """`text` with every character that hides or reorders text (`HIDDEN`) shown as its code
    point, `[U+202E]`: what every output kind shows of untrusted text."""
    if text.isascii():  # every HIDDEN character is outside ASCII; the check reads one flag
        return text
    text = _BMP.sub(_shown, text)
    return _ASTRAL.sub(_shown, text) if _BEYOND_BMP.search(text) else text


def _shown(found: re.Match[str]) -> str:
    return f"[U+{ord(found.group()):04X}]"
