"""The release-date rule for new protocol features, in one place for the scorecard and the claim.

SEP-1730's tier table (docs/community/sdk-tiers.mdx, "New Protocol Features"): Tier 1 "before
new spec version release, timeline agreed per release based on feature complexity"; Tier 2
"within 6 months". Reviewers apply Tier 1's rule as: a stable release supporting the revision
published by the revision's release date, else Tier 2 by default (modelcontextprotocol#3247,
the Ruby review). The official spec-tracking check measures something else, a 30-day gap the
rules never state, and its Tier 2 rule never reads it (conformance#402).

`judge_release_by_date` judges one revision against the release offered as supporting it: the
claim offers the release the assessed commit carries; the scorecard offers the newest stable
release out by the revision's release date (the spec-tracking signal, which sees no checkout),
and, when the commit assessed is itself a stable release (`sdk.release`, the very tag the ref
named) published by that date and measured at the revision, that release instead
(`scorecard.build`): only a release measured at the revision can settle the rule. A release's
day is its GitHub release's (`published_days`). Days are whole UTC days. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

from tiercheck.governance.snapshot import Release
from tiercheck.revisions import release_date

__all__ = [
    "SIX_MONTHS_DAYS",
    "CandidateRelease",
    "ReleaseByDate",
    "ReleaseDateStatus",
    "judge_release_by_date",
    "published_days",
    "revision_released",
]

#: Tier 2's "within 6 months", in days (half of 365, rounded up).
SIX_MONTHS_DAYS = 183

ReleaseDateStatus = Literal[
    "by the release date", "after the release date", "no stable release", "not determined"
]


@dataclass(frozen=True)
class CandidateRelease:
    """The release offered as the one supporting a revision.

    `commits_after` is how far the assessed commit is past it: 0 when the assessed commit is
    this release (so it was measured at the revision), None when nothing was measured on it.
    """

    tag: str
    published: date | None
    stable: bool
    commits_after: int | None = None


@dataclass(frozen=True)
class ReleaseByDate:
    """One revision under the release-date rule: the verdict, the dates and why."""

    revision: str
    spec_released: date | None
    spec_source: str
    release: str | None
    release_published: date | None
    commits_after: int | None
    days_after: int | None
    within_six_months: bool | None
    status: ReleaseDateStatus
    note: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form (dates as YYYY-MM-DD)."""
        return {
            "revision": self.revision,
            "spec_released": self.spec_released.isoformat() if self.spec_released else None,
            "spec_source": self.spec_source,
            "release": self.release,
            "release_published": (
                self.release_published.isoformat() if self.release_published else None
            ),
            "commits_after": self.commits_after,
            "days_after": self.days_after,
            "within_six_months": self.within_six_months,
            "status": self.status,
            "note": self.note,
        }


def revision_released(
    revision: str, spec_releases: Iterable[tuple[str, datetime | None]]
) -> tuple[date | None, str]:
    """(the revision's release day, where it came from): its GitHub release if one is listed
    (tag equal to or ending with the revision), else the release day in the revision's data
    (requirements/revisions.yaml)."""
    for tag, published in spec_releases:
        if (tag == revision or tag.endswith(revision)) and published is not None:
            return published.date(), "GitHub release"
    return release_date(revision), "the revision's data"


def published_days(releases: Iterable[Release], as_of: datetime) -> dict[str, date]:
    """Tag → the UTC day each non-draft release came out (published, else created, as the
    spec-tracking check dates them), for the releases out by `as_of`."""
    days: dict[str, date] = {}
    for release in releases:
        out = release.published_at or release.created_at
        if not release.draft and out <= as_of:
            days.setdefault(release.tag, out.astimezone(UTC).date())
    return days


def _plural(days: int) -> str:
    return f"{days} day{'s' if days != 1 else ''}"


def judge_release_by_date(
    revision: str,
    spec_released: date | None,
    spec_source: str,
    release: CandidateRelease | None,
) -> ReleaseByDate:
    """Whether a stable release supporting `revision` was out by its release date."""
    published = release.published if release else None
    days = (published - spec_released).days if published and spec_released else None
    status: ReleaseDateStatus
    if release is None:
        status, note = "no stable release", "no stable release to offer for it"
    elif not release.stable:
        status = "no stable release"
        note = f"{release.tag} is not a stable release (a plain X.Y.Z with X ≥ 1)"
    elif days is None:
        status, note = "not determined", f"the publication date of {release.tag} is not known"
    elif days > 0:
        status = "after the release date"
        note = (
            f"{release.tag} came {_plural(days)} after the {revision} release; unless an "
            "earlier stable release already supported it, Tier 1's rule (a stable release "
            "supporting the new revision by its release date) makes this Tier 2 by default "
            "(the Ruby review, modelcontextprotocol#3247)"
        )
    elif release.commits_after is None:
        status = "not determined"
        note = (
            f"{release.tag} was out by the {revision} release, but nothing measured "
            f"{release.tag} itself at {revision} (assess {release.tag} to know)"
        )
    elif release.commits_after:
        status = "not determined"
        note = (
            f"{release.tag} was out by the {revision} release, but the commit assessed is "
            f"{release.commits_after} commits after it: whether {release.tag} itself supported "
            f"{revision} was not measured (assess {release.tag} to know)"
        )
    else:
        when = "on the day of" if days == 0 else f"{_plural(-days)} before"
        status = "by the release date"
        note = (
            f"the assessed commit is {release.tag}, published {when} the {revision} release, "
            f"and it was measured at {revision}"
        )
    return ReleaseByDate(
        revision=revision,
        spec_released=spec_released,
        spec_source=spec_source,
        release=release.tag if release else None,
        release_published=published,
        commits_after=release.commits_after if release else None,
        days_after=days,
        within_six_months=None if days is None else days <= SIX_MONTHS_DAYS,
        status=status,
        note=note,
    )
