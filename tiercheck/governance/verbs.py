"""The `governance`, `labels` and `triage` commands: a snapshot in, the signals out.

A snapshot is either collected from GitHub now (and optionally recorded with
`--record-governance`) or replayed from a file (`--governance-snapshot`, no network at all).
Every verdict is judged at `--as-of`, by default the moment the snapshot was captured, so one
snapshot always prints the same bytes. Governance never decides the exit code: these commands
return 0 whenever they could produce an answer, and bad input is a `UsageError`/`ConfigError`.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tiercheck.errors import UsageError
from tiercheck.governance.obtain import (
    DEFAULT_API_URL,
    GovernanceOptions,
    obtain_signals,
    parse_as_of,
)
from tiercheck.governance.signals import CHECK_NAMES, GovernanceSignals
from tiercheck.governance.snapshot import Snapshot, format_time

__all__ = [
    "CHECK_NAMES",
    "GovernanceRun",
    "evaluate",
    "governance",
    "labels",
    "parse_as_of",
    "triage",
]

#: Seconds between GitHub requests (PyGithub's politeness delay); tests set it to None.
THROTTLE_S: float | None = 0.25


@dataclass(frozen=True)
class GovernanceRun:
    """The signals of one snapshot at one `as_of`, and where the snapshot came from."""

    signals: GovernanceSignals
    snapshot: Snapshot
    source: str  # "github" | "snapshot"

    def to_dict(self) -> dict[str, Any]:
        """`{repo, as_of, captured_at, source, checks}` with the checks under official names."""
        everything = self.signals.to_dict()
        return {
            "repo": self.signals.repo,
            "as_of": format_time(self.signals.as_of),
            "captured_at": format_time(self.signals.captured_at),
            "source": self.source,
            "checks": {name: everything[name] for name in CHECK_NAMES},
        }


def _cache_dir(args: argparse.Namespace) -> Path:
    from tiercheck.paths import cache_dir

    base = cache_dir(getattr(args, "cache_dir", None))
    # The same place the assessment keeps its ETags, so either command warms the other.
    return base / "github"


def _warn(line: str) -> None:
    sys.stderr.write(f"tier-check: governance: {line}\n")


def options_from_args(args: argparse.Namespace, cache_dir: Path) -> GovernanceOptions:
    """The governance flags (shared by the assessment and these commands) as options."""
    if args.governance_snapshot and args.record_governance:
        msg = "--governance-snapshot replays a snapshot; drop --record-governance"
        raise UsageError(msg)
    return GovernanceOptions(
        skip=bool(getattr(args, "skip_governance", False)),
        snapshot=Path(args.governance_snapshot) if args.governance_snapshot else None,
        record=Path(args.record_governance) if args.record_governance else None,
        as_of=parse_as_of(args.as_of),
        token=args.token,
        api_url=args.github_api_url or os.environ.get("GITHUB_API_URL") or DEFAULT_API_URL,
        days=args.days,
        cache_dir=cache_dir,
        throttle=THROTTLE_S,
    )


def evaluate(args: argparse.Namespace, *, now: datetime | None = None) -> GovernanceRun:
    """Obtain the snapshot (replay or collect) and judge it, as the flags in `args` say.

    `now` is the capture time of a live collection (default: the clock, to the second). A
    replay is judged at `--as-of`, else at its `captured_at`; a live one at `--as-of`, else now.
    """
    options = options_from_args(args, _cache_dir(args))
    entry = None
    if getattr(args, "sdk", None):
        from tiercheck.config.registry import load_registry

        entry = load_registry().get(args.sdk)  # an unknown name is a UsageError with a hint
    moment = now or datetime.now(UTC).replace(microsecond=0)
    obtained = obtain_signals(
        str(args.repo), options, entry=entry, checkout=None, now=moment, log=_warn
    )
    assert obtained.snapshot is not None  # these commands never skip
    return GovernanceRun(obtained.signals, obtained.snapshot, obtained.source)


def _print_json(data: Any) -> None:
    # Key order is the signals' own (official fields first), as every command prints JSON.
    from tiercheck.cli import print_json

    print_json(data)


# --- the commands --------------------------------------------------------------------------


def governance(args: argparse.Namespace) -> int:
    """`tier-check governance --repo OWNER/REPO`: the six checks, as a table or JSON."""
    document = evaluate(args).to_dict()
    if getattr(args, "output", "terminal") == "json":
        _print_json(document)
    else:
        from tiercheck.report.governance import render_governance

        sys.stdout.write(render_governance(document))
    return 0


def labels(args: argparse.Namespace) -> int:
    """`tier-check labels --repo OWNER/REPO`: the label check's JSON (official fields first)."""
    _print_json(evaluate(args).signals.labels.to_dict())
    return 0


def triage(args: argparse.Namespace) -> int:
    """`tier-check triage --repo OWNER/REPO [--days N]`: the triage check's JSON."""
    _print_json(evaluate(args).signals.triage.to_dict())
    return 0
