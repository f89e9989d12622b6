"""Governance signals: pure functions of (snapshot, as_of, config).

Each signal reports the official `tier-check` metric under the official field names, and beside
it the SEP-1730 reading (`sep1730`) where the two differ, with `disagrees_with_official` set when
they reach different verdicts. Nothing here reads the clock or the network: every age is measured
against `as_of`, so the same snapshot and `as_of` always give byte-identical output.

A fact group the collector could not fetch makes the signals that need it `inconclusive` with the
collector's reason. Inconclusive is not fail: the tier logic names it as a blocker of its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from tiercheck.governance.snapshot import (
    Issue,
    IssueFacts,
    LabelFacts,
    PolicyFileFacts,
    Release,
    ReleaseFacts,
    Snapshot,
    Unavailable,
)

__all__ = [
    "CHECK_NAMES",
    "GovernanceSignals",
    "LabelsSignal",
    "P0Signal",
    "PolicySignal",
    "SignalConfig",
    "SpecTrackingSignal",
    "StableReleaseSignal",
    "Status",
    "TriageSignal",
    "business_seconds",
    "compute_signals",
    "labels_signal",
    "p0_signal",
    "parse_release_version",
    "policy_signal",
    "spec_tracking_signal",
    "stable_release_signal",
    "triage_signal",
]

Status = Literal["pass", "partial", "fail", "skipped", "inconclusive"]

#: The official scorecard's names for the six governance checks, in its order.
CHECK_NAMES = (
    "labels",
    "triage",
    "p0_resolution",
    "stable_release",
    "policy_signals",
    "spec_tracking",
)

HOUR = 3600.0
DAY = 86400.0

#: The official label taxonomy (SEP-1730 and `tier-check` labels.ts), compared case-insensitively.
TYPE_LABELS = ("bug", "enhancement", "question")
STATUS_LABELS = (
    "needs confirmation",
    "needs repro",
    "ready for work",
    "good first issue",
    "help wanted",
)
PRIORITY_LABELS = ("P0", "P1", "P2", "P3")

#: Official thresholds (tier-check triage.ts / p0.ts / spec-tracking.ts).
TRIAGE_PASS = 0.9
TRIAGE_PARTIAL = 0.8
OFFICIAL_TRIAGE_SLA_HOURS = 48.0
SPEC_TRACKING_DAYS = 30
#: SEP-1730: Tier 1 triages within 2 business days, Tier 2 within a month; Tier 2 may adopt new
#: protocol features within six months of a spec release.
SEP_TIER1_TRIAGE_BUSINESS_DAYS = 2
SEP_TIER2_TRIAGE_DAYS = 30
SEP_TIER2_SPEC_DAYS = 180

#: Suffixes the official release check treats as prerelease markers.
_OFFICIAL_PRERELEASE = re.compile(r"-(alpha|beta|rc|dev|preview|snapshot)", re.IGNORECASE)
#: A semantic version at the end of a tag (`v1.2.3`, `rmcp-v3.1.4`, `pkg@1.2.0-rc.1`).
_TRAILING_SEMVER = re.compile(
    r"(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)"
    r"(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+(?P<build>[0-9A-Za-z.-]+))?$"
)


@dataclass(frozen=True)
class SignalConfig:
    """Per-SDK knobs for the signals (from known_sdks.yaml and the command line).

    Attributes:
        label_aliases: repository label → the official label it stands for (case-insensitive).
        tag_prefix: release tags look like ``<tag_prefix><semver>``; others are ignored by our
            reading (monorepos publish several packages from one repository).
        days: the official triage window (``--days``): only open issues created in the last
            ``days`` days; None means every open issue, as the official default.
        sep_window_days: our triage window: issues (open and closed) created in the last N days.
        p0_window_days: our P0 window: P0 episodes that started in the last N days, plus any
            still open.
    """

    label_aliases: Mapping[str, str] = field(default_factory=dict)
    tag_prefix: str | None = None
    days: int | None = None
    sep_window_days: int = 90
    p0_window_days: int = 365


# --- small pure helpers --------------------------------------------------------------------


def _round(value: float, places: int = 2) -> float:
    # Rounded so that the JSON is stable and readable; 0.01 h is finer than any SLA.
    return round(value + 0.0, places)


def _median(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def _percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `fraction` of values ≤ it."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def business_seconds(start: datetime, end: datetime) -> float:
    """Seconds between `start` and `end` that fall on Monday–Friday (UTC).

    Weekends do not count towards a business-day SLA; public holidays are not modelled (they
    differ per maintainer) and so count as business time.
    """
    if end <= start:
        return 0.0
    start = start.astimezone(UTC)
    end = end.astimezone(UTC)
    total = 0.0
    cursor = start
    # Whole weeks contribute exactly five business days: skip them instead of walking each day.
    whole_weeks = int((end - cursor).total_seconds() // (7 * DAY)) - 1
    if whole_weeks > 0:
        total += whole_weeks * 5 * DAY
        cursor += timedelta(weeks=whole_weeks)
    while cursor < end:
        midnight = datetime(cursor.year, cursor.month, cursor.day, tzinfo=UTC) + timedelta(days=1)
        segment_end = min(end, midnight)
        if cursor.weekday() < 5:
            total += (segment_end - cursor).total_seconds()
        cursor = segment_end
    return total


def _days(delta: timedelta) -> float:
    return delta.total_seconds() / DAY


def _alias_map(config: SignalConfig) -> dict[str, str]:
    return {repo.lower(): official.lower() for repo, official in config.label_aliases.items()}


def _canonical(label: str, aliases: Mapping[str, str]) -> str:
    lowered = label.lower()
    return aliases.get(lowered, lowered)


def _status_from_rate(rate: float) -> Status:
    if rate >= TRIAGE_PASS:
        return "pass"
    if rate >= TRIAGE_PARTIAL:
        return "partial"
    return "fail"


# --- labels --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelsSignal:
    """The label taxonomy: official field names plus an alias-aware SEP-1730 reading."""

    status: Status
    reason: str | None
    present: int
    required: int
    missing: tuple[str, ...]
    found: tuple[str, ...]
    uses_issue_types: bool
    sep_missing: tuple[str, ...]
    sep_found: tuple[str, ...]
    sep_status: Status
    aliases_applied: Mapping[str, str]

    @property
    def disagrees_with_official(self) -> bool:
        """True when the alias-aware reading reaches a different verdict."""
        return self.sep_status != self.status

    def to_dict(self) -> dict[str, Any]:
        """Official `LabelsResult` fields plus `reason`, `sep1730` and the disagreement flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            "present": self.present,
            "required": self.required,
            "missing": list(self.missing),
            "found": list(self.found),
            "uses_issue_types": self.uses_issue_types,
            "sep1730": {
                "status": self.sep_status,
                "missing": list(self.sep_missing),
                "found": list(self.sep_found),
                "aliases_applied": dict(sorted(self.aliases_applied.items())),
            },
            "disagrees_with_official": self.disagrees_with_official,
        }


