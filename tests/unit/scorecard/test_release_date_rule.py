"""The scorecard's release-date rule reads the release the commit assessed is (`sdk.release`).

By hand. Spec revision 2025-11-25 came out on 2025-11-25 (its GitHub release). The SDK's stable
releases: v1.0.0 on 2025-11-20, v1.1.0 on 2025-11-24, v1.2.0 on 2025-12-10. Judged on
2026-01-15, the spec-tracking signal (no checkout) offers the newest stable release out by the
date, v1.1.0, and cannot tell whether it supported the revision: "not determined".

Assess `@v1.0.0` itself and the scorecard knows more: the commit measured at 2025-11-25 is
v1.0.0, out 2025-11-20 − 2025-11-25 = −5 days from the spec release, so a stable release
supporting the revision was out by its release date: "by the release date". The same for
`@stable` resolved to v1.1.0 (−1 day). A commit past its release, a release after the date,
a release never measured at the revision, an unstable one or one with no GitHub release day
leave the signal's reading as it was.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from support.scorecards import (
    R1,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    skipped,
    triage,
)
from tiercheck.governance.signals import compute_signals
from tiercheck.governance.signals.release_date import published_days
from tiercheck.governance.snapshot import (
    LabelFacts,
    PolicyFileFacts,
    Release,
    ReleaseFacts,
    Snapshot,
    Unavailable,
)
from tiercheck.scorecard.model import Scorecard, SdkRelease
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal
from tiercheck.tier import Blocker

AS_OF = datetime(2026, 1, 15, 12, tzinfo=UTC)


def _out(tag: str, day: date) -> Release:
    moment = datetime(day.year, day.month, day.day, 9, tzinfo=UTC)
    return Release(tag, None, False, False, moment, moment)


RELEASES = (
    _out("v1.2.0", date(2025, 12, 10)),
    _out("v1.1.0", date(2025, 11, 24)),
    _out("v1.0.0", date(2025, 11, 20)),
)
SNAPSHOT = Snapshot(
    repo="example-org/example-sdk",
    captured_at=AS_OF,
    api_base="http://127.0.0.1",
    authenticated=True,
    labels=LabelFacts(names=(), uses_issue_types=False),
    issues=Unavailable("not collected here"),
    releases=ReleaseFacts(releases=RELEASES, truncated=False),
    spec_releases=ReleaseFacts(releases=(_out("2025-11-25", date(2025, 11, 25)),), truncated=False),
    policy_files=PolicyFileFacts(paths=(), source="git-tree", truncated=False),
)
#: The spec-tracking signal as the judge step computes it from the snapshot.
SPEC_TRACKING = compute_signals(SNAPSHOT, AS_OF).spec_tracking.to_dict()
RELEASE_DAYS = published_days(RELEASES, AS_OF)

#: The signal's own reading, which stands whenever the assessed commit cannot settle the rule.
UNCHANGED = ("v1.1.0", "2025-11-24", -1, None, "not determined")


def _scorecard(
    sdk: dict[str, Any], *, measured: bool = True, days: dict[str, date] | None = None
) -> Scorecard:
    server = (
        measured_leg(R1, "server", [scenario("server-initialize")])
        if measured
        else skipped(R1, "server", "no server command")
    )
    client = (
        measured_leg(R1, "client", [scenario("initialize")])
        if measured
        else skipped(R1, "client", "no client command")
    )
    return scorecard(
        legs={R1: {"server": server, "client": client}},
        signals={
            "labels": labels(),
            "triage": triage(),
            "p0_resolution": p0(),
            "stable_release": release("1.2.0"),
            "policy_signals": policy(),
            "spec_tracking": SPEC_TRACKING,
        },
        tier=implied(2, [Blocker(check="triage", tier=1)], []),
        sdk_fields=sdk,
        release_days=RELEASE_DAYS if days is None else days,
    )


def _rule(doc: Scorecard) -> dict[str, Any]:
    (item,) = doc.checks.spec_tracking.get("by_release_date")
    assert item["revision"] == R1
    return dict(item)


def _read(item: dict[str, Any]) -> tuple[Any, ...]:
    return (
        item["release"],
        item["release_published"],
        item["days_after"],
        item["commits_after"],
        item["status"],
    )


def _stable(tag: str) -> SdkRelease:
    return SdkRelease(tag=tag, version=tag.removeprefix("v"), stable=True)


def test_the_signal_alone_cannot_settle_it() -> None:
    (item,) = [i for i in SPEC_TRACKING["by_release_date"] if i["revision"] == R1]
    assert _read(item) == UNCHANGED
    # A release's day is its GitHub release's; one out after the day judged would not count.
    assert published_days(RELEASES, datetime(2025, 12, 1, tzinfo=UTC)) == {
        "v1.1.0": date(2025, 11, 24),
        "v1.0.0": date(2025, 11, 20),
    }
    assert published_days(RELEASES, AS_OF) == {
        "v1.2.0": date(2025, 12, 10),
        "v1.1.0": date(2025, 11, 24),
        "v1.0.0": date(2025, 11, 20),
    }


def test_the_release_named_and_measured_is_by_the_release_date() -> None:
    doc = _scorecard({"ref": "v1.0.0", "release": _stable("v1.0.0")})
    item = _rule(doc)
    assert _read(item) == ("v1.0.0", "2025-11-20", -5, 0, "by the release date")
    assert item["within_six_months"] is True
    assert item["note"] == (
        "the assessed commit is v1.0.0, published 5 days before the 2025-11-25 release, "
        "and it was measured at 2025-11-25"
    )
    # Every format reads it from the document.
    shown = "2025-11-25: by the release date (v1.0.0, -5 d)"
    assert shown in render_markdown(doc)
    assert shown in render_html(doc)
    assert shown in " ".join(render_terminal(doc, color=False, width=400).split())


def test_the_latest_stable_release_assessed_at_stable_is_by_the_release_date() -> None:
    doc = _scorecard({"ref": "stable", "tag": "v1.1.0", "release": _stable("v1.1.0")})
    assert _read(_rule(doc)) == ("v1.1.0", "2025-11-24", -1, 0, "by the release date")


def test_the_official_reading_is_unchanged() -> None:
    at_release = _scorecard({"ref": "v1.0.0", "release": _stable("v1.0.0")})
    past_it = _scorecard({"ref": "main", "release": _stable("v1.0.0")})
    for key in ("status", "latest_spec_release", "latest_sdk_release", "days_gap", "sep1730"):
        assert at_release.checks.spec_tracking.get(key) == past_it.checks.spec_tracking.get(key)
    assert at_release.checks.spec_tracking.status == past_it.checks.spec_tracking.status
    assert at_release.implied_tier == past_it.implied_tier


@pytest.mark.parametrize(
    ("sdk", "measured", "days"),
    [
        # The commit is past its release (a branch): whether v1.0.0 supported it is unknown.
        ({"ref": "main", "release": _stable("v1.0.0")}, True, None),
        ({"ref": None, "release": _stable("v1.0.0")}, True, None),
        # v1.2.0 came after the date, and v1.1.0 was out before it: still not determined.
        ({"ref": "v1.2.0", "release": _stable("v1.2.0")}, True, None),
        # Nothing was measured at the revision.
        ({"ref": "v1.0.0", "release": _stable("v1.0.0")}, False, None),
        # Not a stable release (0.x), or no GitHub release day for the tag.
        (
            {"ref": "v0.9.0", "release": SdkRelease(tag="v0.9.0", version="0.9.0", stable=False)},
            True,
            {"v0.9.0": date(2025, 11, 1)},
        ),
        ({"ref": "v1.0.0", "release": _stable("v1.0.0")}, True, {}),
        # No release read from the checkout at all.
        ({"ref": "v1.0.0", "release": None}, True, None),
    ],
)
def test_otherwise_the_signal_reading_stands(
    sdk: dict[str, Any], measured: bool, days: dict[str, date] | None
) -> None:
    assert _read(_rule(_scorecard(sdk, measured=measured, days=days))) == UNCHANGED
