"""The `governance`, `labels` and `triage` commands: a snapshot in, the signals out.

A snapshot is either collected from GitHub now (and optionally recorded with
`--record-governance`) or replayed from a file (`--governance-snapshot`, no network at all).
Every verdict is judged at `--as-of`, by default the moment the snapshot was captured, so one
snapshot always prints the same bytes. Governance never decides the exit code: these commands
return 0 whenever they could produce an answer, and bad input is a `UsageError`/`ConfigError`.

This module parses the flags (the governance flags, shared with the assessment, into
`GovernanceFlags`) and prints; resolving them, obtaining the snapshot and judging it is
`pipeline.governance`'s, loaded only when a command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tiercheck.cli.common import (
    DEFAULT_GOVERNANCE_DEADLINE_S,
    GOVERNANCE_DEADLINE_ENV,
    add_governance_flags,
    add_output_flag,
    cache_dir,
    emit,
    known_sdks,
    print_json,
    stdout_color,
    token_from_args,
)
from tiercheck.document_formats import GOVERNANCE_FORMATS
from tiercheck.errors import UsageError

if TYPE_CHECKING:
    from tiercheck.governance.obtain import GovernanceOptions, GovernanceRun
    from tiercheck.pipeline.governance import GovernanceFlags

__all__ = [
    "evaluate",
    "governance",
    "governance_document",
    "governance_parser",
    "labels",
    "labels_parser",
    "options_from_args",
    "triage",
    "triage_parser",
]


def _parser(prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--repo", required=True, metavar="OWNER/REPO", type=_repo)
    parser.add_argument("--sdk", metavar="NAME", help="known SDK whose config (aliases…) applies")
    parser.add_argument("--cache-dir", metavar="DIR")
    add_governance_flags(parser)
    return parser


def _repo(text: str) -> str:
    from tiercheck.target import check_repo

    try:
        return check_repo(text, "--repo")
    except UsageError as exc:
        raise argparse.ArgumentTypeError(exc.message.removeprefix("--repo: ")) from None


def governance_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check governance --repo OWNER/REPO [--output FORMAT]` and the governance flags."""
    parser = _parser(prog, "The six governance checks of a repository.")
    add_output_flag(parser, GOVERNANCE_FORMATS)
    return parser


def labels_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check labels --repo OWNER/REPO` and the governance flags."""
    return _parser(prog, "The label taxonomy check (official JSON shape).")


def triage_parser(prog: str) -> argparse.ArgumentParser:
    """`tier-check triage --repo OWNER/REPO [--days N]` and the governance flags."""
    return _parser(prog, "The triage check (official JSON shape).")


def _warn(line: str) -> None:
    sys.stderr.write(f"tier-check: governance: {line}\n")


def _flags(args: argparse.Namespace) -> GovernanceFlags:
    """The governance flags in `args`, as given."""
    from tiercheck.pipeline.governance import GovernanceFlags

    return GovernanceFlags(
        skip=bool(getattr(args, "skip_governance", False)),
        snapshot=Path(args.governance_snapshot) if args.governance_snapshot else None,
        record=Path(args.record_governance) if args.record_governance else None,
        as_of=args.as_of,
        token=token_from_args(args),
        github_api_url=args.github_api_url,
        days=args.days,
        # The same place the assessment keeps its ETags, so either command warms the other.
        cache_dir=cache_dir(args) / "github",
        deadline=_deadline(args.governance_deadline),
        disputes=Path(args.disputes) if getattr(args, "disputes", None) else None,
    )


def options_from_args(args: argparse.Namespace) -> GovernanceOptions:
    """The governance flags (shared by the assessment and these commands) as options."""
    from tiercheck.pipeline.governance import governance_options

    return governance_options(_flags(args))


def _deadline(flag: float | None) -> float:
    """`--governance-deadline`, else TIERCHECK_GOVERNANCE_DEADLINE, else the default."""
    from tiercheck.config.seconds import parse_seconds

    if flag is not None:
        return flag
    text = os.environ.get(GOVERNANCE_DEADLINE_ENV)
    if not text:
        return DEFAULT_GOVERNANCE_DEADLINE_S
    try:
        return parse_seconds(text)
    except ValueError as exc:
        raise UsageError(f"{GOVERNANCE_DEADLINE_ENV}: {exc}") from None


def evaluate(args: argparse.Namespace, *, now: datetime | None = None) -> GovernanceRun:
    """The snapshot the flags in `args` name, obtained and judged (`pipeline.governance`);
    `now` fixes a live collection's capture time."""
    from tiercheck.pipeline import governance as command

    options = options_from_args(args)
    # An unknown name is a UsageError with a "did you mean".
    entry = known_sdks(args).get(args.sdk) if getattr(args, "sdk", None) else None
    request = command.GovernanceRequest(str(args.repo), options, entry)
    return command.evaluate(request, log=_warn, now=now)


def governance_document(args: argparse.Namespace) -> dict[str, Any]:
    """What `tier-check governance` prints: the six checks and the implied governance tier."""
    from tiercheck.pipeline.governance import governance_document as document

    return document(evaluate(args))


def _tier_lines(implied: dict[str, Any]) -> str:
    """The implied governance tier under the terminal table (the table's formatter predates it)."""
    sep = implied["sep1730"]

    def names(blockers: list[str]) -> str:
        return ", ".join(blockers) or "none"

    return "\n".join(
        [
            f"Implied governance tier: Tier {implied['tier']} (conformance taken as 100%)",
            f"  Tier 1 blockers: {names(implied['tier1_blockers'])}",
            f"  Tier 2 blockers: {names(implied['tier2_blockers'])}",
            f"  SEP-1730 as written: Tier {sep['tier']}; Tier 1 blockers: "
            f"{names(sep['tier1_blockers'])}; Tier 2 blockers: {names(sep['tier2_blockers'])}",
        ]
    )


def governance(args: argparse.Namespace) -> int:
    """`tier-check governance --repo OWNER/REPO`: the six checks and the tier they imply."""
    document = governance_document(args)
    rendered = GOVERNANCE_FORMATS.get(args.output).render(document, stdout_color())
    if args.output == "terminal":
        emit(rendered, _tier_lines(document["implied_tier"]))
    else:
        emit(rendered)
    return 0


def labels(args: argparse.Namespace) -> int:
    """`tier-check labels --repo OWNER/REPO`: the label check's JSON (official fields first)."""
    print_json(evaluate(args).signals.labels.to_dict())
    return 0


def triage(args: argparse.Namespace) -> int:
    """`tier-check triage --repo OWNER/REPO [--days N]`: the triage check's JSON."""
    print_json(evaluate(args).signals.triage.to_dict())
    return 0
