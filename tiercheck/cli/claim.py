"""`tier-check claim`: the evidence pack for a tier claim, from a new assessment or a saved one.

`tier-check claim --sdk NAME [--tier 1|2]` (or `--sdk-path DIR`) runs the assessment exactly as
`tier-check --sdk NAME` does, with its report folder inside the claim folder, and records the
governance snapshot it judged so every governance row can list its items. `--from
scorecard.json` reuses a finished assessment instead (its recorded snapshot, when it still
exists, and its checkout, or the one `--sdk-path` names). The claim folder holds
`assessment.md`, `remediation.md`, `claim.html`, `claim.json` and the badge.

The flags become one `ClaimRequest` for `pipeline.claim`, which assesses, builds and writes;
this module prints what it returns. Exit code: 0 when the claim can be filed (ready, or ready
once the judgment rows are reviewed), 1 when a row blocks it, 2 for bad input.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.cli.assess import assess_parser, assess_request
from tiercheck.cli.common import (
    PROG,
    emit,
    emit_scorecard,
    known_sdks,
    say_nothing_measured,
    warn,
)
from tiercheck.cli.progress import make_progress
from tiercheck.pipeline.assess.request import TargetRequest
from tiercheck.pipeline.claim import ClaimRequest
from tiercheck.pipeline.claim import claim as run_claim
from tiercheck.pipeline.run import OutputError

if TYPE_CHECKING:
    from tiercheck.scorecard.model import Scorecard

__all__ = ["claim", "claim_parser", "claim_request"]


def claim_parser(prog: str) -> argparse.ArgumentParser:
    """The assessment's flags, plus `--tier` and `--from`."""
    parser = assess_parser(prog, epilog="")
    parser.description = (
        "Prepare a tier claim: assess the SDK (or reuse a saved scorecard with --from), then "
        "write assessment.md, remediation.md, claim.html and claim.json with every row of the "
        "official audit for the target tier and the one below. Exit 0 when the claim can be "
        "filed once reviewed, 1 when a row blocks it, 3 when the assessment measured no leg."
    )
    group = parser.add_argument_group("claim")
    group.add_argument(
        "--tier", type=int, choices=(1, 2, 3), default=1, help="the tier claimed (default 1)"
    )
    group.add_argument(
        "--docs-ref",
        metavar="REF",
        help="read the documentation and examples at this branch, tag or commit of the checkout "
        "instead of the assessed commit (documentation published from another branch)",
    )
    group.add_argument(
        "--language",
        metavar="NAME",
        help="the language in the title, '<NAME> SDK — Tier N Assessment' (default: the "
        "registry's `language`, else the official SDK's name, else the checkout's manifest)",
    )
    group.add_argument(
        "--previous",
        metavar="FILE",
        help="the previous assessment's claim.json or scorecard.json: say which rows and "
        "scenarios changed since",
    )
    group.add_argument(
        "--previous-issue",
        metavar="URL|#N",
        help="the issue of the previous assessment (#N: an issue of "
        "modelcontextprotocol/modelcontextprotocol)",
    )
    group.add_argument(
        "--previous-tier",
        type=int,
        choices=(1, 2, 3),
        help="the tier the previous assessment gave",
    )
    group.add_argument(
        "--from",
        dest="from_scorecard",
        metavar="SCORECARD",
        help="reuse a finished assessment's scorecard.json instead of assessing again",
    )
    return parser


def claim_request(args: argparse.Namespace) -> ClaimRequest:
    """The claim the flags in `args` ask for, as one typed request (nothing run yet); with
    `--from`, no assessment is asked for."""
    from_scorecard = Path(args.from_scorecard) if args.from_scorecard else None
    assess = None if from_scorecard else assess_request(args)
    target = (
        assess.target
        if assess
        else TargetRequest(
            sdk=args.sdk,
            sdk_path=Path(args.sdk_path) if args.sdk_path else None,
            repo=args.repo,
            server_url=args.conformance_server_url,
        )
    )
    return ClaimRequest(
        registry=assess.registry if assess else known_sdks(args),
        target=target,
        assess=assess,
        from_scorecard=from_scorecard,
        out=Path(args.out) if args.out else None,
        tier=args.tier,
        governance_snapshot=Path(args.governance_snapshot) if args.governance_snapshot else None,
        docs_ref=args.docs_ref,
        language=args.language,
        # `--tag-prefix` where this tier-check has it, else its variable.
        tag_prefix=getattr(args, "tag_prefix", None) or os.environ.get("TIERCHECK_TAG_PREFIX"),
        previous=args.previous,
        previous_issue=args.previous_issue,
        previous_tier=args.previous_tier,
    )


def claim(args: argparse.Namespace) -> int:
    """`tier-check claim`: hand the request to the pipeline, print what it returns."""

    def show(doc: Scorecard) -> None:
        if args.output:
            emit_scorecard(doc, args.output)

    try:
        outcome = run_claim(
            claim_request(args), progress=make_progress, warn=warn, on_scorecard=show
        )
    except OutputError as exc:
        emit_scorecard(exc.scorecard, args.output)  # the scorecard still reaches stdout
        raise
    emit(outcome.summary)
    names = ", ".join(path.name for path in outcome.files)
    sys.stderr.write(f"{PROG}: claim: {outcome.out_dir} ({names})\n")
    say_nothing_measured(outcome.nothing_measured)
    return outcome.exit_code