def labels_signal(snapshot: Snapshot, config: SignalConfig) -> LabelsSignal:
    """Which of the official labels the repository has (12, or 9 when it uses issue types).

    The official reading compares names case-insensitively; ours also maps the SDK's
    `label_aliases` (a repository that says ``priority: critical`` for ``P0`` has a P0 label).
    """
    group = snapshot.labels
    if isinstance(group, Unavailable):
        return LabelsSignal(
            status="inconclusive",
            reason=group.reason,
            present=0,
            required=0,
            missing=(),
            found=(),
            uses_issue_types=False,
            sep_missing=(),
            sep_found=(),
            sep_status="inconclusive",
            aliases_applied={},
        )
    assert isinstance(group, LabelFacts)
    required = (() if group.uses_issue_types else TYPE_LABELS) + STATUS_LABELS + PRIORITY_LABELS
    exact = {name.lower() for name in group.names}
    aliases = _alias_map(config)
    mapped = {_canonical(name, aliases) for name in group.names}
    found = tuple(label for label in required if label.lower() in exact)
    missing = tuple(label for label in required if label.lower() not in exact)
    sep_found = tuple(label for label in required if label.lower() in mapped)
    sep_missing = tuple(label for label in required if label.lower() not in mapped)
    spelled = {repo.lower(): official for repo, official in config.label_aliases.items()}
    applied = {name: spelled[name.lower()] for name in group.names if name.lower() in spelled}
    return LabelsSignal(
        status="fail" if missing else "pass",
        reason=None,
        present=len(found),
        required=len(required),
        missing=missing,
        found=found,
        uses_issue_types=group.uses_issue_types,
        sep_missing=sep_missing,
        sep_found=sep_found,
        sep_status="fail" if sep_missing else "pass",
        aliases_applied=applied,
    )


