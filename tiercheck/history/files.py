"""The files the history keeps beside a run: the raw checks.json of each measured leg (what
`--reuse` scores again) and the digest of the requirement sets the run was scored against."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from tiercheck.config.requirements import requirement_set_path
from tiercheck.history.store import StoredLegResults
from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import Scorecard

__all__ = ["leg_results_of", "requirements_digest"]


def requirements_digest(revisions: Sequence[str]) -> str:
    """A digest of the requirement-set files of `revisions` (an edit to a set changes it)."""
    h = hashlib.sha256()
    for revision in revisions:
        h.update(revision.encode())
        try:
            h.update(requirement_set_path(revision).read_bytes())
        except OSError:
            h.update(b"<missing>")
    return h.hexdigest()[:16]


def leg_results_of(doc: Scorecard) -> dict[tuple[str, str], StoredLegResults]:
    """The checks.json files of every measured leg of `doc` that are still on disk, relative
    to the leg's results folder. A leg whose folder is gone is left out (and so never
    re-used)."""
    out: dict[tuple[str, str], StoredLegResults] = {}
    for revision, entry in doc.revisions.items():
        for leg in LEGS:
            part = entry.server if leg == "server" else entry.client
            if part.state != "measured" or not part.results_dir:
                continue
            root = Path(part.results_dir)
            try:
                files = {
                    p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
                    for p in sorted(root.rglob("checks.json"))
                }
            except (OSError, UnicodeDecodeError):
                continue
            if files:
                out[(revision, leg)] = files
    return out
