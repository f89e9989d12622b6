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
    "render_terminal",
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


# --- terminal rendering --------------------------------------------------------------------


def _percent(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _details(checks: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """One (official, SEP-1730) detail line per check, from the JSON form."""
    labels = checks["labels"]
    triage = checks["triage"]
    sep_triage = triage["sep1730"]
    p0 = checks["p0_resolution"]
    sep_p0 = p0["sep1730"]
    release = checks["stable_release"]
    sep_release = release["sep1730"]
    policy = checks["policy_signals"]
    spec = checks["spec_tracking"]
    sep_spec = spec["sep1730"]
    missing = ", ".join(labels["missing"]) or "none"
    sep_missing = ", ".join(labels["sep1730"]["missing"]) or "none"
    present = [path for path, found in policy["files"].items() if found]
    absent = [name for name, paths in policy["sep1730"]["categories"].items() if not paths]
    return {
        "labels": (
            f"{labels['present']}/{labels['required']} labels, missing: {missing}",
            f"missing with aliases: {sep_missing}",
        ),
        "triage": (
            f"{_percent(triage['compliance_rate'])} of {triage['total_issues']} open issues "
            f"labelled, {triage['exceeding_sla']} unlabelled > 48 h",
            f"{_percent(sep_triage['rate_2_business_days'])} labelled within 2 business days "
            f"({sep_triage['issues_considered']} issues, median "
            f"{sep_triage['median_business_hours']} business h), "
            f"{_percent(sep_triage['rate_1_month'])} within a month",
        ),
        "p0_resolution": (
            f"{p0['open_p0s']} open, {p0['closed_within_7d']}/{p0['closed_total']} closed "
            "within 7 d (from creation)",
            f"{sep_p0['open_p0s']} open, {sep_p0['resolved_within_7d']}/"
            f"{sep_p0['resolved_total']} resolved within 7 d, "
            f"{sep_p0['resolved_within_14d']} within 14 d (from the label)",
        ),
        "stable_release": (
            f"newest {release['version'] or 'none'}"
            + (" (prerelease)" if release["is_prerelease"] else ""),
            f"stable {sep_release['tag'] or 'none'}",
        ),
        "policy_signals": (
            f"{len(present)} of the {len(policy['files'])} official paths",
            f"missing: {', '.join(absent) or 'nothing'}",
        ),
        "spec_tracking": (
            f"spec {spec['latest_spec_release'] or '-'} → {spec['latest_sdk_release'] or '-'}, "
            f"{spec['days_gap'] if spec['days_gap'] is not None else '-'} d",
            f"stable {sep_spec['latest_sdk_release'] or '-'}, "
            f"{sep_spec['days_gap'] if sep_spec['days_gap'] is not None else '-'} d",
        ),
    }


def render_terminal(document: dict[str, Any]) -> str:
    """A compact plain-text table of the six checks (official and SEP-1730 side by side)."""
    checks: dict[str, Any] = document["checks"]
    lines = [
        f"Governance of {document['repo']}",
        f"  as of {document['as_of']}, captured {document['captured_at']} "
        f"(source: {document['source']})",
        "",
        f"  {'check':<16} {'official':<13} {'SEP-1730':<13} detail",
    ]
    details = _details(checks)
    for name in CHECK_NAMES:
        check = checks[name]
        official = check["status"]
        sep = check["sep1730"]["status"]
        # An asterisk marks where SEP-1730 as written reaches another verdict.
        mark = "*" if check["disagrees_with_official"] else " "
        if check["reason"]:
            lines.append(f"  {name:<16} {official:<13} {sep:<12}{mark} {check['reason']}")
            continue
        first, second = details[name]
        lines.append(f"  {name:<16} {official:<13} {sep:<12}{mark} {first}")
        lines.append(f"  {'':<16} {'':<13} {'':<12}  SEP-1730: {second}")
    lines.append("")
    lines.append("  * SEP-1730 as written reaches a different verdict than the official check.")
    return "\n".join(lines) + "\n"


# --- the commands --------------------------------------------------------------------------


def governance(args: argparse.Namespace) -> int:
    """`tier-check governance --repo OWNER/REPO`: the six checks, as a table or JSON."""
    document = evaluate(args).to_dict()
    if getattr(args, "output", "terminal") == "json":
        _print_json(document)
    else:
        sys.stdout.write(render_terminal(document))
    return 0


def labels(args: argparse.Namespace) -> int:
    """`tier-check labels --repo OWNER/REPO`: the label check's JSON (official fields first)."""
    _print_json(evaluate(args).signals.labels.to_dict())
    return 0


def triage(args: argparse.Namespace) -> int:
    """`tier-check triage --repo OWNER/REPO [--days N]`: the triage check's JSON."""
    _print_json(evaluate(args).signals.triage.to_dict())
    return 0
