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
from tiercheck.claim.model import ClaimHeader, SpecByDate
from tiercheck.governance.signals.release_date import (
    SIX_MONTHS_DAYS,
    CandidateRelease,
    judge_release_by_date,
    revision_released,
)

__all__ = ["SIX_MONTHS_DAYS", "spec_by_date"]


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


def spec_by_date(header: ClaimHeader, evidence: Evidence | None) -> SpecByDate | None:
    """The newest revision scored, judged by the release-date rule
    (`governance.signals.release_date`) against the release the assessed commit carries."""
    if not header.revisions:
        return None
    revision = max(header.revisions)
    specs = [(item.tag, item.published_at) for item in evidence.spec_releases] if evidence else []
    spec_day, spec_source = revision_released(revision, specs)
    release = header.release
    judged = judge_release_by_date(
        revision,
        spec_day,
        spec_source,
        CandidateRelease(
            tag=release.tag,
            published=_day(release.published_at),
            stable=release.stable,
            commits_after=release.commits_after or 0,
        )
        if release
        else None,
    )
    status, note = judged.status, judged.note
    if release is None:
        status, note = "not determined", "no release tag in the assessed commit's history"
    return SpecByDate(
        revision=revision,
        spec_released=spec_day.isoformat() if spec_day else revision,
        spec_source=spec_source,
        release=judged.release,
        release_published=(
            judged.release_published.isoformat() if judged.release_published else None
        ),
        commits_after=judged.commits_after,
        days_after=judged.days_after,
        within_six_months=judged.within_six_months,
        status=status,
        note=note,
    )
