"""`tier-check init [DIR] [--name NAME] [--write FILE]`: a registry entry from an SDK checkout."""

from __future__ import annotations

import argparse
from pathlib import Path

from tiercheck.cli.common import emit, warn
from tiercheck.pipeline.init import InitRequest, init

__all__ = ["init_command", "init_parser"]


def init_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check init [DIR] [--name NAME] [--write FILE]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Read an SDK checkout (its manifest, its tags, its git remote and branch, and the "
            "conformance runs of its own .github/workflows: the harness's --spec-version, "
            "--expected-failures, --url and --command, and the steps that build and start the "
            "server) and print its known_sdks.yaml entry. Each value it could not infer is left "
            "out, or defaulted, with a '# FIELD: why' comment. With --write FILE the entry is "
            "added to FILE (made when missing), or replaces the entry of its name, the rest of "
            "FILE kept; then `tier-check show-config --registry FILE --sdk NAME` shows it."
        ),
    )
    parser.add_argument(
        "directory",
        nargs="?",
        default=".",
        metavar="DIR",
        help="the SDK checkout (default: the current folder)",
    )
    parser.add_argument(
        "--name", metavar="NAME", help="the entry's name (default: the manifest's package name)"
    )
    parser.add_argument(
        "--write",
        metavar="FILE",
        help="add the entry to this known_sdks.yaml file instead of printing it",
    )
    return parser


def init_command(args: argparse.Namespace) -> int:
    """`tier-check init`: the entry on stdout, or a line saying where it was written."""
    outcome = init(
        InitRequest(
            directory=Path(args.directory),
            name=args.name,
            write=Path(args.write) if args.write else None,
        )
    )
    for note in outcome.notes:
        warn(note)
    if outcome.written is None:
        emit(outcome.text)
        return 0
    how = "replaced" if outcome.replaced else "added"
    left = len(outcome.entry.reasons)
    said = f"; {left} value(s) not inferred: see the comments" if left else ""
    emit(f"{outcome.written}: {how} the entry {outcome.entry.name}{said}")
    return 0
