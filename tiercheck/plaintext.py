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

How much of what an SDK says tiercheck keeps and shows is decided here too, one rule per
decision: the history keeps a name (`NAME_CHARS`) or a message or reason (`TEXT_CHARS`) up to
its bound, and a page shows one text up to `PAGE_CHARS`; beyond, the text is `cut`, saying so
in its last characters with its length and a digest of the whole text (`cut_mark`).
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

__all__ = [
    "HIDDEN",
    "NAME_CHARS",
    "PAGE_CHARS",
    "TEXT_CHARS",
    "clean",
    "cut",
    "cut_mark",
    "one_line",
    "page_text",
    "visible",
]

#: The most characters the history keeps of a name an SDK, its repository or the harness
#: writes: a line, a repository, a ref, a commit, a version, a scenario, a check id, an issue's
#: title. Real ones are under 100 (a scenario `auth/scope-step-up`, a check id, a tag); 200
#: leaves a name recognisable even cut, and a page listing hundreds of them small.
NAME_CHARS = 200
#: The most characters the history keeps of a message or a reason (a failing check's message,
#: why a leg went unmeasured, which may quote a client's stderr): a few KB, a stack trace's
#: first frames, so a year of nights stays a history and not a log.
TEXT_CHARS = 4096
#: The most characters of one text a page shows (as shown, hidden characters written out):
#: every name whole, a message's first lines; the rest is in the page's JSON document.
#: A page shows at most a few hundred texts, so it stays under its 1 MB whatever they say.
PAGE_CHARS = 1000

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
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
    text = "" if text is None else str(text)
    # Every `_CONTROL` character is unprintable, and the check is one pass in C: most texts
    # (a name, a one-line message) skip the expression.
    return text if text.isprintable() else _CONTROL.sub("", text)


def one_line(text: object, limit: int = 0) -> str:
    """`text` cleaned and collapsed to one line; cut to `limit` characters with … when > 0."""
    # `str.split()` splits on exactly what `\s` matches (`str.isspace`), and drops the ends.
    flat = " ".join(clean(text).split())
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


@lru_cache(maxsize=256)  # a page shows one text in many places (a cell, its title)
def cut_mark(text: str) -> str:
    """What a cut text ends with: `… [cut: 102400 characters, sha256 0123456789abcdef…]`,
    the whole text's length and the start of the SHA-256 of its UTF-8 (so two texts cut alike
    still differ, and the whole one can be found)."""
    data = text.encode("utf-8", "surrogatepass")
    return f"… [cut: {len(text)} characters, sha256 {hashlib.sha256(data).hexdigest()[:16]}…]"


def cut(text: str, limit: int) -> str:
    """`text` when it has at most `limit` characters; else its start then its `cut_mark`,
    `limit` characters in all. Cutting a cut text again changes nothing."""
    if len(text) <= limit:
        return text
    mark = cut_mark(text)
    return text[: max(limit - len(mark), 0)] + mark


def page_text(text: object) -> tuple[str, str]:
    """`text` as a page shows it (`visible(clean(text))`) and, when that is longer than
    `PAGE_CHARS`, cut: its start, and the `cut_mark` of the whole text (else "") to show after
    it, `PAGE_CHARS` characters in all. Every output kind of a page (HTML text and attributes,
    SVG) shows untrusted text through it."""
    whole = "" if text is None else str(text)
    shown = _shown_start(whole, PAGE_CHARS + 1)
    if len(shown) <= PAGE_CHARS:
        return shown, ""
    mark = cut_mark(whole)
    return shown[: PAGE_CHARS - len(mark)], mark


def _shown_start(text: str, least: int) -> str:
    """`visible(clean(text))` whole when it is shorter than `least` characters, else a start
    of it at least `least` long. Both treat each character alone (dropping it, keeping it or
    writing it out), so the treated start of `text` is the start of the treated whole: a long
    text is read only as far as it needs to be, never whole for the sake of its first page."""
    size = least
    while True:
        shown = visible(clean(text[:size]))
        if len(shown) >= least or size >= len(text):
            return shown
        size *= 4


def _shown(found: re.Match[str]) -> str:
    return f"[U+{ord(found.group()):04X}]"
