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
from tiercheck.document_formats import DIFF_FORMATS
from tiercheck.pipeline.assess import options

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


def score(args: argparse.Namespace) -> int:
    """`tier-check score`: judge raw harness results an SDK's own CI already produced
    (`pipeline.score`)."""
    from tiercheck.pipeline.score import ScoreRequest
    from tiercheck.pipeline.score import score as judged

    request = ScoreRequest(
        repo=args.repo,
        results=Path(args.results) if args.results else None,
        requirements=tuple(args.requirements),
        server_results=tuple(Path(p) for p in args.server_results),
        client_results=tuple(Path(p) for p in args.client_results),
        expected_failures=tuple(Path(p) for p in args.expected_failures),
    )
    scored = judged(request)
    emit_scorecard(scored.scorecard, args.output)
    say_nothing_measured(scored.nothing_measured)
    return scored.exit_code


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
    """`tier-check diff OLD.json NEW.json`: what changed; exit 1 on a regression
    (`pipeline.diff`)."""
    from tiercheck.pipeline.diff import DiffRequest
    from tiercheck.pipeline.diff import diff as compared

    result = compared(DiffRequest(old=Path(args.old), new=Path(args.new)))
    emit(DIFF_FORMATS.get(args.output).render(result.diff, stdout_color()))
    return result.exit_code
