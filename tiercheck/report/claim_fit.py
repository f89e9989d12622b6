"""Fitting a claim into one GitHub issue body: under 65,536 characters, the rest attached.

GitHub refuses an issue or comment body longer than 65,536 characters. A claim's evidence (a
line per scored scenario, with the first failing check's message; a row per documentation
feature) can run past that on a large SDK, and further when everything fails. The body is built
from parts, each with its full text and, for the long ones, a short stand-in that says where the
rest is (the attached full assessment). Parts are shortened largest first until the body fits,
so the header, the table, the checklist and the short sections always stay. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BODY_LIMIT", "FULL_NAME", "Part", "body_length", "fit"]

#: GitHub's limit on an issue body.
BODY_LIMIT = 65_536
#: The file the full assessment goes to when the body leaves something out.
FULL_NAME = "assessment-full.md"
#: Kept free below the limit: a reviewer's own line or two must still fit when pasting.
_MARGIN = 512


def body_length(text: str) -> int:
    """The length GitHub measures, taken as UTF-16 code units (what a browser counts), which is
    never less than the number of characters."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class Part:
    """A piece of the body: its full lines, then shorter and shorter stand-ins (none: always
    kept whole)."""

    full: tuple[str, ...]
    shorter: tuple[tuple[str, ...], ...] = ()


def _text(lines: Sequence[str]) -> str:
    return "\n".join(lines).rstrip() + "\n"


def fit(parts: Sequence[Part], limit: int = BODY_LIMIT) -> tuple[str, bool]:
    """The body, and whether any part was shortened to fit under `limit`.

    While the body is too long, the largest part that has a shorter form left takes its next
    one, so a part's detail goes step by step and the smallest parts stay whole longest.
    """
    level = [0] * len(parts)
    chosen = [list(p.full) for p in parts]
    budget = limit - _MARGIN
    shortened = False

    def total() -> int:
        return body_length(_text([line for lines in chosen for line in lines]))

    while total() > budget:
        left = [i for i, p in enumerate(parts) if level[i] < len(p.shorter)]
        if not left:
            break
        index = max(left, key=lambda i: body_length("\n".join(chosen[i])))
        chosen[index] = list(parts[index].shorter[level[index]])
        level[index] += 1
        shortened = True
    text = _text([line for lines in chosen for line in lines])
    if body_length(text) > budget:
        # Only the parts that are always kept are left, and they are still too long (thousands
        # of changed scenarios): cut, and say so, rather than write a body GitHub refuses.
        note = f"\n\n… cut here to fit one issue body; the rest is in the attached {FULL_NAME}.\n"
        keep = budget - body_length(note)
        while body_length(text) > keep:
            text = text[: max(0, len(text) - (body_length(text) - keep) - 1)]
        text = text.rstrip() + note
        shortened = True
    return text, shortened
