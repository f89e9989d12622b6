"""Untrusted text as plain text for a terminal, a log or a one-line message.

Harness messages come from the SDK under test, which is untrusted: an ESC in a check message
must not reach a terminal as an escape sequence, nor a NUL reach an XML or Markdown reader; a
lone surrogate (legal in JSON escapes) cannot even be written out as UTF-8. Bottom layer: no
imports of tiercheck, so the command line's start-up can use it.
"""

from __future__ import annotations

import re

__all__ = ["clean", "one_line"]

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_SPACE = re.compile(r"\s+")


def clean(text: object) -> str:
    """`text` as a string without control characters (newlines and tabs kept)."""
    return _CONTROL.sub("", "" if text is None else str(text))


def one_line(text: object, limit: int = 0) -> str:
    """`text` cleaned and collapsed to one line; cut to `limit` characters with … when > 0."""
    flat = _SPACE.sub(" ", clean(text)).strip()
    if limit and len(flat) > limit:
        return flat[: limit - 1].rstrip() + "…"
    return flat
