"""The `governance`, `labels` and `triage` commands: a snapshot in, the signals out.

A snapshot is either collected from GitHub now (and optionally recorded with
`--record-governance`) or replayed from a file (`--governance-snapshot`, no network at all).
Every verdict is judged at `--as-of`, by default the moment the snapshot was captured, so one
snapshot always prints the same bytes. Governance never decides the exit code: these commands
return 0 whenever they could produce an answer, and bad input is a `UsageError`/`ConfigError`.

The collecting and judging is `governance.obtain`'s; this module turns flags into its options
and prints what it returns.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tiercheck import ghapi
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
from tiercheck.errors import UsageError
from tiercheck.report.formats import GOVERNANCE_FORMATS

if TYPE_CHECKING:
    from tiercheck.governance.obtain import GovernanceOptions, GovernanceRun
    from tiercheck.governance.signals import GovernanceSignals

__all__ = [
    "evaluate",
    "governance",
    "governance_document",
    "governance_parser",
    "governance_tier",
    "labels",
    "labels_parser",
    "options_from_args",
    "triage",
    "triage_parser",
]

#: Seconds between GitHub requests (PyGithub's politeness delay); tests set it to None.
THROTTLE_S: float | None = 0.25


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


def options_from_args(args: argparse.Namespace) -> GovernanceOptions:
    """The governance flags (shared by the assessment and these commands) as options."""
    from tiercheck.governance.obtain import (
        GovernanceOptions,
        parse_as_of,
        signal_config,
    )

    if args.governance_snapshot and args.record_governance:
        msg = "--governance-snapshot replays a snapshot; drop --record-governance"
        raise UsageError(msg)
    signal_config(None, args.days)  # a bad --days is refused now, not after the legs
    return GovernanceOptions(
        skip=bool(getattr(args, "skip_governance", False)),
        snapshot=Path(args.governance_snapshot) if args.governance_snapshot else None,
        record=Path(args.record_governance) if args.record_governance else None,
        as_of=parse_as_of(args.as_of),
        token=token_from_args(args),
        api_url=ghapi.api_url(args.github_api_url, os.environ),
        days=args.days,
        # The same place the assessment keeps its ETags, so either command warms the other.
        cache_dir=cache_dir(args) / "github",
        transport=ghapi.Transport(
            throttle=THROTTLE_S,
            write_throttle=THROTTLE_S,
            deadline=_deadline(args.governance_deadline),
        ),
        disputes=Path(args.disputes) if getattr(args, "disputes", None) else None,
    )


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
    """Obtain the snapshot (replay or collect) and judge it, as the flags in `args` say.

    `now` is the capture time of a live collection (default: the clock, to the second). A
    replay is judged at `--as-of`, else at its `captured_at`; a live one at `--as-of`, else now.
    """
    from tiercheck.governance.obtain import (
        GovernanceRun,
        dispute_entries,
        dispute_listing,
        obtain_signals,
    )

    options = options_from_args(args)
    entries = dispute_entries(options)  # a bad disputes file stops before GitHub is asked
    # An unknown name is a UsageError with a "did you mean".
    entry = known_sdks(args).get(args.sdk) if getattr(args, "sdk", None) else None
    moment = now or datetime.now(UTC).replace(microsecond=0)
    obtained = obtain_signals(
        str(args.repo), options, entry=entry, checkout=None, now=moment, log=_warn
    )
    assert obtained.snapshot is not None  # these commands never skip
    disputes = dispute_listing(entries, obtained.snapshot, obtained.signals.as_of)
    return GovernanceRun(obtained.signals, obtained.snapshot, obtained.source, disputes)


def governance_tier(signals: GovernanceSignals) -> dict[str, Any]:
    """The tier governance alone implies: the official tier rules with both legs at 100%.

    Conformance is not measured by this command, so it is taken as passing; what remains are
    exactly the governance blockers of Tier 1 and Tier 2 (the same `compute_tier` the
    assessment uses), so another tool can compare them without importing tiercheck.
    """
    from tiercheck.tier import governance_tier as tier_of

    implied = tier_of(signals)
    return {
        "tier": implied.tier,
        "tier1_blockers": [str(b) for b in implied.tier1_blockers],
        "tier2_met": implied.tier2_met,
        "tier2_blockers": [str(b) for b in implied.tier2_blockers],
        "assumes": "both conformance legs at 100% (governance alone)",
        "sep1730": {
            "tier": implied.sep1730.tier,
            "tier1_blockers": [str(b) for b in implied.sep1730.blockers],
            "tier2_met": implied.sep1730.tier2_met,
            "tier2_blockers": [str(b) for b in implied.sep1730.tier2_blockers],
        },
    }


def governance_document(args: argparse.Namespace) -> dict[str, Any]:
    """What `tier-check governance` prints: the six checks and the implied governance tier."""
    run = evaluate(args)
    return {**run.to_dict(), "implied_tier": governance_tier(run.signals)}


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