# --- triage --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SepTriage:
    """SEP-1730 triage: creation → first label by someone other than the author and not a bot.

    Business time (Mon–Fri) for the 2-business-day Tier 1 SLA, calendar time for Tier 2's month.
    Issues still unlabelled but younger than the SLA are `pending` and not counted either way.
    """

    status: Status
    reason: str | None
    window_days: int
    issues_considered: int
    bot_issues_excluded: int
    labelled: int
    self_or_bot_labels_ignored: int
    within_2_business_days: int
    breached_2_business_days: int
    pending_2_business_days: int
    rate_2_business_days: float
    within_1_month: int
    breached_1_month: int
    rate_1_month: float
    median_business_hours: float
    p95_business_hours: float
    first_response_median_hours: float | None
    first_response_count: int

    @property
    def tier1_met(self) -> bool:
        """Tier 1: at least 90% of issues labelled within 2 business days."""
        return self.status != "inconclusive" and self.rate_2_business_days >= TRIAGE_PASS

    @property
    def tier2_met(self) -> bool:
        """Tier 2: at least 80% of issues labelled within a month (the skill's reading)."""
        return self.status != "inconclusive" and self.rate_1_month >= TRIAGE_PARTIAL

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the SEP-1730 triage reading."""
        return {
            "status": self.status,
            "reason": self.reason,
            "window_days": self.window_days,
            "issues_considered": self.issues_considered,
            "bot_issues_excluded": self.bot_issues_excluded,
            "labelled": self.labelled,
            "self_or_bot_labels_ignored": self.self_or_bot_labels_ignored,
            "within_2_business_days": self.within_2_business_days,
            "breached_2_business_days": self.breached_2_business_days,
            "pending_2_business_days": self.pending_2_business_days,
            "rate_2_business_days": self.rate_2_business_days,
            "within_1_month": self.within_1_month,
            "breached_1_month": self.breached_1_month,
            "rate_1_month": self.rate_1_month,
            "median_business_hours": self.median_business_hours,
            "p95_business_hours": self.p95_business_hours,
            "first_response_median_hours": self.first_response_median_hours,
            "first_response_count": self.first_response_count,
            "tier1_met": self.tier1_met,
            "tier2_met": self.tier2_met,
        }


@dataclass(frozen=True)
class TriageSignal:
    """Issue triage: the official "open issues labelled now" rate, and SEP-1730's time to label."""

    status: Status
    reason: str | None
    compliance_rate: float
    total_issues: int
    triaged_within_sla: int
    exceeding_sla: int
    median_hours: float
    p95_hours: float
    days_analyzed: int | None
    sep1730: SepTriage

    @property
    def disagrees_with_official(self) -> bool:
        """True when the time-to-first-label reading reaches a different verdict."""
        return self.sep1730.status != self.status

    def to_dict(self) -> dict[str, Any]:
        """Official `TriageResult` fields plus `reason`, `sep1730` and the disagreement flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            "compliance_rate": self.compliance_rate,
            "total_issues": self.total_issues,
            "triaged_within_sla": self.triaged_within_sla,
            "exceeding_sla": self.exceeding_sla,
            "median_hours": self.median_hours,
            "p95_hours": self.p95_hours,
            "days_analyzed": self.days_analyzed,
            "sep1730": self.sep1730.to_dict(),
            "disagrees_with_official": self.disagrees_with_official,
        }


def _inconclusive_sep_triage(reason: str, window: int) -> SepTriage:
    return SepTriage(
        status="inconclusive",
        reason=reason,
        window_days=window,
        issues_considered=0,
        bot_issues_excluded=0,
        labelled=0,
        self_or_bot_labels_ignored=0,
        within_2_business_days=0,
        breached_2_business_days=0,
        pending_2_business_days=0,
        rate_2_business_days=0.0,
        within_1_month=0,
        breached_1_month=0,
        rate_1_month=0.0,
        median_business_hours=0.0,
        p95_business_hours=0.0,
        first_response_median_hours=None,
        first_response_count=0,
    )


def _triage_label_time(issue: Issue) -> tuple[datetime | None, int]:
    """First label applied by neither the author nor a bot, and how many labels were skipped."""
    assert issue.timeline is not None
    ignored = 0
    for event in issue.timeline.label_events:
        if event.action != "labeled":
            continue
        if event.by_bot or event.actor == issue.author.login:
            ignored += 1
            continue
        return event.at, ignored
    return None, ignored


def _sep_triage(facts: IssueFacts, as_of: datetime, config: SignalConfig) -> SepTriage:
    window = config.sep_window_days
    if facts.timeline_reason is not None:
        return _inconclusive_sep_triage(facts.timeline_reason, window)
    since = as_of - timedelta(days=window)
    sla = SEP_TIER1_TRIAGE_BUSINESS_DAYS * DAY
    month = SEP_TIER2_TRIAGE_DAYS * DAY
    considered = bots = labelled = ignored_total = 0
    within_bd = breached_bd = pending_bd = within_month = breached_month = 0
    label_hours: list[float] = []
    response_hours: list[float] = []
    for issue in facts.issues:
        if not since <= issue.created_at <= as_of:
            continue
        if issue.author.is_bot:
            bots += 1
            continue
        if issue.timeline is None:
            return _inconclusive_sep_triage(f"issue #{issue.number} has no timeline", window)
        considered += 1
        labelled_at, ignored = _triage_label_time(issue)
        ignored_total += ignored
        if labelled_at is not None and labelled_at > as_of:
            labelled_at = None  # labelled after as_of: as of then, it was not labelled yet
        if labelled_at is not None:
            labelled += 1
            label_hours.append(business_seconds(issue.created_at, labelled_at) / HOUR)
        # An issue closed without a label was dealt with when it closed (a maintainer decided,
        # or the author withdrew it); an open unlabelled one is still waiting at as_of.
        closed = issue.closed_at if issue.closed_at and issue.closed_at <= as_of else None
        end = labelled_at or closed
        business = business_seconds(issue.created_at, end or as_of)
        calendar = ((end or as_of) - issue.created_at).total_seconds()
        if business > sla:
            breached_bd += 1
        elif end is not None:
            within_bd += 1
        else:
            pending_bd += 1
        if calendar > month:
            breached_month += 1
        elif end is not None:
            within_month += 1
        _first_response(issue, as_of, response_hours)
    decided_bd = within_bd + breached_bd
    decided_month = within_month + breached_month
    rate_bd = within_bd / decided_bd if decided_bd else 1.0
    rate_month = within_month / decided_month if decided_month else 1.0
    return SepTriage(
        status=_status_from_rate(rate_bd),
        reason=None,
        window_days=window,
        issues_considered=considered,
        bot_issues_excluded=bots,
        labelled=labelled,
        self_or_bot_labels_ignored=ignored_total,
        within_2_business_days=within_bd,
        breached_2_business_days=breached_bd,
        pending_2_business_days=pending_bd,
        rate_2_business_days=_round(rate_bd, 4),
        within_1_month=within_month,
        breached_1_month=breached_month,
        rate_1_month=_round(rate_month, 4),
        median_business_hours=_round(_median(label_hours)),
        p95_business_hours=_round(_percentile(label_hours, 0.95)),
        first_response_median_hours=(_round(_median(response_hours)) if response_hours else None),
        first_response_count=len(response_hours),
    )


def _first_response(issue: Issue, as_of: datetime, sink: list[float]) -> None:
    """Record the calendar hours to the first non-author, non-bot comment (CHAOSS definition)."""
    assert issue.timeline is not None
    at = issue.timeline.first_response_at
    if at is not None and at <= as_of:
        sink.append((at - issue.created_at).total_seconds() / HOUR)


def triage_signal(snapshot: Snapshot, as_of: datetime, config: SignalConfig) -> TriageSignal:
    """Issue triage, officially and per SEP-1730.

    Official (`tier-check` triage.ts): over *open* issues (created in the last `config.days`
    days if set), the share that carries any label now; pass ≥ 0.9, partial ≥ 0.8.
    `exceeding_sla` counts unlabelled issues older than 48 calendar hours, and median/p95 are the
    ages of the unlabelled ones. SEP-1730: see `SepTriage`.
    """
    group = snapshot.issues
    if isinstance(group, Unavailable):
        return TriageSignal(
            status="inconclusive",
            reason=group.reason,
            compliance_rate=0.0,
            total_issues=0,
            triaged_within_sla=0,
            exceeding_sla=0,
            median_hours=0.0,
            p95_hours=0.0,
            days_analyzed=config.days,
            sep1730=_inconclusive_sep_triage(group.reason, config.sep_window_days),
        )
    since = as_of - timedelta(days=config.days) if config.days is not None else None
    open_issues = [
        issue
        for issue in group.issues
        if _open_at(issue, as_of) and (since is None or issue.created_at >= since)
    ]
    labelled = [issue for issue in open_issues if issue.labels]
    unlabelled_ages = [
        (as_of - issue.created_at).total_seconds() / HOUR
        for issue in open_issues
        if not issue.labels
    ]
    total = len(open_issues)
    rate = len(labelled) / total if total else 1.0
    return TriageSignal(
        status=_status_from_rate(rate),
        reason=None,
        compliance_rate=_round(rate, 4),
        total_issues=total,
        triaged_within_sla=len(labelled),
        exceeding_sla=sum(1 for age in unlabelled_ages if age > OFFICIAL_TRIAGE_SLA_HOURS),
        median_hours=_round(_median(unlabelled_ages)),
        p95_hours=_round(_percentile(unlabelled_ages, 0.95)),
        days_analyzed=config.days,
        sep1730=_sep_triage(group, as_of, config),
    )


def _open_at(issue: Issue, as_of: datetime) -> bool:
    """Whether the issue existed and was open at `as_of` (a snapshot may postdate as_of)."""
    if issue.created_at > as_of:
        return False
    return issue.closed_at is None or issue.closed_at > as_of


# --- P0 resolution -------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenP0:
    """An open P0: its number, title and age in whole days at as_of."""

    number: int
    title: str
    age_days: int

    def to_dict(self) -> dict[str, Any]:
        """Official `open_p0_details` entry."""
        return {"number": self.number, "title": self.title, "age_days": self.age_days}


@dataclass(frozen=True)
class SepP0:
    """SEP-1730 P0 resolution: P0 label applied → closed, over a window, bots and all.

    An episode that started in the window (or is still open) counts. A P0 label removed before
    the issue closed is a downgrade, not a resolution, and is reported apart. An open P0 younger
    than the limit is not (yet) a breach.
    """

    status: Status
    reason: str | None
    window_days: int
    episodes: int
    open_p0s: int
    open_p0_details: tuple[OpenP0, ...]
    resolved_within_7d: int
    resolved_within_14d: int
    resolved_total: int
    downgraded: int
    closed_not_planned: int
    label_time_unknown: int
    within_7d: bool
    within_14d: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the SEP-1730 P0 reading."""
        return {
            "status": self.status,
            "reason": self.reason,
            "window_days": self.window_days,
            "episodes": self.episodes,
            "open_p0s": self.open_p0s,
            "open_p0_details": [p.to_dict() for p in self.open_p0_details],
            "resolved_within_7d": self.resolved_within_7d,
            "resolved_within_14d": self.resolved_within_14d,
            "resolved_total": self.resolved_total,
            "downgraded": self.downgraded,
            "closed_not_planned": self.closed_not_planned,
            "label_time_unknown": self.label_time_unknown,
            "all_p0s_resolved_within_7d": self.within_7d,
            "all_p0s_resolved_within_14d": self.within_14d,
        }


