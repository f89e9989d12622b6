"""The triage check: officially, open issues labelled now; per SEP-1730, time to first label."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tiercheck.governance.signals.base import (
    DAY,
    HOUR,
    CheckInfo,
    Signal,
    SignalConfig,
    Status,
    business_seconds,
    field_values,
    js_round_tenths,
    median,
    millis,
    open_at,
    percentile,
    round_to,
)
from tiercheck.governance.snapshot import Issue, IssueFacts, Snapshot, Unavailable

__all__ = [
    "CHECK",
    "OFFICIAL_TRIAGE_SLA_HOURS",
    "SEP_TIER1_TRIAGE_BUSINESS_DAYS",
    "SEP_TIER2_TRIAGE_DAYS",
    "TRIAGE_PARTIAL",
    "TRIAGE_PASS",
    "SepTriage",
    "TriageSignal",
    "triage_signal",
]

CHECK = CheckInfo(
    name="triage",
    rank=6,
    remediation="Label the unlabelled open issues, and label new ones within 2 business days",
    departures=(
        "The text says when an issue is triaged (its first label) but not which issues count: we "
        "judge issues opened in the last 90 days, open or closed, leave bot-opened issues out "
        "and do not count a label applied by the issue's author or a bot. Business days are "
        "Monday to Friday, UTC; public holidays count as business days."
    ),
)

#: Official thresholds (tier-check triage.ts).
TRIAGE_PASS = 0.9
TRIAGE_PARTIAL = 0.8
OFFICIAL_TRIAGE_SLA_HOURS = 48.0
#: SEP-1730: Tier 1 triages within 2 business days, Tier 2 within a month.
SEP_TIER1_TRIAGE_BUSINESS_DAYS = 2
SEP_TIER2_TRIAGE_DAYS = 30


def _status_from_rate(rate: float) -> Status:
    if rate >= TRIAGE_PASS:
        return "pass"
    if rate >= TRIAGE_PARTIAL:
        return "partial"
    return "fail"


@dataclass(frozen=True)
class SepTriage:
    """SEP-1730 triage: creation → first label by someone other than the author and not a bot.

    Business time (Mon–Fri) for the 2-business-day Tier 1 SLA, calendar time for Tier 2's month.
    Issues still unlabelled but younger than the SLA are `pending` and not counted either way;
    an issue closed without ever being labelled was never triaged, so it counts as unlabelled.
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
        return {**field_values(self), "tier1_met": self.tier1_met, "tier2_met": self.tier2_met}


@dataclass(frozen=True)
class TriageSignal(Signal):
    """Issue triage: the official "open issues labelled now" rate, and SEP-1730's time to label."""

    info = CHECK

    compliance_rate: float
    total_issues: int
    triaged_within_sla: int
    exceeding_sla: int
    median_hours: float
    p95_hours: float
    days_analyzed: int | None
    sep1730: SepTriage

    def _verdicts(self) -> tuple[object, object]:
        return self.status, self.sep1730.status


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


@dataclass
class _TriageTally:
    """What SEP-1730's triage reading counts over the issues opened in its window."""

    considered: int = 0
    bots: int = 0
    labelled: int = 0
    ignored: int = 0
    within_bd: int = 0
    breached_bd: int = 0
    pending_bd: int = 0
    within_month: int = 0
    breached_month: int = 0
    label_hours: list[float] = field(default_factory=list)
    response_hours: list[float] = field(default_factory=list)

    def count(self, issue: Issue, as_of: datetime) -> None:
        """Count one issue a human opened (its timeline known) as it stood at `as_of`."""
        self.considered += 1
        labelled_at, ignored = _triage_label_time(issue)
        self.ignored += ignored
        if labelled_at is not None and labelled_at > as_of:
            labelled_at = None  # labelled after as_of: as of then, it was not labelled yet
        if labelled_at is not None:
            self.labelled += 1
            self.label_hours.append(business_seconds(issue.created_at, labelled_at) / HOUR)
        self._count_slas(issue.created_at, labelled_at, as_of)
        _first_response(issue, as_of, self.response_hours)

    def _count_slas(self, created: datetime, labelled_at: datetime | None, as_of: datetime) -> None:
        """Count an issue within, beyond or (business days only) not yet past each SLA.

        SEP-1730: "an issue is considered triaged when it receives its first label". Closing
        an issue without ever labelling it is not triage: it stays untriaged, and breaches the
        SLA once the SLA has passed (until then it is pending).
        """
        end = labelled_at or as_of
        business = business_seconds(created, end)
        calendar = (end - created).total_seconds()
        if business > SEP_TIER1_TRIAGE_BUSINESS_DAYS * DAY:
            self.breached_bd += 1
        elif labelled_at is not None:
            self.within_bd += 1
        else:
            self.pending_bd += 1
        if calendar > SEP_TIER2_TRIAGE_DAYS * DAY:
            self.breached_month += 1
        elif labelled_at is not None:
            self.within_month += 1

    def reading(self, window: int) -> SepTriage:
        """The SEP-1730 triage reading these counts make (a rate with nothing decided is 1)."""
        decided_bd = self.within_bd + self.breached_bd
        decided_month = self.within_month + self.breached_month
        rate_bd = self.within_bd / decided_bd if decided_bd else 1.0
        rate_month = self.within_month / decided_month if decided_month else 1.0
        responses = self.response_hours
        return SepTriage(
            status=_status_from_rate(rate_bd),
            reason=None,
            window_days=window,
            issues_considered=self.considered,
            bot_issues_excluded=self.bots,
            labelled=self.labelled,
            self_or_bot_labels_ignored=self.ignored,
            within_2_business_days=self.within_bd,
            breached_2_business_days=self.breached_bd,
            pending_2_business_days=self.pending_bd,
            rate_2_business_days=round_to(rate_bd, 4),
            within_1_month=self.within_month,
            breached_1_month=self.breached_month,
            rate_1_month=round_to(rate_month, 4),
            median_business_hours=round_to(median(self.label_hours)),
            p95_business_hours=round_to(percentile(self.label_hours, 0.95)),
            first_response_median_hours=round_to(median(responses)) if responses else None,
            first_response_count=len(responses),
        )


