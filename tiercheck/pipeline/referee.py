"""`tier-check referee update`: a harness release read beside today's pin, and the tree's pin,
requirement sets and revision facts rewritten for review.

The tree (`--root`, else this repository) pins the harness in `runners/`. Today's pin is
installed from the tree's lock (`npm ci`) and the asked release from the same lock
(`npm install`, so only the harness and what it needs move), both with the installer every
run uses (`conformance.harness.provision`) into a scratch place in the cache
(`CACHE/referee/<the tree's pin>/`, reused by the next run on the same tree). Each install is
read (`referee.harvest`), the two readings are compared with the tree (`referee.changes`), and
the files are composed (`referee.proposal`) and checked (`referee.write.problems`). Unless the
change is blocked or a dry run, the files that change are written (`referee.write.write`);
nothing is committed: the report and `git diff` are the review.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

from tiercheck.config.safeload import read_text
from tiercheck.conformance.harness import provision
from tiercheck.errors import UsageError
from tiercheck.referee.bundle import Answers, read_bundle, read_set
from tiercheck.referee.changes import Changes, compare
from tiercheck.referee.harvest import harvest
from tiercheck.referee.proposal import propose
from tiercheck.referee.tree import Pin, read_tree
from tiercheck.referee.write import problems, write

__all__ = [
    "Fetch",
    "RefereeUpdateOutcome",
    "RefereeUpdateRequest",
    "Release",
    "fetch_release",
    "referee_update",
]

#: An exact release, as the registry spells one (never a dist-tag).
_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.]+)?")


@dataclass(frozen=True)
class RefereeUpdateRequest:
    """What `tier-check referee update` was asked."""

    #: The release to move to (`--harness`).
    harness: str
    #: The tree whose runners/ and requirements/ change (`--root`).
    root: Path
    #: Where the scratch installs go (`--cache-dir`).
    cache_dir: Path
    #: Read and report, write nothing (`--dry-run`).
    dry_run: bool = False


@dataclass(frozen=True)
class Release:
    """One release installed for the tree: what it answers, and the pin npm wrote for it."""

    answers: Answers
    pin: Pin


#: Installs and reads a release: (version, the tree's runners/, scratch folder, say) → Release.
Fetch = Callable[[str, Path, Path, Callable[[str], None]], Release]


@dataclass(frozen=True)
class RefereeUpdateOutcome:
    """What came of it."""

    changes: Changes
    #: The files whose text the change moves (written unless blocked or a dry run).
    changed: tuple[str, ...]
    written: bool
    dry_run: bool
    #: Step → seconds.
    timings: dict[str, float] = field(default_factory=dict)


def fetch_release(
    version: str, runners: Path, scratch: Path, say: Callable[[str], None]
) -> Release:
    """Install `version` for the tree whose runners/ is `runners` into `scratch`, and read it."""
    harness = provision(scratch, version=version, runners=runners, progress=say)
    install = harness.root.parents[2]  # <scratch>/harness/<version>/node_modules/<package>
    pin = Pin(
        read_text(install / "package.json", what="the install's manifest"),
        read_text(install / "package-lock.json", what="the install's lock"),
    )
    say(f"reading {harness.version} (its CLI, its sets, its code)")
    return Release(harvest(harness), pin)


def _scratch(cache_dir: Path, pin: Pin) -> Path:
    digest = hashlib.sha256((pin.manifest + "\0" + pin.lock).encode()).hexdigest()[:16]
    return cache_dir / "referee" / digest


def _silent(_: str) -> None:
    return None


def referee_update(
    request: RefereeUpdateRequest,
    *,
    say: Callable[[str], None] = _silent,
    fetch: Fetch = fetch_release,
) -> RefereeUpdateOutcome:
    """Read the asked release beside today's pin and write the change for review (see the
    module's docstring). Blocked: the report says why and nothing is written."""
    if not _VERSION.fullmatch(request.harness):
        msg = f"--harness {request.harness!r}: give an exact release (e.g. 0.2.0-alpha.12)"
        raise UsageError(msg)
    timings: dict[str, float] = {}
    began = time.monotonic()
    tree = read_tree(request.root)
    scratch = _scratch(request.cache_dir, tree.pin)
    runners = request.root / "runners"
    old = fetch(tree.pin.version, runners, scratch, say)
    timings["today's pin"] = time.monotonic() - began
    began = time.monotonic()
    new = fetch(request.harness, runners, scratch, say)
    timings["the new release"] = time.monotonic() - began
    began = time.monotonic()
    before, after = read_bundle(old.answers), read_bundle(new.answers)
    tree_sets = {name: read_set(name, text) for name, text in tree.sets.items()}
    changes = compare(before, after, tree.revisions, tree_sets, (tree.pin, new.pin))
    proposal = propose(tree, new.pin, after.sets, changes.revisions)
    found = problems(proposal, tree)
    if found:
        changes = replace(changes, blockers=(*changes.blockers, *found))
    changed = proposal.changed(tree)
    written = not changes.blockers and not request.dry_run
    if written:
        changed = write(proposal, tree)
    timings["compare and write"] = time.monotonic() - began
    return RefereeUpdateOutcome(changes, changed, written, request.dry_run, timings)
