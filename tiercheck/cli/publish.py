"""`tier-check publish`: the static dashboard site from the run history (and the latest matrix)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tiercheck.cli.common import emit, warn
from tiercheck.dashboard.panel import check_base_url
from tiercheck.errors import UsageError
from tiercheck.pipeline.publish import PublishRequest
from tiercheck.pipeline.publish import publish as run

__all__ = ["publish", "publish_parser"]


def publish_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check publish --history DB --out SITE [--matrix DIR…] [--alias OLD=NEW…]
    [--triage FILE] [--base-url URL]`."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Build the static dashboard of the run history into SITE: an index of every SDK "
            "line × revision × leg, a page per line and per scenario, badges at stable paths "
            "(badges/<line>.svg, badges/<line>.json), an Atom feed of regressions and "
            "recoveries (feed.atom) and the versioned JSON API (api/v1/). "
            "It works from file:// and from GitHub Pages, and is built incrementally: "
            "run it again on the same SITE each night. Every file written or removed is inside "
            "SITE, never through a symbolic link, and a build that cannot finish (a full disk) "
            "leaves the previous site as it was (exit 2)."
        ),
    )
    parser.add_argument("--history", metavar="DB", required=True, help="the run history")
    parser.add_argument("--out", metavar="SITE", required=True, help="the site's folder")
    parser.add_argument(
        "--matrix",
        metavar="DIR",
        action="append",
        default=[],
        help="a matrix report folder: the newest is published as api/v1/matrix.json, and each "
        "line's latest scorecard.html and claim.html are taken from it (repeatable)",
    )
    parser.add_argument(
        "--alias",
        metavar="OLD=NEW",
        action="append",
        default=[],
        help="a renamed line: serve NEW's badge at OLD's badge path too (kept in the site); "
        "OLD is a badge name: letters, digits, '.', '_' and '-', the first a letter or digit, "
        "no '..', at most 128 characters (anything else is refused, exit 2)",
    )
    parser.add_argument(
        "--triage",
        metavar="FILE",
        help="reviewed triage links (triage.yaml: line, scenario, optional revision and leg → "
        "a github.com issue and a note), shown beside the failures; entries whose failure is "
        "gone are flagged as stale",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the site's https address (e.g. https://OWNER.github.io/REPO/): the badge panel "
        "and the feed show absolute URLs under it (without it, URLs relative to the site)",
    )
    return parser


def _aliases(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            msg = f"publish: --alias {pair!r}: expected OLD=NEW (two line names)"
            raise UsageError(msg)
        out[old.strip()] = new.strip()
    return out


def publish(args: argparse.Namespace) -> int:
    """Build the site; exit 0, or 2 (one line) for a history or matrix that cannot be read,
    a symbolic link in the site where it would write, or a site that cannot be written (a
    full disk: the previous site is then as it was)."""

    request = PublishRequest(
        aliases=_aliases(args.alias),
        history=Path(args.history).expanduser(),
        out=Path(args.out).expanduser(),
        matrices=tuple(args.matrix),
        triage=Path(args.triage).expanduser() if args.triage else None,
        base_url=check_base_url(args.base_url) if args.base_url else None,
    )
    result = run(request)
    for line in result.site.warnings:
        warn(line)
    emit(
        f"published {result.lines} line(s), {result.runs} run(s) to {result.out}: "
        f"{len(result.site.written)} file(s) written, {result.site.unchanged} unchanged, "
        f"{len(result.site.removed)} removed"
    )
    for status in result.site.triage:
        if status.stale:
            entry = status.entry
            emit(f"triage: stale: {entry.where} ({entry.subject} → {entry.issue}): {status.reason}")
    return result.exit_code
