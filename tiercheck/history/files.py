"""The files the history keeps beside a run: the raw checks.json of each measured leg (what
`--reuse` scores again) and the digest of the requirement sets the run was scored against.

Only a leg's own files are read: a `checks.json` that is a symbolic link is not followed, and
an import reads no leg whose folder (its recorded path, or a link on the way) leads outside
the folder being imported."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from tiercheck.config.requirements import requirement_set_path
from tiercheck.config.safeload import read_text
from tiercheck.errors import ConfigError
from tiercheck.history.confine import inside
from tiercheck.history.store import StoredLegResults
from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import Scorecard

__all__ = ["leg_results_of", "requirements_digest", "results_outside"]


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


def results_outside(doc: Scorecard, root: Path) -> list[tuple[str, str, str]]:
    """(revision, leg, folder) of each measured leg of `doc` whose results folder is there but
    not inside `root`, every symbolic link followed: an import leaves their raw results out."""
    return [
        (rev, leg, at)
        for rev, leg, at in _measured(doc)
        if os.path.lexists(at) and not inside(Path(at), root)
    ]


def leg_results_of(
    doc: Scorecard, *, within: Path | None = None
) -> dict[tuple[str, str], StoredLegResults]:
    """The checks.json files of every measured leg of `doc` that are still on disk, relative
    to the leg's results folder. A leg whose folder is gone is left out (and so never
    re-used); with `within`, so is a leg whose folder is not inside it (`results_outside`)."""
    out: dict[tuple[str, str], StoredLegResults] = {}
    for revision, leg, found in _measured(doc):
        root = Path(found)
        if within is not None and not inside(root, within):
            continue
        try:
            files = {
                p.relative_to(root).as_posix(): read_text(p, what="a checks.json")
                for p in sorted(root.rglob("checks.json"))
                # rglob enters no linked folder; a linked file is not followed either.
                if not p.is_symlink() and p.is_file()
            }
        except (OSError, ConfigError):
            continue
        if files:
            out[(revision, leg)] = files
    return out


def _measured(doc: Scorecard) -> list[tuple[str, str, str]]:
    """(revision, leg, results folder) of each measured leg of `doc` that recorded its folder."""
    out: list[tuple[str, str, str]] = []
    for revision, entry in doc.revisions.items():
        for leg in LEGS:
            part = entry.server if leg == "server" else entry.client
            if part.state == "measured" and part.results_dir:
                out.append((revision, leg, part.results_dir))
    return out
