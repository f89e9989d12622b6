"""`tier-check diff OLD.json NEW.json`: what changed between two scorecards.

`cli/` parses the two paths into a `DiffRequest`; `diff` reads both scorecards
(`document_files.load_scorecard`, a bad file is a usage error there), compares them
(`scorecard.diff.diff_scorecards`) and decides the exit code: 1 on a regression, else 0. The
command line renders the comparison in the format asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tiercheck.document_files import load_scorecard
from tiercheck.scorecard.diff import Diff, diff_scorecards

__all__ = ["DiffRequest", "Diffed", "diff"]


@dataclass(frozen=True)
class DiffRequest:
    """`tier-check diff OLD.json NEW.json`."""

    old: Path
    new: Path


@dataclass(frozen=True)
class Diffed:
    """The comparison, and the exit code it implies."""

    diff: Diff

    @property
    def exit_code(self) -> int:
        """1 when the new scorecard regressed from the old one, else 0."""
        return 1 if self.diff.has_regression else 0


def diff(request: DiffRequest) -> Diffed:
    """The old scorecard compared with the new one (the old is read first)."""
    old = load_scorecard(request.old)
    new = load_scorecard(request.new)
    return Diffed(diff_scorecards(old, new))
