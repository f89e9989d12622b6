"""Spec tracking as reviewers judge it: was a stable release out by the revision's release date.

The official check measures a gap in days between the latest spec release and the SDK's first
release after it. Reviewers ask something else (conformance#167, #402): whether a stable
release supporting the new revision was out by that revision's release date. The Ruby review
(#3247) made a release two weeks late "Tier 2 by default" for a Tier 1 claim. This judges the
newest revision scored against the release the assessed commit carries; what a fixed rule
cannot settle (the commit is past its release; the release came later but an earlier one may
have supported the revision) is left to the reviewer. Pure.
"""

from __future__ import annotations

from datetime import date, datetime

from tiercheck.claim.evidence import Evidence
from tiercheck.claim.model import ClaimHeader, SpecByDate, SpecTrackStatus

__all__ = ["SIX_MONTHS_DAYS", "spec_by_date"]

#: Tier 2's "within 6 months", in days (half of 365, rounded up).
SIX_MONTHS_DAYS = 183


def _day(stamp: str | None) -> date | None:
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date()
    except ValueError:
        try:
            return date.fromisoformat(stamp[:10])
        except ValueError:
            return None


def _spec_release(revision: str, evidence: Evidence | None) -> tuple[date | None, str]:
    if evidence is not None:
        for item in evidence.spec_releases:
            if (item.tag == revision or item.tag.endswith(revision)) and item.published_at:
                return item.published_at.date(), "GitHub release"
    # A revision is named after the day it was released.
    return _day(revision), "the revision's name"


def spec_by_date(header: ClaimHeader, evidence: Evidence | None) -> SpecByDate | None:
    """The newest revision scored, judged against the release the assessed commit carries."""
    if not header.revisions:
        return None
    revision = max(header.revisions)
    spec_day, spec_source = _spec_release(revision, evidence)
    release = header.release
    published = _day(release.published_at) if release else None
    days = (published - spec_day).days if published and spec_day else None
    status: SpecTrackStatus
    if release is None:
        status, note = "not determined", "no release tag in the assessed commit's history"
    elif not release.stable:
        status = "no stable release"
        note = f"{release.tag} is not a stable release (a plain X.Y.Z with X ≥ 1)"
    elif days is None:
        status, note = "not determined", f"the publication date of {release.tag} is not known"
    elif days > 0:
        status = "after the release date"
        note = (
            f"{release.tag} came {days} day{'s' if days != 1 else ''} after the {revision} "
            "release; unless an earlier stable release already supported it, Tier 1's rule "
            "(a stable release supporting the new revision by its release date) makes this "
            "Tier 2 by default (the Ruby review, modelcontextprotocol#3247)"
        )
    elif release.commits_after:
        status = "not determined"
        note = (
            f"{release.tag} was out by the {revision} release, but the commit assessed is "
            f"{release.commits_after} commits after it: whether {release.tag} itself supported "
            f"{revision} was not measured (assess {release.tag} to know)"
        )
    else:
        status = "by the release date"
        note = (
            f"the assessed commit is {release.tag}, published "
            f"{'on the day of' if days == 0 else f'{-days} days before'} the {revision} release, "
            f"and it was measured at {revision}"
        )
    return SpecByDate(
        revision=revision,
        spec_released=spec_day.isoformat() if spec_day else revision,
        spec_source=spec_source,
        release=release.tag if release else None,
        release_published=published.isoformat() if published else None,
        commits_after=release.commits_after if release else None,
        days_after=days,
        within_six_months=None if days is None else days <= SIX_MONTHS_DAYS,
        status=status,
        note=note,
    )
