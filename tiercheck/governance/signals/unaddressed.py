"""Issues unaddressed for two months: a relegation rule of SEP-1730 no official check reads.

docs/community/sdk-tiers.mdx, Tier Relegation: "An SDK may also be relegated if issues remain
unaddressed for two months." SEP-1730 (seps/1730-sdks-tiering-system.md, Tier Relegation
Process): "Issues are not addressed within two months".

The rules do not define "addressed"; they define triage ("Issue Triage means labeling and
determining whether an issue is valid, not resolving the issue", measured as "time from issue
creation to first label"). Our reading, in the rules' own terms: an issue is addressed once
someone other than its author, and not a bot, has labelled it (triage, as the triage check
reads it) or answered it (the first comment by someone other than the author and not a bot,
as the triage check's first response); a closed issue no longer remains. An issue still open
at `as_of`, opened by a person, neither labelled nor answered so, and opened at least
`UNADDRESSED_DAYS` before `as_of` has remained unaddressed for two months.

It is a relegation signal: it blocks no tier, official or SEP-1730, and the official
`implied_tier` never reads it. Pure over (snapshot, as_of).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tiercheck.governance.signals.base import CheckInfo, Status, open_at
from tiercheck.governance.snapshot import Issue, Snapshot, Unavailable, format_time

__all__ = [
    "CHECK",
    "UNADDRESSED_DAYS",
    "UnaddressedIssue",
    "UnaddressedSignal",
    "unaddressed_signal",
]

CHECK = CheckInfo(
    name="unaddressed_issues",
    rank=7,
    remediation="Label or answer the open issues nobody has addressed for two months",
    departures=(
        "The text does not define 'unaddressed': an issue is addressed once someone other "
        "than its author, and not a bot, labels it (triage, as the rules measure it: the "
        "first label) or comments on it; closing it also ends it. Two months are 60 days "
        "(a month is 30 days, as in the triage reading). Issues opened by bots are left out."
    ),
)

#: Two months of 30 days: the triage reading's "within a month" is 30 days.
UNADDRESSED_DAYS = 60
#: How many unaddressed issues the JSON lists (the oldest first); the count is exact.
LISTED = 20


@dataclass(frozen=True)
class UnaddressedIssue:
    """One open issue nobody has addressed: number, title (untrusted) and age in whole days."""

    number: int
    title: str
    created_at: datetime
    age_days: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "number": self.number,
            "title": self.title,
            "created_at": format_time(self.created_at),
            "age_days": self.age_days,
        }


@dataclass(frozen=True)
class UnaddressedSignal:
    """Open issues unaddressed for two months at `as_of` (SEP-1730's reading; no official one).

    `status`: pass when there are none, fail when there are some (relegation may apply),
    inconclusive when the issues or their timelines could not be collected.
    """

    info = CHECK

    status: Status
    reason: str | None
    days: int
    open_issues: int
    addressed: int
    unaddressed_total: int
    unaddressed: tuple[UnaddressedIssue, ...]
    oldest_age_days: int | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: SEP-1730's reading, and `official: null` (no official check)."""
        return {
            "status": self.status,
            "reason": self.reason,
            "official": None,
            "sep1730": {
                "status": self.status,
                "days": self.days,
                "open_issues": self.open_issues,
                "addressed": self.addressed,
                "unaddressed_total": self.unaddressed_total,
                "unaddressed": [item.to_dict() for item in self.unaddressed],
                "oldest_age_days": self.oldest_age_days,
                "departures": CHECK.departures,
            },
            "disagrees_with_official": False,
        }


def _inconclusive(reason: str) -> UnaddressedSignal:
    return UnaddressedSignal("inconclusive", reason, UNADDRESSED_DAYS, 0, 0, 0, (), None)


def addressed_by(issue: Issue, as_of: datetime) -> bool:
    """Whether someone other than the author, and not a bot, labelled or answered the issue by
    `as_of` (its timeline must be known)."""
    assert issue.timeline is not None
    for event in issue.timeline.label_events:
        if event.action != "labeled" or event.at > as_of:
            continue
        if not event.by_bot and event.actor != issue.author.login:
            return True
    answered = issue.timeline.first_response_at
    return answered is not None and answered <= as_of


def unaddressed_signal(snapshot: Snapshot, as_of: datetime) -> UnaddressedSignal:
    """Open issues at `as_of`, opened by a person at least two months earlier, that nobody
    other than their author (and no bot) has labelled or answered by then."""
    group = snapshot.issues
    if isinstance(group, Unavailable):
        return _inconclusive(group.reason)
    if group.timeline_reason is not None:
        return _inconclusive(group.timeline_reason)
    limit = as_of - timedelta(days=UNADDRESSED_DAYS)
    considered = addressed = 0
    late: list[UnaddressedIssue] = []
    for issue in group.issues:
        if not open_at(issue, as_of) or issue.author.is_bot:
            continue
        if issue.timeline is None:
            return _inconclusive(f"issue #{issue.number} has no timeline")
        considered += 1
        if addressed_by(issue, as_of):
            addressed += 1
        elif issue.created_at <= limit:
            age = (as_of - issue.created_at) // timedelta(days=1)
            late.append(UnaddressedIssue(issue.number, issue.title, issue.created_at, age))
    late.sort(key=lambda item: (item.created_at, item.number))
    return UnaddressedSignal(
        status="fail" if late else "pass",
        reason=None,
        days=UNADDRESSED_DAYS,
        open_issues=considered,
        addressed=addressed,
        unaddressed_total=len(late),
        unaddressed=tuple(late[:LISTED]),
        oldest_age_days=late[0].age_days if late else None,
    )