@dataclass(frozen=True)
class P0Signal:
    """Critical-bug resolution: official created→closed, and SEP-1730's label→closed."""

    status: Status
    reason: str | None
    open_p0s: int
    open_p0_details: tuple[OpenP0, ...]
    closed_within_7d: int
    closed_within_14d: int
    closed_total: int
    all_p0s_resolved_within_7d: bool
    all_p0s_resolved_within_14d: bool
    sep1730: SepP0

    @property
    def disagrees_with_official(self) -> bool:
        """True when the label-clocked reading reaches a different verdict."""
        return self.sep1730.status != self.status

    def to_dict(self) -> dict[str, Any]:
        """Official `P0Result` fields plus `reason`, `sep1730` and the disagreement flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            "open_p0s": self.open_p0s,
            "open_p0_details": [p.to_dict() for p in self.open_p0_details],
            "closed_within_7d": self.closed_within_7d,
            "closed_within_14d": self.closed_within_14d,
            "closed_total": self.closed_total,
            "all_p0s_resolved_within_7d": self.all_p0s_resolved_within_7d,
            "all_p0s_resolved_within_14d": self.all_p0s_resolved_within_14d,
            "sep1730": self.sep1730.to_dict(),
            "disagrees_with_official": self.disagrees_with_official,
        }


def _p0_status(within_7d: bool, within_14d: bool) -> Status:
    if within_7d:
        return "pass"
    if within_14d:
        return "partial"
    return "fail"


def _inconclusive_sep_p0(reason: str, window: int) -> SepP0:
    return SepP0(
        status="inconclusive",
        reason=reason,
        window_days=window,
        episodes=0,
        open_p0s=0,
        open_p0_details=(),
        resolved_within_7d=0,
        resolved_within_14d=0,
        resolved_total=0,
        downgraded=0,
        closed_not_planned=0,
        label_time_unknown=0,
        within_7d=False,
        within_14d=False,
    )


def _p0_label_times(
    issue: Issue, as_of: datetime, aliases: Mapping[str, str]
) -> tuple[datetime | None, datetime | None, bool]:
    """When the P0 label was first applied and then first removed; True if applied is a guess."""
    assert issue.timeline is not None
    applied: datetime | None = None
    removed: datetime | None = None
    for event in issue.timeline.label_events:
        if event.at > as_of or _canonical(event.label, aliases) != "p0":
            continue
        if event.action == "labeled" and applied is None:
            applied = event.at
        elif event.action == "unlabeled" and applied is not None and removed is None:
            removed = event.at
    if applied is None and any(_canonical(label, aliases) == "p0" for label in issue.labels):
        # The label is there but its event is not (timeline cut short, or a label renamed into
        # P0): fall back to creation, the official clock, and count it as a guess.
        return issue.created_at, None, True
    return applied, removed, False


def _sep_p0(facts: IssueFacts, as_of: datetime, config: SignalConfig) -> SepP0:
    window = config.p0_window_days
    if facts.timeline_reason is not None:
        return _inconclusive_sep_p0(facts.timeline_reason, window)
    aliases = _alias_map(config)
    since = as_of - timedelta(days=window)
    open_details: list[OpenP0] = []
    resolved_days: list[float] = []
    downgraded = not_planned = unknown = episodes = 0
    breached_open = {7: False, 14: False}
    for issue in facts.issues:
        if issue.created_at > as_of:
            continue
        if issue.timeline is None:
            return _inconclusive_sep_p0(f"issue #{issue.number} has no timeline", window)
        applied, removed, guessed = _p0_label_times(issue, as_of, aliases)
        unknown += guessed
        if applied is None:
            continue
        closed = issue.closed_at if issue.closed_at and issue.closed_at <= as_of else None
        if removed is not None and (closed is None or removed < closed):
            if removed >= since:
                episodes += 1
                downgraded += 1
            continue
        if closed is None:
            episodes += 1
            age = _days(as_of - applied)
            open_details.append(OpenP0(issue.number, issue.title, math.floor(age)))
            breached_open[7] = breached_open[7] or age > 7
            breached_open[14] = breached_open[14] or age > 14
            continue
        if applied < since and closed < since:
            continue
        episodes += 1
        if issue.state_reason in {"not_planned", "duplicate"}:
            not_planned += 1
        resolved_days.append(_days(closed - applied))
    within_7 = sum(1 for d in resolved_days if d <= 7)
    within_14 = sum(1 for d in resolved_days if d <= 14)
    all_7 = not breached_open[7] and within_7 == len(resolved_days)
    all_14 = not breached_open[14] and within_14 == len(resolved_days)
    return SepP0(
        status=_p0_status(all_7, all_14),
        reason=None,
        window_days=window,
        episodes=episodes,
        open_p0s=len(open_details),
        open_p0_details=tuple(open_details),
        resolved_within_7d=within_7,
        resolved_within_14d=within_14,
        resolved_total=len(resolved_days),
        downgraded=downgraded,
        closed_not_planned=not_planned,
        label_time_unknown=unknown,
        within_7d=all_7,
        within_14d=all_14,
    )


def p0_signal(snapshot: Snapshot, as_of: datetime, config: SignalConfig) -> P0Signal:
    """P0 resolution, officially and per SEP-1730.

    Official (`tier-check` p0.ts): every issue labelled ``P0`` now, whole history; days =
    closed − created; "within 7 d" means no open P0 *and* every closed one ≤ 7 d (14 d likewise).
    SEP-1730: see `SepP0`.
    """
    group = snapshot.issues
    if isinstance(group, Unavailable):
        return P0Signal(
            status="inconclusive",
            reason=group.reason,
            open_p0s=0,
            open_p0_details=(),
            closed_within_7d=0,
            closed_within_14d=0,
            closed_total=0,
            all_p0s_resolved_within_7d=False,
            all_p0s_resolved_within_14d=False,
            sep1730=_inconclusive_sep_p0(group.reason, config.p0_window_days),
        )
    p0s = [
        issue
        for issue in group.issues
        if issue.created_at <= as_of and any(label.lower() == "p0" for label in issue.labels)
    ]
    open_details = tuple(
        OpenP0(issue.number, issue.title, math.floor(_days(as_of - issue.created_at)))
        for issue in p0s
        if _open_at(issue, as_of)
    )
    closed_days = [
        _days(issue.closed_at - issue.created_at)
        for issue in p0s
        if issue.closed_at is not None and issue.closed_at <= as_of
    ]
    within_7 = sum(1 for d in closed_days if d <= 7)
    within_14 = sum(1 for d in closed_days if d <= 14)
    all_7 = not open_details and within_7 == len(closed_days)
    all_14 = not open_details and within_14 == len(closed_days)
    return P0Signal(
        status=_p0_status(all_7, all_14),
        reason=None,
        open_p0s=len(open_details),
        open_p0_details=open_details,
        closed_within_7d=within_7,
        closed_within_14d=within_14,
        closed_total=len(closed_days),
        all_p0s_resolved_within_7d=all_7,
        all_p0s_resolved_within_14d=all_14,
        sep1730=_sep_p0(group, as_of, config),
    )


# --- stable release ------------------------------------------------------------------------


@dataclass(frozen=True)
class ParsedVersion:
    """A semantic version found in a release tag."""

    major: int
    minor: int
    patch: int
    prerelease: str | None

    @property
    def text(self) -> str:
        """The version as written (``1.2.3`` or ``1.2.3-rc.1``)."""
        base = f"{self.major}.{self.minor}.{self.patch}"
        return f"{base}-{self.prerelease}" if self.prerelease else base


def parse_release_version(tag: str, tag_prefix: str | None = None) -> ParsedVersion | None:
    """The semantic version in `tag`, or None.

    With a `tag_prefix` only tags starting with it are read (``rmcp-v3.1.4`` with prefix
    ``rmcp-v``); without one the version is the trailing ``X.Y.Z[-pre][+build]`` of the tag, so
    ``v1.2.3``, ``pkg@1.2.3`` and ``server/v1.2.3`` all parse.
    """
    if tag_prefix is not None:
        if not tag.startswith(tag_prefix):
            return None
        match = _TRAILING_SEMVER.fullmatch(tag[len(tag_prefix) :])
    else:
        match = _TRAILING_SEMVER.search(tag)
        if match is not None and match.start() > 0 and tag[match.start() - 1].isdigit():
            match = None  # "12.3.4" inside "v112.3.4" is not a version boundary
    if match is None:
        return None
    return ParsedVersion(
        int(match["major"]), int(match["minor"]), int(match["patch"]), match["pre"] or None
    )


def _js_parse_int(text: str) -> int | None:
    """JavaScript's `parseInt(text, 10)`: leading digits, else NaN (None)."""
    digits = re.match(r"\s*([+-]?\d+)", text)
    return int(digits.group(1)) if digits else None


