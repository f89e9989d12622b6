"""The spec-tracking check: how soon the SDK released after the latest spec release."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tiercheck.governance.signals.base import CheckInfo, Signal, SignalConfig, Status, in_days
from tiercheck.governance.signals.stable_release import parse_release_version
from tiercheck.governance.snapshot import Release, ReleaseFacts, Snapshot, Unavailable

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
)

#: Official threshold (tier-check spec-tracking.ts).
SPEC_TRACKING_DAYS = 30
#: SEP-1730: Tier 2 may adopt new protocol features within six months of a spec release.
SEP_TIER2_SPEC_DAYS = 180


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

    latest_spec_release: str | None
    latest_sdk_release: str | None
    sdk_release_within_30d: bool
    days_gap: int | None
    sep1730: SepSpecTracking

    def _verdicts(self) -> tuple[object, object]:
        return self.status, self.sep1730.status

    def official_fields(self) -> dict[str, Any]:
        """Official `SpecTrackingResult` fields."""
        return {
            "latest_spec_release": self.latest_spec_release,
            "latest_sdk_release": self.latest_sdk_release,
            "sdk_release_within_30d": self.sdk_release_within_30d,
            "days_gap": self.days_gap,
        }

    def sep1730_dict(self) -> dict[str, Any]:
        """The stable-releases-only reading."""
        return self.sep1730.to_dict()


def _released(release: Release) -> datetime:
    return release.published_at or release.created_at


def _gap(
    spec: Release, candidates: Iterable[Release], as_of: datetime
) -> tuple[Release | None, int]:
    spec_at = _released(spec)
    after = sorted((r for r in candidates if spec_at <= _released(r) <= as_of), key=_released)
    first = after[0] if after else None
    end = _released(first) if first else as_of
    return first, math.floor(in_days(end - spec_at))


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
