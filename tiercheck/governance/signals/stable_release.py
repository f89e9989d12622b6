"""The stable-release check: officially the first non-draft release; per SEP-1730, the newest
plain ``X.Y.Z`` release."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tiercheck.governance.signals.base import (
    CheckInfo,
    Signal,
    SignalConfig,
    Status,
    field_values,
    js_parse_int,
)
from tiercheck.governance.snapshot import Release, ReleaseFacts, Snapshot, Unavailable
from tiercheck.target import ParsedVersion, parse_release_version

__all__ = [
    "CHECK",
    "ParsedVersion",
    "StableRelease",
    "StableReleaseSignal",
    "official_version",
    "parse_release_version",
    "stable_release_signal",
]

CHECK = CheckInfo(
    name="stable_release",
    rank=3,
    remediation="Cut a stable release (1.0.0 or later, no pre-release suffix)",
    departures=(
        "The highest non-draft release whose version (after the SDK's tag prefix, or the tag's "
        "trailing X.Y.Z) matches the text's ^[0-9]+\\.[0-9]+\\.[0-9]+$ with major >= 1. Build "
        "metadata (1.4.0+build.9) does not count: the text's pattern ends at the patch number, "
        "although SemVer would call it a release."
    ),
)

#: Suffixes the official release check treats as prerelease markers. JavaScript's `/i` (without
#: `u`) folds only ASCII here, so Python's Unicode folding (``ſ`` as ``s``) is turned off.
_OFFICIAL_PRERELEASE = re.compile(
    r"-(alpha|beta|rc|dev|preview|snapshot)", re.IGNORECASE | re.ASCII
)
#: The official version-from-tag rule (alpha.12 `release.ts`):
#: ``/(?:^|-)v?(\d+(?:\.\d+)*(?:[-+].*)?)$/``. JavaScript's `\d` is ASCII, its `.` stops at
#: any line terminator and its `$` (no `m` flag) only matches at the very end.
_OFFICIAL_VERSION = re.compile(r"(?:^|-)v?(\d+(?:\.\d+)*(?:[-+][^\n\r\u2028\u2029]*)?)\Z", re.ASCII)


def official_version(tag: str) -> str:
    """The version the official check reads from a tag: ``rmcp-v1.2.3`` → ``1.2.3``,
    ``release-1.0`` → ``1.0``, ``sdk-beta-1.0.0`` → ``1.0.0``; ``vNext`` stays ``vNext``."""
    match = _OFFICIAL_VERSION.search(tag)
    return match.group(1) if match else tag


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
        return field_values(self)


@dataclass(frozen=True)
class StableReleaseSignal(Signal):
    """Stable release: the official first-non-draft rule and SEP-1730's newest stable semver."""

    info = CHECK

    version: str | None
    is_stable: bool
    is_prerelease: bool
    sep1730: StableRelease

    def _verdicts(self) -> tuple[object, object]:
        # The readings are compared on stability, the fact the tier uses.
        return self.is_stable, self.sep1730.is_stable


def _official_release(releases: tuple[Release, ...]) -> tuple[str | None, bool, bool]:
    """(version, is_stable, is_prerelease) as the pinned `tier-check` release.ts decides them."""
    candidate = next((r for r in releases[:20] if not r.draft), None)
    if candidate is None:
        return None, False, False
    version = official_version(candidate.tag)
    prerelease = candidate.prerelease or bool(_OFFICIAL_PRERELEASE.search(version))
    parts = version.split(".")
    major = js_parse_int(parts[0])
    stable = not prerelease and len(parts) >= 2 and major is not None and major >= 1
    return version, stable, prerelease


def _sep_release(releases: tuple[Release, ...], tag_prefix: str | None) -> StableRelease:
    published = [r for r in releases if not r.draft]
    parsed = [(r, parse_release_version(r.tag, tag_prefix)) for r in published]
    versioned = [(r, v) for r, v in parsed if v is not None]
    newest = versioned[0] if versioned else None
    # SEP-1730: "version matching ^[0-9]+\.[0-9]+\.[0-9]+$ where major >= 1". The pattern ends
    # at the patch number, so build metadata (1.4.0+build.9) does not count, although SemVer
    # would call it a release: the reading follows the text, and says so (`docs/governance.md`).
    stable = [(r, v) for r, v in versioned if not r.prerelease and v.is_stable]

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

    Official (the pinned `tier-check` release.ts): the first non-draft of the 20 newest
    releases, its version read from the tag by `official_version`; a prerelease if flagged or
    suffixed ``-alpha/-beta/-rc/-dev/-preview/-snapshot``; stable if not a prerelease, with at
    least two dot-separated parts and a major ≥ 1 (`parseInt`). A newer prerelease therefore
    hides an older stable one.
    SEP-1730 (ours): the highest plain ``X.Y.Z`` (X ≥ 1, no pre-release, no build metadata)
    among all non-draft releases whose tag matches `config.tag_prefix` (or ends in a semver when
    no prefix is configured).
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