@dataclass(frozen=True)
class StableRelease:
    """SEP-1730's stable release: the newest release whose version is plain ``X.Y.Z``, X ≥ 1."""

    status: Status
    version: str | None
    tag: str | None
    is_stable: bool
    newest_release: str | None
    newest_is_prerelease: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the SEP-1730 release reading."""
        return {
            "status": self.status,
            "version": self.version,
            "tag": self.tag,
            "is_stable": self.is_stable,
            "newest_release": self.newest_release,
            "newest_is_prerelease": self.newest_is_prerelease,
        }


@dataclass(frozen=True)
class StableReleaseSignal:
    """Stable release: the official first-non-draft rule and SEP-1730's newest stable semver."""

    status: Status
    reason: str | None
    version: str | None
    is_stable: bool
    is_prerelease: bool
    sep1730: StableRelease

    @property
    def disagrees_with_official(self) -> bool:
        """True when the readings disagree on stability."""
        return self.sep1730.is_stable != self.is_stable

    def to_dict(self) -> dict[str, Any]:
        """Official `ReleaseResult` fields plus `reason`, `sep1730` and the disagreement flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            "version": self.version,
            "is_stable": self.is_stable,
            "is_prerelease": self.is_prerelease,
            "sep1730": self.sep1730.to_dict(),
            "disagrees_with_official": self.disagrees_with_official,
        }


def _official_release(releases: tuple[Release, ...]) -> tuple[str | None, bool, bool]:
    """(version, is_stable, is_prerelease) as `tier-check` release.ts decides them."""
    candidate = next((r for r in releases[:20] if not r.draft), None)
    if candidate is None:
        return None, False, False
    version = candidate.tag.removeprefix("v")
    prerelease = candidate.prerelease or bool(_OFFICIAL_PRERELEASE.search(version))
    parts = version.split(".")
    major = _js_parse_int(parts[0])
    stable = not prerelease and len(parts) >= 2 and major is not None and major >= 1
    return version, stable, prerelease


def _sep_release(releases: tuple[Release, ...], tag_prefix: str | None) -> StableRelease:
    published = [r for r in releases if not r.draft]
    parsed = [(r, parse_release_version(r.tag, tag_prefix)) for r in published]
    versioned = [(r, v) for r, v in parsed if v is not None]
    newest = versioned[0] if versioned else None
    stable = [
        (r, v) for r, v in versioned if not r.prerelease and v.prerelease is None and v.major >= 1
    ]

    def key(item: tuple[Release, ParsedVersion]) -> tuple[int, int, int, str]:
        release, version = item
        when = release.published_at or release.created_at
        return (version.major, version.minor, version.patch, when.isoformat())

    best = max(stable, key=key) if stable else None
    return StableRelease(
        status="pass" if best else "fail",
        version=best[1].text if best else None,
        tag=best[0].tag if best else None,
        is_stable=best is not None,
        newest_release=newest[0].tag if newest else None,
        newest_is_prerelease=bool(newest and (newest[0].prerelease or newest[1].prerelease)),
    )


def stable_release_signal(snapshot: Snapshot, config: SignalConfig) -> StableReleaseSignal:
    """Whether the SDK has a stable release.

    Official (`tier-check` release.ts): the first non-draft of the 20 newest releases; a newer
    prerelease therefore hides an older stable one, and prefixed tags parse as unstable.
    SEP-1730 (ours): the highest plain ``X.Y.Z`` (X ≥ 1) among all non-draft releases whose tag
    matches `config.tag_prefix` (or ends in a semver when no prefix is configured).
    """
    group = snapshot.releases
    if isinstance(group, Unavailable):
        return StableReleaseSignal(
            status="inconclusive",
            reason=group.reason,
            version=None,
            is_stable=False,
            is_prerelease=False,
            sep1730=StableRelease("inconclusive", None, None, False, None, False),
        )
    assert isinstance(group, ReleaseFacts)
    version, stable, prerelease = _official_release(group.releases)
    return StableReleaseSignal(
        status="pass" if stable else "fail",
        reason=None,
        version=version,
        is_stable=stable,
        is_prerelease=prerelease,
        sep1730=_sep_release(group.releases, config.tag_prefix),
    )


# --- spec tracking -------------------------------------------------------------------------


@dataclass(frozen=True)
class SepSpecTracking:
    """Our reading: only stable SDK releases (and the configured tag prefix) answer a spec."""

    status: Status
    latest_sdk_release: str | None
    days_gap: int | None
    within_30d: bool
    within_180d: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the SEP-1730 spec-tracking reading."""
        return {
            "status": self.status,
            "latest_sdk_release": self.latest_sdk_release,
            "days_gap": self.days_gap,
            "sdk_release_within_30d": self.within_30d,
            "sdk_release_within_180d": self.within_180d,
        }


