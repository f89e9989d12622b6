"""`tier-check referee update --harness VERSION`: a referee change as one reviewed command.

This module parses the flags into a `RefereeUpdateRequest` and prints what came of it: the
report on stdout (`referee.report`), progress on stderr. The work is `pipeline.referee`.
Exit 0: written for review (or a dry run); 1: blocked, nothing written; 2: bad input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tiercheck.cli.common import PROG, emit
from tiercheck.errors import EXIT_FAILED, EXIT_OK
from tiercheck.paths import default_cache_dir, writable_dir
from tiercheck.pipeline.referee import RefereeUpdateRequest
from tiercheck.pipeline.referee import referee_update as run
from tiercheck.plaintext import one_line
from tiercheck.referee.report import render_report
from tiercheck.referee.tree import default_root

__all__ = ["referee_update", "referee_update_parser"]


def referee_update_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check referee update --harness VERSION [--root DIR] [--dry-run]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Move the pinned conformance harness to another release, for review: install it "
            "and today's pin from the npm registry into the cache (TIERCHECK_CACHE), read both "
            "(their requirement sets, scenarios, the checks each can emit, flags, the wire each "
            "set speaks), print what changes, and write the new runners/ pin and lock, each "
            "revision's set and revisions.yaml's facts into the tree. Nothing is committed: "
            "the report and git diff are the review. A blocked change (a flag tiercheck passes "
            "gone, a set a revision runs gone) writes nothing and exits 1."
        ),
    )
    parser.add_argument(
        "--harness",
        required=True,
        metavar="VERSION",
        help="the exact @modelcontextprotocol/conformance release to move to (never a dist-tag)",
    )
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="the tiercheck checkout to change (default: the one tier-check runs from)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the report, write nothing")
    return parser


def _say(text: str) -> None:
    sys.stderr.write(f"{PROG}: {one_line(text)}\n")
    sys.stderr.flush()


def referee_update(args: argparse.Namespace) -> int:
    """`tier-check referee update`: the report on stdout; 1 when blocked."""
    root = Path(args.root).expanduser() if args.root else default_root()
    request = RefereeUpdateRequest(
        harness=args.harness,
        root=root,
        cache_dir=writable_dir(default_cache_dir(), "the cache (TIERCHECK_CACHE)"),
        dry_run=bool(args.dry_run),
    )
    outcome = run(request, say=_say)
    emit(
        render_report(
            outcome.changes,
            changed=outcome.changed,
            written=outcome.written,
            dry_run=outcome.dry_run,
        )
    )
    took = ", ".join(f"{step} {seconds:.0f} s" for step, seconds in outcome.timings.items())
    _say(f"took {took}")
    return EXIT_FAILED if outcome.changes.blockers else EXIT_OK
