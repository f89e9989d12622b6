"""Obtaining governance signals: skip, replay a snapshot, or collect from GitHub — then judge.

The one path shared by the assessment and the `governance`/`labels`/`triage` commands. A replay
is judged at `--as-of`, else at the moment the snapshot was captured, so one snapshot always
gives the same verdicts; a live collection at `--as-of`, else now.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tiercheck import ghapi
from tiercheck.config.disputes import DisputeEntry, default_disputes_path, load_disputes
from tiercheck.errors import ConfigError, UsageError
from tiercheck.ghapi import DEFAULT_API_URL, Transport
from tiercheck.governance.disputes import CONFORMANCE_REPO, DisputeListing, recorded_disputes
from tiercheck.governance.signals import (
    CHECK_NAMES,
    GovernanceSignals,
    SignalConfig,
    compute_signals,
)
from tiercheck.governance.snapshot import Snapshot, Unavailable, format_time

__all__ = [
    "CHECK_NAMES",
    "GovernanceOptions",
    "GovernanceRun",
    "Obtained",
    "check_snapshot",
    "dispute_entries",
    "dispute_listing",
    "obtain_signals",
    "parse_as_of",
    "signal_config",
]

#: `--as-of` bounds: windows are counted back from it (up to a century, `MAX_DAYS`), and
#: dates far outside these have no GitHub history to judge anyway.
EARLIEST_AS_OF = datetime(1970, 1, 1, tzinfo=UTC)
LATEST_AS_OF = datetime(3000, 1, 1, tzinfo=UTC)
MAX_DAYS = 36_500


@dataclass(frozen=True)
class GovernanceOptions:
    """How governance facts are obtained."""

    skip: bool = False
    snapshot: Path | None = None
    record: Path | None = None
    as_of: datetime | None = None
    #: The token a flag gave (None: `ghapi.resolve_token` looks for one when collecting).
    token: str | None = None
    #: The GitHub REST base (`ghapi.api_url` resolves the flag and the environment).
    api_url: str = DEFAULT_API_URL
    days: int | None = None
    cache_dir: Path | None = None
    #: How requests travel: its deadline is how long the whole collection may take (what is
    #: missing then is unavailable).
    transport: Transport = field(default_factory=ghapi.for_reading)
    #: The reviewed disputes file (None: the shipped `requirements/disputes.yaml`).
    disputes: Path | None = None
    #: Whose issues labelled ``disputed`` are collected into the snapshot (None: none).
    disputes_repo: str | None = CONFORMANCE_REPO


@dataclass(frozen=True)
class Obtained:
    """The six signals, the snapshot they judge (None when skipped) and where it came from."""

    signals: GovernanceSignals
    snapshot: Snapshot | None
    source: str  # "github" | "snapshot" | "skipped"
    where: str | None  # the snapshot file read or written


@dataclass(frozen=True)
class GovernanceRun:
    """The signals of one snapshot at one `as_of`, and where the snapshot came from.

    What the `governance`, `labels` and `triage` commands print (never skipped, so there is
    always a snapshot).
    """

    signals: GovernanceSignals
    snapshot: Snapshot
    source: str  # "github" | "snapshot"
    #: The disputed conformance tests on the `as_of` day (None: none recorded, none reviewed).
    disputes: DisputeListing | None = None

    def to_dict(self) -> dict[str, Any]:
        """`{repo, as_of, captured_at, source, checks}` with the checks under official names,
        then `disputes` when the snapshot recorded them or the disputes file names one."""
        everything = self.signals.to_dict()
        document = {
            "repo": self.signals.repo,
            "as_of": format_time(self.signals.as_of),
            "captured_at": format_time(self.signals.captured_at),
            "source": self.source,
            "checks": {name: everything[name] for name in CHECK_NAMES},
        }
        if self.disputes is not None:
            document["disputes"] = self.disputes.to_dict()
        return document


def dispute_entries(options: GovernanceOptions) -> tuple[DisputeEntry, ...]:
    """The reviewed disputes file (`--disputes`, else the shipped one); a bad one is a one-line
    `ConfigError`."""
    return load_disputes(options.disputes or default_disputes_path())


def dispute_listing(
    entries: Sequence[DisputeEntry], snapshot: Snapshot, at: datetime
) -> DisputeListing | None:
    """The disputes `tier-check governance` reports: the snapshot's, linked by the reviewed
    file's `entries`, on `at`; None when the snapshot recorded none and the file names none."""
    if snapshot.disputes is None and not entries:
        return None
    return recorded_disputes(entries, snapshot.disputes, at)


def parse_as_of(text: str | None) -> datetime | None:
    """`--as-of` as an aware UTC datetime (a date alone is its midnight UTC), or None."""
    if text is None:
        return None
    if not text.strip():
        msg = "--as-of: empty; give an ISO date or time (e.g. 2026-11-27) or drop the flag"
        raise UsageError(msg)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        msg = f"--as-of: {text!r} is not an ISO date or time (e.g. 2026-11-27 or 2026-11-27T12:00Z)"
        raise UsageError(msg) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        moment = EARLIEST_AS_OF - timedelta(days=1)  # 0001-01-01 with an offset: out of range
    if not EARLIEST_AS_OF <= moment < LATEST_AS_OF:
        msg = (
            f"--as-of: {text!r} is out of range; give a moment between "
            f"{EARLIEST_AS_OF.date()} and {LATEST_AS_OF.date()}"
        )
        raise UsageError(msg)
    return moment


