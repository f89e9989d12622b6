"""The spec-tracking check: how soon the SDK released after the latest spec release."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from tiercheck.governance.signals.base import (
    CheckInfo,
    Signal,
    SignalConfig,
    Status,
    in_days,
    js_round,
    millis,
)
from tiercheck.governance.signals.release_date import (
    CandidateRelease,
    ReleaseByDate,
    judge_release_by_date,
    revision_released,
)
from tiercheck.governance.signals.stable_release import parse_release_version
from tiercheck.governance.snapshot import (
    Release,
    ReleaseFacts,
    Snapshot,
    Unavailable,
    format_time,
)
from tiercheck.revisions import known_revisions

__all__ = [
    "CHECK",
    "SEP_TIER2_SPEC_DAYS",
    "SPEC_TRACKING_DAYS",
    "SepSpecTracking",
    "SpecTrackingSignal",
    "spec_tracking_signal",
]

CHECK = CheckInfo(
    name="spec_tracking",
    rank=4,
    remediation="Release an SDK version that tracks the latest spec release",
    departures=(
        "The text asks for support before the spec release, on a timeline agreed per release, "
        "which is not public: a stable release from 30 days before the spec release on answers "
        "it, and the official 30 days after stand in for the agreed timeline. Only stable "
        "releases count; Tier 2 has six months."
    ),
)

#: Official threshold (tier-check spec-tracking.ts).
SPEC_TRACKING_DAYS = 30
#: SEP-1730: Tier 2 may adopt new protocol features within six months of a spec release.
SEP_TIER2_SPEC_DAYS = 180
#: Ours: how long before the spec release an SDK release can be the one that supports it.
SEP_BEFORE_DAYS = 30
_DAY_MS = 86_400_000


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
class SpecTrackingSignal(Signal):
    """Days from the latest spec release to the first SDK release on or after it."""

    info = CHECK

    latest_spec_release: str | None
    latest_sdk_release: str | None
    sdk_release_within_30d: bool | None
    days_gap: int | None
    sep1730: SepSpecTracking
    #: The release-date rule at each known revision released by `as_of` (not a verdict of
    #: either reading: shown beside them, see `release_date`).
    by_release_date: tuple[ReleaseByDate, ...] = ()

    def _verdicts(self) -> tuple[object, object]:
        return self.status, self.sep1730.status

    def to_dict(self) -> dict[str, Any]:
        """The official fields and the SEP-1730 reading, then the release-date rule."""
        return {
            **super().to_dict(),
            "by_release_date": [item.to_dict() for item in self.by_release_date],
        }


def _released(release: Release) -> datetime:
    return release.published_at or release.created_at


def _published_ms(release: Release) -> int:
    # `new Date(null).getTime()` is 0: a release without `published_at` sorts before everything.
    return millis(release.published_at) if release.published_at else 0


def _published_text(release: Release | None) -> str | None:
    return format_time(release.published_at) if release and release.published_at else None


def _official(
    spec: Release | None, sdk: list[Release], as_of: datetime
) -> tuple[Status, str | None, bool | None, int | None]:
    """(status, latest_sdk_release, sdk_release_within_30d, days_gap) as alpha.12 computes them.

    `sdk` is the SDK's non-draft releases in the API's order (newest created first). The answer
    is the oldest-listed one published no earlier than 24 hours before the spec; days are
    `Math.round`ed; with no answer, the days since the spec and the newest release's date.
    """
    if spec is None or not sdk:
        return "skipped", _published_text(sdk[0] if sdk else None), None, None
    spec_ms = _published_ms(spec)
    answer = next((r for r in reversed(sdk) if _published_ms(r) >= spec_ms - _DAY_MS), None)
    end = _published_ms(answer) if answer else millis(as_of)
    gap = js_round((end - spec_ms) / _DAY_MS)
    ok = gap <= SPEC_TRACKING_DAYS
    return "pass" if ok else "fail", _published_text(answer or sdk[0]), ok, gap


def _sep(spec: Release, stable: list[Release], as_of: datetime) -> SepSpecTracking:
    """SEP-1730: Tier 1 supports a spec *before* its release ("timeline agreed per release").

    The first stable release published from `SEP_BEFORE_DAYS` before the spec on answers it
    (a negative gap is a release before the spec). The agreed timeline is not public, so the
    official 30 days after the spec stand in for it; Tier 2 has six months.
    """
    spec_at = _released(spec)
    window = [
        r for r in stable if spec_at - timedelta(days=SEP_BEFORE_DAYS) <= _released(r) <= as_of
    ]
    first = min(window, key=_released) if window else None
    end = _released(first) if first else as_of
    gap = js_round(in_days(end - spec_at))
    ok = gap <= SPEC_TRACKING_DAYS
    return SepSpecTracking(
        status="pass" if ok else "fail",
        latest_sdk_release=first.tag if first else None,
        days_gap=gap,
        within_30d=ok,
        within_180d=gap <= SEP_TIER2_SPEC_DAYS,
    )


def _major(release: Release, config: SignalConfig) -> int:
    version = parse_release_version(release.tag, config.tag_prefix)
    return version.major if version else 0


def _by_release_date(
    specs: list[Release], stable: list[Release], as_of: datetime
) -> tuple[ReleaseByDate, ...]:
    """The release-date rule at each known revision released by `as_of`.

    The scorecard has no release of its own to offer, so it offers the newest stable release
    published by the revision's release day (whether it supported the revision was not
    measured: `not determined`), else the first stable one after it (Tier 2 by default), else
    none.
    """
    pairs = [(r.tag, _released(r)) for r in specs]
    result = []
    for revision in known_revisions():
        day, source = revision_released(revision, pairs)
        if day is None or day > as_of.date():
            continue
        published = [(_released(r).date(), r) for r in stable if _released(r) <= as_of]
        before = [item for item in published if item[0] <= day]
        after = [item for item in published if item[0] > day]
        chosen: tuple[date, Release] | None = None
        if before:
            chosen = max(before, key=lambda item: _released(item[1]))
        elif after:
            chosen = min(after, key=lambda item: _released(item[1]))
        candidate = (
            CandidateRelease(tag=chosen[1].tag, published=chosen[0], stable=True)
            if chosen
            else None
        )
        result.append(judge_release_by_date(revision, day, source, candidate))
    return tuple(result)


def _inconclusive(reason: str) -> SpecTrackingSignal:
    """Both readings inconclusive: the releases could not be read (`reason`)."""
    return SpecTrackingSignal(
        status="inconclusive",
        reason=reason,
        latest_spec_release=None,
        latest_sdk_release=None,
        sdk_release_within_30d=None,
        days_gap=None,
        sep1730=SepSpecTracking("inconclusive", None, None, False, False),
    )


def _latest_spec(specs: ReleaseFacts, as_of: datetime) -> Release | None:
    """The spec release the official check judges: the first non-draft, non-prerelease of the
    5 newest released by `as_of` (a release dated later did not exist yet: a snapshot may be
    judged at an earlier moment than it was captured)."""
    return next(
        (
            r
            for r in specs.releases[:5]
            if not r.draft and not r.prerelease and _released(r) <= as_of
        ),
        None,
    )


def _stable(release: Release, config: SignalConfig) -> bool:
    """Whether `release` is stable: published (not a draft), no prerelease, a plain version."""
    version = parse_release_version(release.tag, config.tag_prefix)
    return not release.draft and not release.prerelease and bool(version and version.is_plain)


def spec_tracking_signal(
    snapshot: Snapshot, as_of: datetime, config: SignalConfig
) -> SpecTrackingSignal:
    """How quickly the SDK released after the latest spec release.

    Official (the pinned `tier-check` spec-tracking.ts): the first non-draft, non-prerelease of
    the spec repository's 5 newest releases, against the SDK's non-draft releases among its 50
    newest: the oldest-listed one published at most 24 hours before the spec or later answers
    it. Days are `Math.round`ed; pass if ≤ 30, and without an answer the days since the spec
    decide. No spec release, or no non-draft SDK release at all: `skipped`. Both dates are
    `published_at` timestamps. Ours (SEP-1730): see `_sep`.
    """
    specs, releases = snapshot.spec_releases, snapshot.releases
    unavailable = next((g for g in (specs, releases) if isinstance(g, Unavailable)), None)
    if unavailable is not None:
        return _inconclusive(unavailable.reason)
    assert isinstance(specs, ReleaseFacts)
    assert isinstance(releases, ReleaseFacts)
    spec = _latest_spec(specs, as_of)
    sdk = [r for r in releases.releases[:50] if not r.draft and _released(r) <= as_of]
    status, latest_sdk, within, gap = _official(spec, sdk, as_of)
    stable = [r for r in releases.releases if _stable(r, config)]
    if spec is None:
        sep = SepSpecTracking("skipped", None, None, False, False)
    else:
        sep = _sep(spec, stable, as_of)
    return SpecTrackingSignal(
        status=status,
        reason="no published spec release" if spec is None else None,
        latest_spec_release=_published_text(spec),
        latest_sdk_release=latest_sdk,
        sdk_release_within_30d=within,
        days_gap=gap,
        sep1730=sep,
        by_release_date=_by_release_date(
            [r for r in specs.releases if not r.draft and not r.prerelease],
            [r for r in stable if _major(r, config) >= 1],
            as_of,
        ),
    )
