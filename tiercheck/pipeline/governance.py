"""`tier-check governance|labels|triage`: the governance flags resolved into options, and one
snapshot obtained and judged into what these commands print.

The flags arrive as given (`GovernanceFlags`). `governance_options` checks them and resolves
GitHub's side through `tiercheck.ghapi`: the API URL (a bad one is a usage error before anything
runs) and how requests travel (`ghapi.for_reading`, within the governance deadline); the token
is looked for later, by `governance.obtain`, and only when a snapshot is collected. The
assessment resolves its governance flags here too.

`evaluate` obtains the snapshot (replayed, or collected from GitHub) and judges it, with the
disputes the conformance repository recorded; `governance_document` is what `tier-check
governance` prints: the six checks and the tier governance alone implies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tiercheck import ghapi
from tiercheck.errors import UsageError
from tiercheck.governance.obtain import (
    GovernanceOptions,
    GovernanceRun,
    dispute_entries,
    dispute_listing,
    obtain_signals,
    parse_as_of,
    signal_config,
)
from tiercheck.governance.signals import GovernanceSignals
from tiercheck.tier import governance_tier as tier_of

__all__ = [
    "GovernanceFlags",
    "GovernanceRequest",
    "evaluate",
    "governance_document",
    "governance_options",
    "governance_tier",
]


@dataclass(frozen=True)
class GovernanceFlags:
    """The governance flags as given, shared by the assessment and the governance commands."""

    #: `--skip-governance` (the assessment's only).
    skip: bool = False
    #: `--governance-snapshot`: a snapshot to replay instead of asking GitHub.
    snapshot: Path | None = None
    #: `--record-governance`: where to write the collected snapshot.
    record: Path | None = None
    #: `--as-of`, as typed.
    as_of: str | None = None
    #: The token a flag gave (`--token`, `--token-file`); None: `ghapi.resolve_token` looks.
    token: str | None = None
    #: `--github-api-url`; None: `GITHUB_API_URL`, else api.github.com (`ghapi.api_url`).
    github_api_url: str | None = None
    #: `--days`: the triage window.
    days: int | None = None
    #: Where ETags and derived timelines are kept between runs.
    cache_dir: Path | None = None
    #: Seconds GitHub may take in all (None: no bound).
    deadline: float | None = None
    #: `--disputes`: the reviewed disputes file.
    disputes: Path | None = None


def governance_options(flags: GovernanceFlags) -> GovernanceOptions:
    """How governance facts are obtained, as `flags` say; a bad flag is a `UsageError` now,
    before anything runs."""
    if flags.snapshot is not None and flags.record is not None:
        msg = "--governance-snapshot replays a snapshot; drop --record-governance"
        raise UsageError(msg)
    signal_config(None, flags.days)  # a bad --days is refused now, not after the legs
    return GovernanceOptions(
        skip=flags.skip,
        snapshot=flags.snapshot,
        record=flags.record,
        as_of=parse_as_of(flags.as_of),
        token=flags.token,
        api_url=ghapi.api_url(flags.github_api_url),
        days=flags.days,
        cache_dir=flags.cache_dir,
        transport=ghapi.for_reading(flags.deadline),
        disputes=flags.disputes,
    )


@dataclass(frozen=True)
class GovernanceRequest:
    """What `tier-check governance|labels|triage` was asked: a repository, how to obtain its
    facts, and the known SDK's registry entry whose configuration (label aliases, tag prefix)
    applies (None: none)."""

    repo: str
    options: GovernanceOptions
    entry: Any = None


def evaluate(
    request: GovernanceRequest,
    *,
    log: Callable[[str], None],
    now: datetime | None = None,
) -> GovernanceRun:
    """Obtain the snapshot (replay or collect) and judge it, as `request` says; `log` receives
    the collection's notable events.

    `now` is the capture time of a live collection (default: the clock, to the second). A
    replay is judged at `--as-of`, else at its `captured_at`; a live one at `--as-of`, else now.
    """
    options = request.options
    entries = dispute_entries(options)  # a bad disputes file stops before GitHub is asked
    moment = now or datetime.now(UTC).replace(microsecond=0)
    obtained = obtain_signals(
        request.repo, options, entry=request.entry, checkout=None, now=moment, log=log
    )
    assert obtained.snapshot is not None  # these commands never skip
    disputes = dispute_listing(entries, obtained.snapshot, obtained.signals.as_of)
    return GovernanceRun(obtained.signals, obtained.snapshot, obtained.source, disputes)


def governance_tier(signals: GovernanceSignals) -> dict[str, Any]:
    """The tier governance alone implies: the official tier rules with both legs at 100%.

    Conformance is not measured by these commands, so it is taken as passing; what remains are
    exactly the governance blockers of Tier 1 and Tier 2 (the same `compute_tier` the
    assessment uses), so another tool can compare them without importing tiercheck.
    """
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


def governance_document(run: GovernanceRun) -> dict[str, Any]:
    """What `tier-check governance` prints: the six checks and the implied governance tier."""
    return {**run.to_dict(), "implied_tier": governance_tier(run.signals)}