@dataclass(frozen=True)
class SpecTrackingSignal:
    """Days from the latest spec release to the first SDK release on or after it."""

    status: Status
    reason: str | None
    latest_spec_release: str | None
    latest_sdk_release: str | None
    sdk_release_within_30d: bool
    days_gap: int | None
    sep1730: SepSpecTracking

    @property
    def disagrees_with_official(self) -> bool:
        """True when counting only stable releases changes the verdict."""
        return self.sep1730.status != self.status

    def to_dict(self) -> dict[str, Any]:
        """Official `SpecTrackingResult` fields plus `reason`, `sep1730` and the flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            "latest_spec_release": self.latest_spec_release,
            "latest_sdk_release": self.latest_sdk_release,
            "sdk_release_within_30d": self.sdk_release_within_30d,
            "days_gap": self.days_gap,
            "sep1730": self.sep1730.to_dict(),
            "disagrees_with_official": self.disagrees_with_official,
        }


def _released(release: Release) -> datetime:
    return release.published_at or release.created_at


def _gap(
    spec: Release, candidates: Iterable[Release], as_of: datetime
) -> tuple[Release | None, int]:
    spec_at = _released(spec)
    after = sorted((r for r in candidates if spec_at <= _released(r) <= as_of), key=_released)
    first = after[0] if after else None
    end = _released(first) if first else as_of
    return first, math.floor(_days(end - spec_at))


def spec_tracking_signal(
    snapshot: Snapshot, as_of: datetime, config: SignalConfig
) -> SpecTrackingSignal:
    """How quickly the SDK released after the latest spec release.

    Official (`tier-check` spec-tracking.ts): the latest non-draft, non-prerelease of the spec
    repository's 5 newest releases, against the earliest non-draft of the SDK's 50 newest
    published on or after it; without one, the days since the spec. Pass if ≤ 30 days.
    Ours: the same spec release, but only stable SDK releases (and the tag prefix) count, and the
    SEP's Tier 2 window (six months) is reported too.
    """
    unavailable = next(
        (g for g in (snapshot.spec_releases, snapshot.releases) if isinstance(g, Unavailable)),
        None,
    )
    if unavailable is not None:
        return SpecTrackingSignal(
            status="inconclusive",
            reason=unavailable.reason,
            latest_spec_release=None,
            latest_sdk_release=None,
            sdk_release_within_30d=False,
            days_gap=None,
            sep1730=SepSpecTracking("inconclusive", None, None, False, False),
        )
    assert isinstance(snapshot.spec_releases, ReleaseFacts)
    assert isinstance(snapshot.releases, ReleaseFacts)
    spec = next(
        (
            r
            for r in snapshot.spec_releases.releases[:5]
            if not r.draft and not r.prerelease and _released(r) <= as_of
        ),
        None,
    )
    if spec is None:
        return SpecTrackingSignal(
            status="skipped",
            reason="no published spec release",
            latest_spec_release=None,
            latest_sdk_release=None,
            sdk_release_within_30d=False,
            days_gap=None,
            sep1730=SepSpecTracking("skipped", None, None, False, False),
        )
    official_first, official_gap = _gap(
        spec, (r for r in snapshot.releases.releases[:50] if not r.draft), as_of
    )
    official_ok = official_gap <= SPEC_TRACKING_DAYS

    def stable(release: Release) -> bool:
        version = parse_release_version(release.tag, config.tag_prefix)
        return (
            not release.draft
            and not release.prerelease
            and version is not None
            and version.prerelease is None
        )

    sep_first, sep_gap = _gap(spec, filter(stable, snapshot.releases.releases), as_of)
    sep_ok = sep_gap <= SPEC_TRACKING_DAYS
    return SpecTrackingSignal(
        status="pass" if official_ok else "fail",
        reason=None,
        latest_spec_release=spec.tag,
        latest_sdk_release=official_first.tag if official_first else None,
        sdk_release_within_30d=official_ok,
        days_gap=official_gap,
        sep1730=SepSpecTracking(
            status="pass" if sep_ok else "fail",
            latest_sdk_release=sep_first.tag if sep_first else None,
            days_gap=sep_gap,
            within_30d=sep_ok,
            within_180d=sep_gap <= SEP_TIER2_SPEC_DAYS,
        ),
    )


# --- policy files --------------------------------------------------------------------------

#: The 13 paths `tier-check` files.ts requests, exactly (case-sensitive, root-relative).
OFFICIAL_POLICY_PATHS = (
    "CHANGELOG.md",
    "SECURITY.md",
    "CONTRIBUTING.md",
    "DEPENDENCY_POLICY.md",
    "docs/dependency-policy.md",
    ".github/dependabot.yml",
    ".github/renovate.json",
    "renovate.json",
    "ROADMAP.md",
    "docs/roadmap.md",
    "VERSIONING.md",
    "docs/versioning.md",
    "BREAKING_CHANGES.md",
)

#: Our categories: file stems (lower case, `-` and `_` equivalent) that satisfy each.
POLICY_CATEGORIES: Mapping[str, tuple[str, ...]] = {
    "changelog": ("changelog", "changes", "history", "news", "releases"),
    "security": ("security",),
    "contributing": ("contributing",),
    "dependency_policy": (
        "dependency_policy",
        "dependencies",
        "dependabot",
        "renovate",
        ".renovaterc",
        "renovaterc",
    ),
    "roadmap": ("roadmap",),
    "versioning": ("versioning", "breaking_changes", "versioning_policy", "release_policy"),
}
_POLICY_DIRS = ("", ".github/", "docs/")


@dataclass(frozen=True)
class PolicySignal:
    """Policy documents: the official 13 exact paths, and our case-insensitive search."""

    status: Status
    reason: str | None
    files: Mapping[str, bool]
    categories: Mapping[str, tuple[str, ...]]
    sep_status: Status

    @property
    def disagrees_with_official(self) -> bool:
        """True when the wider search finds a different picture."""
        return self.sep_status != self.status

    def to_dict(self) -> dict[str, Any]:
        """Official `PolicySignalsResult` (`files`) plus `reason`, `sep1730` and the flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            "files": dict(self.files),
            "sep1730": {
                "status": self.sep_status,
                "categories": {name: list(paths) for name, paths in self.categories.items()},
            },
            "disagrees_with_official": self.disagrees_with_official,
        }


