"""Spec tracking as reviewers judge it, and policy rows that quote what they found.

Spec tracking, by hand: the Ruby review (#3247) read v1.2.0, published 2026-08-15, as 18 days
after the 2026-07-28 release ("about 2 weeks after": Tier 2 by default for Tier 1). The sample
SDK's recorded snapshot publishes v1.0.0 on 2026-08-12 and the 2026-07-28 spec release on
2026-07-28: 15 days (3 left in July, 12 in August).

Policies, by hand from the sample's files: VERSIONING.md line 3 is the sentence that says what
the policy commits to ("This project uses Semantic Versioning 2.0.0."), and
.github/dependabot.yml has one update entry, pip, weekly.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import pytest

from support.scorecards import sample_scorecard
from tiercheck.claim.evidence import Evidence, ReleaseItem
from tiercheck.claim.header import build_header
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.model import ClaimHeader, ReleaseRef
from tiercheck.claim.pack import build_claim
from tiercheck.claim.policies import POLICY_PATHS, commitment
from tiercheck.claim.sources import read_tree
from tiercheck.claim.spec_dates import spec_by_date

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "examples" / "sample-sdk"


def _header(
    tag: str | None, published: str | None, after: int = 0, stable: bool = True
) -> ClaimHeader:
    header = build_header(sample_scorecard(), requested_tier=1)
    release = None
    if tag is not None:
        release = ReleaseRef(
            tag=tag,
            version=tag.removeprefix("v"),
            stable=stable,
            commits_after=after,
            published_at=published,
            published_source="GitHub release",
            url=None,
            registry=None,
            registry_url=None,
        )
    return dataclasses.replace(header, release=release)


def _evidence(spec_published: datetime) -> Evidence:
    return Evidence(
        repo="tiercheck/sample-sdk",
        as_of=datetime(2026, 8, 20, tzinfo=UTC),
        window_days=90,
        triage_issues=0,
        slowest=(),
        p0s=(),
        releases=(),
        spec_releases=(ReleaseItem("2026-07-28", "https://x.invalid", spec_published, False),),
        unavailable=(),
    )


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        # The Ruby review's case: 18 days late.
        (("v1.2.0", "2026-08-15T10:00:00Z", 0, True), ("after the release date", 18)),
        # Python's 2.0.0: three hours before the spec tag, the same day.
        (("v2.0.0", "2026-07-28T13:41:00Z", 0, True), ("by the release date", 0)),
        # The same release, but the commit assessed is 21 commits past it.
        (("v2.0.0", "2026-07-28T13:41:00Z", 21, True), ("not determined", 0)),
        # PHP's v0.7.1: no stable release at all.
        (("v0.7.1", "2026-08-14T00:00:00Z", 0, False), ("no stable release", 17)),
        ((None, None, 0, True), ("not determined", None)),
    ],
)
def test_a_stable_release_by_the_revision_s_release_date(
    release: tuple[str | None, str | None, int, bool], expected: tuple[str, int | None]
) -> None:
    found = spec_by_date(_header(*release), _evidence(datetime(2026, 7, 28, 16, 47, tzinfo=UTC)))
    assert found is not None
    assert (found.revision, found.spec_released, found.spec_source) == (
        "2026-07-28",
        "2026-07-28",
        "GitHub release",
    )
    assert (found.status, found.days_after) == expected


def test_late_by_two_weeks_is_tier_2_by_default() -> None:
    found = spec_by_date(_header("v1.2.0", "2026-08-15T10:00:00Z"), None)
    assert found is not None
    # Without a snapshot the revision's data gives its release date.
    assert found.spec_source == "the revision's data"
    assert found.within_six_months is True
    assert "18 days after the 2026-07-28 release" in found.note
    assert "Tier 2 by default" in found.note


def test_the_sample_release_is_15_days_after_the_spec(tmp_path: Path) -> None:
    from tiercheck.governance.snapshot import load_snapshot

    snapshot = load_snapshot(SAMPLE / "governance-snapshot.json")
    from tiercheck.claim.header import TagFact
    from tiercheck.claim.pack import ClaimContext

    claim = build_claim(
        sample_scorecard(),
        target_tier=1,
        snapshot=snapshot,
        tree=read_tree(SAMPLE, POLICY_PATHS),
        context=ClaimContext(release=TagFact("v1.0.0", "2026-08-12T14:00:00+00:00", 0)),
    )
    assert claim.header.release is not None
    # GitHub's date (the snapshot) wins over the tag's own.
    assert claim.header.release.published_at == "2026-08-12T14:20:00Z"
    found = claim.spec_by_date
    assert found is not None
    assert (found.status, found.days_after, found.release_published) == (
        "after the release date",
        15,
        "2026-08-12",
    )
    row = next(r for r in claim.rows if r.id == "4b")
    assert row.current.endswith("; stable release by the 2026-07-28 release date: no")
    assert row.review is not None
    assert row.evidence[-1].text.startswith(
        "by the 2026-07-28 release date (2026-07-28, from GitHub release): no: v1.0.0 came 15 days"
    )
    text = render_assessment(claim)
    assert "- [ ] **4b Spec tracking**: check that a stable release supported 2026-07-28" in text


def test_policy_rows_quote_the_file_and_what_it_commits_to() -> None:
    claim = build_claim(
        sample_scorecard(), target_tier=1, snapshot=None, tree=read_tree(SAMPLE, POLICY_PATHS)
    )
    rows = {r.id: r for r in claim.rows}
    assert rows["8"].current == "VERSIONING.md: “This project uses Semantic Versioning 2.0.0.”"
    assert rows["8"].verdicts[0] == "needs review"  # quoted, still not passed on a guess
    assert rows["8"].evidence[0].url == (
        "https://github.com/tiercheck/sample-sdk/blob/3f9a2c41d7e0b5a8c6f1e2d3b4a59687c0d1e2f3/"
        "VERSIONING.md#L3"
    )
    assert rows["6"].current == (
        "automated updates configured: .github/dependabot.yml (1 update entry: pip weekly)"
    )
    assert rows["7"].current == "not found"


def test_the_commitment_is_the_sentence_that_promises_most() -> None:
    text = (
        "# Dependencies\n\n"
        "This page is about the libraries we use in the project.\n\n"
        "Security fixes in a dependency will be released within 7 days of the advisory.\n\n"
        "```\nwe will always do everything within 1 day\n```\n"
    )
    assert commitment(text, "dependency") == (
        5,
        "Security fixes in a dependency will be released within 7 days of the advisory.",
    )