def signal_config(entry: Any, days: int | None, tag_prefix: str | None = None) -> SignalConfig:
    """Per-SDK knobs (label aliases, tag prefix) from a registry entry, and the triage window.

    `tag_prefix`, when given, is the prefix as the configuration resolved it (a flag or a
    variable over the entry's own); "" means none."""
    if days is not None and not 0 < days <= MAX_DAYS:
        msg = f"--days: {days} is not between 1 and {MAX_DAYS} days"
        raise UsageError(msg)
    prefix = tag_prefix if tag_prefix is not None else (entry.tag_prefix if entry else None)
    if entry is None:
        return SignalConfig(tag_prefix=prefix or None, days=days)
    return SignalConfig(
        label_aliases=dict(entry.label_aliases),
        tag_prefix=prefix or None,
        days=days,
    )


def _empty_snapshot(repo: str, moment: datetime, reason: str) -> Snapshot:
    gone = Unavailable(reason)
    return Snapshot(
        repo=repo,
        captured_at=moment,
        api_base="",
        authenticated=False,
        labels=gone,
        issues=gone,
        releases=gone,
        spec_releases=gone,
        policy_files=gone,
    )


def _as_skipped(signals: GovernanceSignals, reason: str) -> GovernanceSignals:
    """Every signal marked skipped, in both readings: the user chose not to measure them."""
    changed: dict[str, Any] = {}
    for name in CHECK_NAMES:
        signal = getattr(signals, name)
        fields = {f.name for f in dataclasses.fields(signal)}
        updates: dict[str, Any] = {"status": "skipped", "reason": reason}
        if "sep_status" in fields:
            updates["sep_status"] = "skipped"
        sep = getattr(signal, "sep1730", None)
        if dataclasses.is_dataclass(sep) and not isinstance(sep, type):
            sep_fields = {f.name for f in dataclasses.fields(sep)}
            sep_updates = {k: v for k, v in updates.items() if k in sep_fields}
            updates["sep1730"] = dataclasses.replace(sep, **sep_updates)
        changed[name] = dataclasses.replace(signal, **updates)
    return dataclasses.replace(signals, **changed)


def check_snapshot(repo: str, options: GovernanceOptions) -> None:
    """Refuse a `--governance-snapshot` that cannot be replayed for `repo` (unreadable, invalid,
    out of range, another repository's), as the assessment's first step: a run must not build
    and run an SDK for minutes only to stop at its governance input."""
    if options.snapshot is not None and not options.skip:
        _replay(repo, options.snapshot)


def _replay(repo: str, path: Path) -> Snapshot:
    from tiercheck.governance.snapshot import load_snapshot

    snapshot = load_snapshot(path)
    if not EARLIEST_AS_OF <= snapshot.captured_at < LATEST_AS_OF:
        msg = (
            f"{path}: $.captured_at: {snapshot.captured_at.isoformat()} is out of range "
            f"({EARLIEST_AS_OF.date()} to {LATEST_AS_OF.date()})"
        )
        raise ConfigError(msg)
    if snapshot.repo.lower() != repo.lower():
        msg = (
            f"--governance-snapshot: {path} is a snapshot of {snapshot.repo}, not {repo}; "
            f"record one for {repo} or pass --repo {snapshot.repo}"
        )
        raise UsageError(msg)
    return snapshot


def _collect(
    repo: str,
    options: GovernanceOptions,
    *,
    checkout: Path | None,
    now: datetime,
    log: Callable[[str], None],
) -> Snapshot:
    from tiercheck.governance.collector import ANONYMOUS_WARNING, collect
    from tiercheck.governance.snapshot import save_snapshot

    if "/" not in repo.strip("/"):
        msg = f"--repo: {repo!r} is not OWNER/REPO"
        raise UsageError(msg)
    token = ghapi.resolve_token(options.token)
    if token.value is None:
        log(ANONYMOUS_WARNING)
    snapshot = collect(
        repo.strip("/"),
        api_url=options.api_url,
        token=token.value,
        cache_dir=options.cache_dir,
        checkout=checkout,
        now=now,
        transport=options.transport,
        log=log,
        disputes_repo=options.disputes_repo,
    )
    if options.record is not None:
        try:
            save_snapshot(snapshot, options.record)
        except OSError as exc:
            msg = f"--record-governance: cannot write {options.record}: {exc.strerror or exc}"
            raise UsageError(msg) from exc
        log(f"snapshot written to {options.record}")
    return snapshot


def obtain_signals(
    repo: str,
    options: GovernanceOptions,
    *,
    entry: Any,
    checkout: Path | None,
    now: datetime,
    log: Callable[[str], None],
    tag_prefix: str | None = None,
) -> Obtained:
    """Skip, replay or collect as `options` say, and judge the snapshot.

    Never raises for GitHub trouble (the collector records unavailable facts and the signals
    become inconclusive); raises UsageError/ConfigError for bad input. `tag_prefix` overrides
    the entry's (`signal_config`).
    """
    config = signal_config(entry, options.days, tag_prefix)
    if options.skip:
        reason = "skipped (--skip-governance)"
        empty = _empty_snapshot(repo, now, reason)
        signals = _as_skipped(compute_signals(empty, options.as_of or now, config), reason)
        return Obtained(signals, None, "skipped", None)
    where: str | None
    if options.snapshot is not None:
        snapshot = _replay(repo, options.snapshot)
        source, where = "snapshot", str(options.snapshot)
    else:
        snapshot = _collect(repo, options, checkout=checkout, now=now, log=log)
        source = "github"
        where = None if options.record is None else str(options.record)
    signals = compute_signals(snapshot, options.as_of or snapshot.captured_at, config)
    return Obtained(signals, snapshot, source, where)
