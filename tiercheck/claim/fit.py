"""Fitting a claim into one GitHub issue body: under 65,536 characters, the rest attached.

GitHub refuses an issue or comment body longer than 65,536 characters. A claim's evidence (a
line per scored scenario, with the first failing check's message; a row per documentation
feature) can run past that on a large SDK, and further when everything fails. The body is built
from parts, each with its full text and, for the long ones, a short stand-in that says where the
rest is (the attached full assessment). Parts are shortened largest first until the body fits,
so the header, the table, the checklist and the short sections always stay; a body still too
long is cut between lines (`render.markdown.leading_lines`), so no code span is cut open. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tiercheck.render import markdown as md
from tiercheck.render.markdown import BLANK, Inline, Md

__all__ = ["BODY_LIMIT", "FULL_NAME", "Part", "body_length", "fit", "fitted_lines"]

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
    kept whole). Plain text lines are neutralised (`render.markdown.inline`)."""

    full: tuple[Inline, ...]
    shorter: tuple[tuple[Inline, ...], ...] = ()


def fitted_lines(parts: Sequence[Part], limit: int = BODY_LIMIT) -> tuple[list[Md], bool]:
    """The body's lines, and whether any part was shortened to fit under `limit`.

    While the body is too long, the largest part that has a shorter form left takes its next
    one, so a part's detail goes step by step and the smallest parts stay whole longest.
    """
    level = [0] * len(parts)
    chosen = [[md.inline(line) for line in p.full] for p in parts]
    budget = limit - _MARGIN
    shortened = False

    def lines() -> list[Md]:
        return [line for each in chosen for line in each]

    while body_length(md.document(lines())) > budget:
        left = [i for i, p in enumerate(parts) if level[i] < len(p.shorter)]
        if not left:
            break
        index = max(left, key=lambda i: body_length("\n".join(chosen[i])))
        chosen[index] = [md.inline(line) for line in parts[index].shorter[level[index]]]
        level[index] += 1
        shortened = True
    body = lines()
    if body_length(md.document(body)) > budget:
        # Only the parts that are always kept are left, and they are still too long (thousands
        # of changed scenarios): cut between lines, and say so, rather than write a body GitHub
        # refuses.
        note = md.text(
            f"… cut here to fit one issue body; the rest is in the attached {FULL_NAME}."
        )
        kept = md.leading_lines(body, budget - body_length(note) - 2, body_length)
        while kept and not kept[-1].strip():
            kept.pop()
        body = [*kept, BLANK, note] if kept else [note]
        shortened = True
    return body, shortened


def fit(parts: Sequence[Part], limit: int = BODY_LIMIT) -> tuple[Md, bool]:
    """The body as one document, and whether any part was shortened to fit under `limit`
    (see `fitted_lines`)."""
    body, shortened = fitted_lines(parts, limit)
    return md.document(body), shortened
