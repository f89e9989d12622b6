"""`score` and `diff`: judging results produced elsewhere, and comparing two scorecards."""

from __future__ import annotations

import argparse
from pathlib import Path

from tiercheck.cli.common import (
    add_output_flag,
    emit,
    emit_scorecard,
    say_nothing_measured,
    stdout_color,
)
from tiercheck.document_files import load_scorecard
from tiercheck.document_formats import DIFF_FORMATS
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.assessment import score_results
from tiercheck.scorecard.diff import diff_scorecards
from tiercheck.target import check_repo

__all__ = ["diff", "diff_parser", "score", "score_parser"]


def score_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check score`: per-revision results as flags, or one `<revision>/<leg>/` folder."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Score raw harness results produced elsewhere. Repeat --requirements with its "
            "--server-results/--client-results per revision, or give --results DIR laid out "
            "<revision>/<leg>/."
        ),
    )
    parser.add_argument("--requirements", action="append", metavar="REV", default=[])
    parser.add_argument("--server-results", action="append", metavar="DIR", default=[])
    parser.add_argument("--client-results", action="append", metavar="DIR", default=[])
    parser.add_argument("--results", metavar="DIR", help="a folder laid out <revision>/<leg>/")
    parser.add_argument("--expected-failures", action="append", metavar="FILE", default=[])
    parser.add_argument("--repo", metavar="OWNER/REPO", default="unknown/unknown")
    options.OUTPUT.add_to(parser)
    return parser


def _score_inputs(args: argparse.Namespace) -> list[tuple[str, Path | None, Path | None]]:
    """(revision, server results, client results) from the flags or a `<rev>/<leg>/` folder."""
    if args.results:
        root = Path(args.results)
        if not root.is_dir():
            msg = f"--results {root}: not a directory"
            raise UsageError(msg)
        found = []
        for child in sorted(p for p in root.iterdir() if p.is_dir()):
            server, client = child / "server", child / "client"
            found.append(
                (
                    child.name,
                    server if server.is_dir() else None,
                    client if client.is_dir() else None,
                )
            )
        if not found:
            msg = f"--results {root}: expected folders laid out <revision>/<leg>/"
            raise UsageError(msg)
        return found
    revisions: list[str] = args.requirements
    if not revisions:
        msg = "score needs --requirements REV with --server-results/--client-results, or --results"
        raise UsageError(msg)
    servers, clients = args.server_results, args.client_results
    for flag, given in (("--server-results", servers), ("--client-results", clients)):
        if given and len(given) != len(revisions):
            msg = f"{flag} given {len(given)} time(s) for {len(revisions)} --requirements"
            raise UsageError(msg)
    if not servers and not clients:
        msg = "score needs --server-results and/or --client-results"
        raise UsageError(msg)
    return [
        (
            rev,
            Path(servers[i]) if servers else None,
            Path(clients[i]) if clients else None,
        )
        for i, rev in enumerate(revisions)
    ]


def score(args: argparse.Namespace) -> int:
    """`tier-check score`: judge raw harness results an SDK's own CI already produced."""

    check_repo(args.repo, "--repo")
    inputs = _score_inputs(args)
    paths = [Path(p) for p in args.expected_failures]
    if len(paths) not in (0, 1, len(inputs)):
        msg = "give one --expected-failures for all revisions, or one per revision"
        raise UsageError(msg)
    baselines = {
        revision: paths[0] if len(paths) == 1 else paths[i]
        for i, (revision, _, _) in enumerate(inputs)
        if paths
    }
    doc = score_results(inputs, repo=args.repo, baselines=baselines)
    emit_scorecard(doc, args.output)
    from tiercheck.scorecard.remediation import nothing_measured

    say_nothing_measured(nothing_measured(doc))
    return doc.exit_code


def diff_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check diff OLD.json NEW.json [--output FORMAT]`."""
    parser = argparse.ArgumentParser(
        prog=prog, description="Compare two scorecards; exit 1 on a regression."
    )
    parser.add_argument("old", metavar="OLD.json")
    parser.add_argument("new", metavar="NEW.json")
    add_output_flag(parser, DIFF_FORMATS)
    return parser


def diff(args: argparse.Namespace) -> int:
    """`tier-check diff OLD.json NEW.json`: what changed; exit 1 on a regression."""

    old = load_scorecard(Path(args.old))
    new = load_scorecard(Path(args.new))
    result = diff_scorecards(old, new)
    emit(DIFF_FORMATS.get(args.output).render(result, stdout_color()))
    return 1 if result.has_regression else 0