def _sep_triage(facts: IssueFacts, as_of: datetime, config: SignalConfig) -> SepTriage:
    """SEP-1730's triage reading of the issues opened in its window up to `as_of`: bot-opened
    ones left out; inconclusive when a timeline is missing."""
    window = config.sep_window_days
    if facts.timeline_reason is not None:
        return _inconclusive_sep_triage(facts.timeline_reason, window)
    since = as_of - timedelta(days=window)
    tally = _TriageTally()
    for issue in facts.issues:
        if not since <= issue.created_at <= as_of:
            continue
        if issue.author.is_bot:
            tally.bots += 1
            continue
        if issue.timeline is None:
            return _inconclusive_sep_triage(f"issue #{issue.number} has no timeline", window)
        tally.count(issue, as_of)
    return tally.reading(window)


def _first_response(issue: Issue, as_of: datetime, sink: list[float]) -> None:
    """Record the calendar hours to the first non-author, non-bot comment (CHAOSS definition)."""
    assert issue.timeline is not None
    at = issue.timeline.first_response_at
    if at is not None and at <= as_of:
        sink.append((at - issue.created_at).total_seconds() / HOUR)


def triage_signal(snapshot: Snapshot, as_of: datetime, config: SignalConfig) -> TriageSignal:
    """Issue triage, officially and per SEP-1730.

    Official (`tier-check` triage.ts of the pinned bundle): over *open* issues (created in the
    last `config.days` days if set), the share that carries any label now, unrounded; pass
    ≥ 0.9, partial ≥ 0.8. `exceeding_sla` counts unlabelled issues older than 48 calendar hours;
    median/p95 are the ages of the unlabelled ones at sorted index ⌊n/2⌋ and ⌊0.95·n⌋, in hours
    rounded to one decimal (`Math.round`). SEP-1730: see `SepTriage`.
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
        if open_at(issue, as_of) and (since is None or issue.created_at >= since)
    ]
    labelled = [issue for issue in open_issues if issue.labels]
    # Ages as the official code computes them: whole milliseconds to hours, sorted, then the
    # element at floor(n/2) and floor(0.95·n) (not an interpolated median), to one decimal.
    now = millis(as_of)
    ages = sorted(
        (now - millis(issue.created_at)) / 3_600_000 for issue in open_issues if not issue.labels
    )
    total = len(open_issues)
    rate = len(labelled) / total if total else 1.0
    return TriageSignal(
        status=_status_from_rate(rate),
        reason=None,
        # Unrounded, as the official JSON has it: the tier compares it with 0.9, and 0.89995
        # rounded to 0.9 would hide a real Tier 1 blocker.
        compliance_rate=rate,
        total_issues=total,
        triaged_within_sla=len(labelled),
        exceeding_sla=sum(1 for age in ages if age > OFFICIAL_TRIAGE_SLA_HOURS),
        median_hours=js_round_tenths(ages[len(ages) // 2]) if ages else 0.0,
        p95_hours=js_round_tenths(ages[math.floor(len(ages) * 0.95)]) if ages else 0.0,
        days_analyzed=config.days,
        sep1730=_sep_triage(group, as_of, config),
    )