def _category_status(found: int, total: int) -> Status:
    if found == total:
        return "pass"
    return "partial" if found else "fail"


def _stem(name: str) -> str:
    """The name before its first extension, lower case, `-` read as `_`.

    ``Dependency-Policy.MD`` → ``dependency_policy``; ``.renovaterc.json`` → ``.renovaterc``.
    """
    lowered = name.lower().replace("-", "_")
    if lowered.startswith("."):
        return "." + lowered[1:].partition(".")[0]
    return lowered.partition(".")[0]


def policy_signal(snapshot: Snapshot) -> PolicySignal:
    """Which policy documents exist (informational in both readings; never a tier blocker).

    Official: the 13 exact paths of `tier-check` files.ts. Ours: CHANGELOG, SECURITY,
    CONTRIBUTING, a dependency policy (or a Dependabot/Renovate config), a roadmap and a
    versioning policy, case-insensitive, any extension, at the root, in `.github/` or `docs/`.
    """
    group = snapshot.policy_files
    if isinstance(group, Unavailable):
        return PolicySignal(
            status="inconclusive",
            reason=group.reason,
            files=dict.fromkeys(OFFICIAL_POLICY_PATHS, False),
            categories=dict.fromkeys(POLICY_CATEGORIES, ()),
            sep_status="inconclusive",
        )
    assert isinstance(group, PolicyFileFacts)
    paths = set(group.paths)
    files = {path: path in paths for path in OFFICIAL_POLICY_PATHS}
    official_categories = {
        "changelog": files["CHANGELOG.md"],
        "security": files["SECURITY.md"],
        "contributing": files["CONTRIBUTING.md"],
        "dependency_policy": any(
            files[p]
            for p in (
                "DEPENDENCY_POLICY.md",
                "docs/dependency-policy.md",
                ".github/dependabot.yml",
                ".github/renovate.json",
                "renovate.json",
            )
        ),
        "roadmap": files["ROADMAP.md"] or files["docs/roadmap.md"],
        "versioning": any(
            files[p] for p in ("VERSIONING.md", "docs/versioning.md", "BREAKING_CHANGES.md")
        ),
    }
    categories: dict[str, tuple[str, ...]] = {}
    for name, stems in POLICY_CATEGORIES.items():
        matches = []
        for path in sorted(group.paths):
            directory, _, base = path.rpartition("/")
            prefix = f"{directory}/" if directory else ""
            if prefix.lower() in _POLICY_DIRS and _stem(base) in stems:
                matches.append(path)
        categories[name] = tuple(matches)
    return PolicySignal(
        status=_category_status(sum(official_categories.values()), len(official_categories)),
        reason=None,
        files=files,
        categories=categories,
        sep_status=_category_status(sum(1 for m in categories.values() if m), len(categories)),
    )


