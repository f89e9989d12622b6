"""The per-item evidence behind the governance rows, from the recorded governance snapshot.

The scorecard keeps each signal's numbers; a reviewer of a claim wants the items behind them:
which issues waited longest for a first label, every P0 with its label-to-close time, the
release that counts and the spec release it tracked, each with a link. These are pure functions
of the snapshot the assessment judged (the one it recorded or replayed) at the scorecard's
`as_of`, so they describe exactly what the verdicts were computed from.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tiercheck.governance.snapshot import Issue, Release, Snapshot, Unavailable

__all__ = [
    "Evidence",
    "P0Item",
    "ReleaseItem",
    "TriageItem",
    "gather_evidence",
    "issue_url",
    "release_url",
]

SPEC_REPO = "modelcontextprotocol/modelcontextprotocol"
#: Issues listed as the slowest triaged: enough to see a pattern.
SLOWEST = 5


def issue_url(repo: str, number: int) -> str:
    """The GitHub page of an issue."""
    return f"https://github.com/{repo}/issues/{number}"


def release_url(repo: str, tag: str) -> str:
    """The GitHub page of a release."""
    return f"https://github.com/{repo}/releases/tag/{tag}"


@dataclass(frozen=True)
class TriageItem:
    """One issue of the triage window: hours from creation to first label (None: still none)."""

    number: int
    title: str
    url: str
    created_at: datetime
    hours_to_label: float | None
    waiting_hours: float

    @property
    def labelled(self) -> bool:
        """Whether the issue had a label at as_of."""
        return self.hours_to_label is not None


@dataclass(frozen=True)
class P0Item:
    """One P0: when the label was applied, when the issue closed, and the days between."""

    number: int
    title: str
    url: str
    labelled_at: datetime | None
    closed_at: datetime | None
    days_label_to_close: float | None
    days_created_to_close: float | None
    open: bool


@dataclass(frozen=True)
class ReleaseItem:
    """A release that counts for a row, with its page."""

    tag: str
    url: str
    published_at: datetime | None
    prerelease: bool


@dataclass(frozen=True)
class Evidence:
    """Everything a claim lists under the governance rows."""

    repo: str
    as_of: datetime
    window_days: int
    triage_issues: int
    slowest: tuple[TriageItem, ...]
    p0s: tuple[P0Item, ...]
    releases: tuple[ReleaseItem, ...]
    spec_releases: tuple[ReleaseItem, ...]
    unavailable: tuple[str, ...]


def _hours(delta: timedelta) -> float:
    return round(delta.total_seconds() / 3600.0, 1)


def _days(delta: timedelta) -> float:
    return round(delta.total_seconds() / 86400.0, 1)


def _first_label(issue: Issue, as_of: datetime) -> datetime | None:
    if issue.timeline is not None:
        times = [e.at for e in issue.timeline.label_events if e.action == "labeled"]
        times = [t for t in times if t <= as_of]
        if times:
            return min(times)
        return None
    # Without a timeline only the labels as captured are known: labelled, time unknown.
    return None


def _triage(issues: tuple[Issue, ...], repo: str, as_of: datetime, days: int) -> list[TriageItem]:
    since = as_of - timedelta(days=days)
    items = []
    for issue in issues:
        if not since <= issue.created_at <= as_of:
            continue
        first = _first_label(issue, as_of)
        if first is None and issue.labels and issue.timeline is None:
            continue  # labelled at an unknown time: nothing to rank
        end = first or (issue.closed_at if issue.closed_at and issue.closed_at <= as_of else as_of)
        items.append(
            TriageItem(
                number=issue.number,
                title=issue.title,
                url=issue_url(repo, issue.number),
                created_at=issue.created_at,
                hours_to_label=_hours(first - issue.created_at) if first else None,
                waiting_hours=_hours(end - issue.created_at),
            )
        )
    return items


def _p0_label_time(issue: Issue) -> datetime | None:
    if issue.timeline is None:
        return None
    times = [
        e.at
        for e in issue.timeline.label_events
        if e.action == "labeled" and e.label.lower() == "p0"
    ]
    return min(times) if times else None


def _is_p0(issue: Issue) -> bool:
    if any(label.lower() == "p0" for label in issue.labels):
        return True
    return issue.timeline is not None and any(
        e.label.lower() == "p0" for e in issue.timeline.label_events
    )


def _p0s(issues: tuple[Issue, ...], repo: str, as_of: datetime) -> list[P0Item]:
    items = []
    for issue in issues:
        if not _is_p0(issue) or issue.created_at > as_of:
            continue
        labelled = _p0_label_time(issue)
        closed = issue.closed_at if issue.closed_at and issue.closed_at <= as_of else None
        items.append(
            P0Item(
                number=issue.number,
                title=issue.title,
                url=issue_url(repo, issue.number),
                labelled_at=labelled,
                closed_at=closed,
                days_label_to_close=_days(closed - labelled) if closed and labelled else None,
                days_created_to_close=_days(closed - issue.created_at) if closed else None,
                open=closed is None,
            )
        )
    return sorted(items, key=lambda p: p.number)


def _releases(releases: tuple[Release, ...], repo: str, as_of: datetime) -> tuple[ReleaseItem, ...]:
    return tuple(
        ReleaseItem(r.tag, release_url(repo, r.tag), r.published_at, r.prerelease)
        for r in releases
        if not r.draft and (r.published_at or r.created_at) <= as_of
    )


def gather_evidence(snapshot: Snapshot, as_of: datetime, window_days: int) -> Evidence:
    """The items behind the triage, P0, release and spec-tracking rows, at `as_of`."""
    repo = snapshot.repo
    unavailable: list[str] = []
    triage: list[TriageItem] = []
    p0s: list[P0Item] = []
    if isinstance(snapshot.issues, Unavailable):
        unavailable.append(f"issues: {snapshot.issues.reason}")
    else:
        triage = _triage(snapshot.issues.issues, repo, as_of, window_days)
        p0s = _p0s(snapshot.issues.issues, repo, as_of)
    releases: tuple[ReleaseItem, ...] = ()
    if isinstance(snapshot.releases, Unavailable):
        unavailable.append(f"releases: {snapshot.releases.reason}")
    else:
        releases = _releases(snapshot.releases.releases, repo, as_of)
    specs: tuple[ReleaseItem, ...] = ()
    if isinstance(snapshot.spec_releases, Unavailable):
        unavailable.append(f"spec releases: {snapshot.spec_releases.reason}")
    else:
        specs = _releases(snapshot.spec_releases.releases, SPEC_REPO, as_of)
    slowest = sorted(
        triage,
        key=lambda t: (t.labelled, -(t.hours_to_label or t.waiting_hours), t.number),
    )[:SLOWEST]
    return Evidence(
        repo=repo,
        as_of=as_of,
        window_days=window_days,
        triage_issues=len(triage),
        slowest=tuple(slowest),
        p0s=tuple(p0s),
        releases=releases,
        spec_releases=specs,
        unavailable=tuple(unavailable),
    )