# --- all six -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GovernanceSignals:
    """The six governance signals of one snapshot at one `as_of`."""

    repo: str
    as_of: datetime
    captured_at: datetime
    labels: LabelsSignal
    triage: TriageSignal
    p0_resolution: P0Signal
    stable_release: StableReleaseSignal
    policy_signals: PolicySignal
    spec_tracking: SpecTrackingSignal

    def to_dict(self) -> dict[str, Any]:
        """Keys as in the official scorecard's `checks` (plus `as_of` and `captured_at`)."""
        return {
            "repo": self.repo,
            "as_of": self.as_of.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "captured_at": self.captured_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "labels": self.labels.to_dict(),
            "triage": self.triage.to_dict(),
            "p0_resolution": self.p0_resolution.to_dict(),
            "stable_release": self.stable_release.to_dict(),
            "policy_signals": self.policy_signals.to_dict(),
            "spec_tracking": self.spec_tracking.to_dict(),
        }


def compute_signals(
    snapshot: Snapshot, as_of: datetime, config: SignalConfig | None = None
) -> GovernanceSignals:
    """All six signals for `snapshot` judged at `as_of` (an aware datetime)."""
    if as_of.tzinfo is None:
        msg = "as_of must be timezone-aware"
        raise ValueError(msg)
    config = config or SignalConfig()
    return GovernanceSignals(
        repo=snapshot.repo,
        as_of=as_of,
        captured_at=snapshot.captured_at,
        labels=labels_signal(snapshot, config),
        triage=triage_signal(snapshot, as_of, config),
        p0_resolution=p0_signal(snapshot, as_of, config),
        stable_release=stable_release_signal(snapshot, config),
        policy_signals=policy_signal(snapshot),
        spec_tracking=spec_tracking_signal(snapshot, as_of, config),
    )
