"""Each fix of the official reading (issue 11) against the pinned bundle's own answer.

The expected values below were computed by the unmodified 0.2.0-alpha.12 bundle, not by hand:
``PYTHONPATH=tests .venv/bin/python -m support.official_governance --dump KEY…`` runs it
(Node 22, `tests/support/official/preload.mjs`) on the named hand-made cases of
`governance_datasets.edge_cases` and prints its JSON; the integration test
`test_governance_differential` keeps proving the same on every dataset. Here the cases are
collected through the real collector from our fake GitHub and judged at their as-of, with no Node.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.fake_github import FakeGitHub
from support.governance_datasets import Case, edge_cases
from tiercheck.ghapi import Transport
from tiercheck.governance.collector import collect
from tiercheck.governance.signals import GovernanceSignals, SignalConfig, compute_signals
from tiercheck.tier import LegSummary, compute_tier

CASES = {case.key: case for case in edge_cases()}

BUNDLE: dict[tuple[str, str], dict[str, Any]] = {
    ("release-rmcp-prefix", "stable_release"): {
        "status": "pass",
        "version": "1.2.3",
        "is_stable": True,
        "is_prerelease": False,
    },
    ("release-release-dash", "stable_release"): {
        "status": "pass",
        "version": "1.0",
        "is_stable": True,
        "is_prerelease": False,
    },
    ("release-sdk-beta", "stable_release"): {
        "status": "pass",
        "version": "1.0.0",
        "is_stable": True,
        "is_prerelease": False,
    },
    ("release-vnext", "stable_release"): {
        "status": "fail",
        "version": "vNext",
        "is_stable": False,
        "is_prerelease": False,
    },
    ("release-unicode-digit", "stable_release"): {
        "status": "fail",
        "version": "v٣.1.0",
        "is_stable": False,
        "is_prerelease": False,
    },
    ("spec-sdk-20h-before", "spec_tracking"): {
        "status": "pass",
        "latest_spec_release": "2026-03-15T12:00:00Z",
        "latest_sdk_release": "2026-03-14T16:00:00Z",
        "sdk_release_within_30d": True,
        "days_gap": -1,
    },
    ("spec-sdk-30h-before", "spec_tracking"): {
        "status": "fail",
        "latest_spec_release": "2026-03-15T12:00:00Z",
        "latest_sdk_release": "2026-03-14T06:00:00Z",
        "sdk_release_within_30d": False,
        "days_gap": 50,
    },
    ("spec-round-up", "spec_tracking"): {
        "status": "fail",
        "latest_spec_release": "2026-03-05T12:00:00Z",
        "latest_sdk_release": "2026-04-05T02:24:00Z",
        "sdk_release_within_30d": False,
        "days_gap": 31,
    },
    ("spec-round-down", "spec_tracking"): {
        "status": "pass",
        "latest_spec_release": "2026-03-05T12:00:00Z",
        "latest_sdk_release": "2026-04-04T21:36:00Z",
        "sdk_release_within_30d": True,
        "days_gap": 30,
    },
    ("spec-no-sdk-release", "spec_tracking"): {
        "status": "skipped",
        "latest_spec_release": "2026-02-03T12:00:00Z",
        "latest_sdk_release": None,
        "sdk_release_within_30d": None,
        "days_gap": None,
    },
    ("spec-none-after", "spec_tracking"): {
        "status": "pass",
        "latest_spec_release": "2026-04-19T21:36:00Z",
        "latest_sdk_release": "2025-10-16T12:00:00Z",
        "sdk_release_within_30d": True,
        "days_gap": 15,
    },
    ("spec-no-spec", "spec_tracking"): {
        "status": "skipped",
        "latest_spec_release": None,
        "latest_sdk_release": "2026-01-24T12:00:00Z",
        "sdk_release_within_30d": None,
        "days_gap": None,
    },
    ("labels-issue-types-empty", "labels"): {
        "status": "pass",
        "present": 9,
        "required": 9,
        "missing": [],
        "found": [
            "needs confirmation",
            "needs repro",
            "ready for work",
            "good first issue",
            "help wanted",
            "P0",
            "P1",
            "P2",
            "P3",
        ],
        "uses_issue_types": True,
    },
    ("labels-endpoint-only", "labels"): {
        "status": "fail",
        "present": 9,
        "required": 12,
        "missing": ["bug", "enhancement", "question"],
        "found": [
            "needs confirmation",
            "needs repro",
            "ready for work",
            "good first issue",
            "help wanted",
            "P0",
            "P1",
            "P2",
            "P3",
        ],
        "uses_issue_types": False,
    },
    ("triage-even-count", "triage"): {
        "status": "fail",
        "compliance_rate": 0,
        "total_issues": 4,
        "triaged_within_sla": 0,
        "exceeding_sla": 0,
        "median_hours": 24,
        "p95_hours": 31,
    },
    ("triage-p95-index", "triage"): {
        "status": "fail",
        "compliance_rate": 0,
        "total_issues": 20,
        "triaged_within_sla": 0,
        "exceeding_sla": 0,
        "median_hours": 23.7,
        "p95_hours": 36,
    },
    ("triage-rounding", "triage"): {
        "status": "fail",
        "compliance_rate": 0,
        "total_issues": 3,
        "triaged_within_sla": 0,
        "exceeding_sla": 0,
        "median_hours": 10.8,
        "p95_hours": 11.3,
    },
    ("triage-0.89995", "triage"): {
        "status": "partial",
        "compliance_rate": 0.8999502239920358,
        "total_issues": 2009,
        "triaged_within_sla": 1808,
        "exceeding_sla": 0,
        "median_hours": 11,
        "p95_hours": 11.9,
    },
    ("p0-age-rounding", "p0_resolution"): {
        "status": "fail",
        "open_p0s": 1,
        "open_p0_details": [{"number": 1, "title": "outage", "age_days": 5}],
        "closed_within_7d": 0,
        "closed_within_14d": 0,
        "closed_total": 0,
        "all_p0s_resolved_within_7d": False,
        "all_p0s_resolved_within_14d": False,
    },
    ("p0-api-order", "p0_resolution"): {
        "status": "fail",
        "open_p0s": 3,
        "open_p0_details": [
            {"number": 1, "title": "new", "age_days": 2},
            {"number": 2, "title": "mid", "age_days": 4},
            {"number": 3, "title": "old", "age_days": 9},
        ],
        "closed_within_7d": 0,
        "closed_within_14d": 0,
        "closed_total": 0,
        "all_p0s_resolved_within_7d": False,
        "all_p0s_resolved_within_14d": False,
    },
    ("policy-twelve", "policy_signals"): {
        "status": "partial",
        "files": {
            "CHANGELOG.md": True,
            "SECURITY.md": True,
            "CONTRIBUTING.md": True,
            "DEPENDENCY_POLICY.md": True,
            "docs/dependency-policy.md": True,
            ".github/dependabot.yml": True,
            ".github/renovate.json": True,
            "renovate.json": True,
            "ROADMAP.md": True,
            "docs/roadmap.md": True,
            "VERSIONING.md": True,
            "docs/versioning.md": True,
            "BREAKING_CHANGES.md": False,
        },
    },
    ("policy-six-categories", "policy_signals"): {
        "status": "partial",
        "files": {
            "CHANGELOG.md": True,
            "SECURITY.md": True,
            "CONTRIBUTING.md": True,
            "DEPENDENCY_POLICY.md": False,
            "docs/dependency-policy.md": False,
            ".github/dependabot.yml": False,
            ".github/renovate.json": False,
            "renovate.json": True,
            "ROADMAP.md": True,
            "docs/roadmap.md": False,
            "VERSIONING.md": True,
            "docs/versioning.md": False,
            "BREAKING_CHANGES.md": False,
        },
    },
}


#: Cases the SEP-1730 tests below read too (their expectations are hand work from the text).
SEP_CASES = {"release-build", "spec-prerelease-answers"}


@pytest.fixture(scope="module")
def judged() -> Iterator[dict[str, GovernanceSignals]]:
    wanted = sorted({key for key, _ in BUNDLE} | SEP_CASES)
    fake = FakeGitHub().start()
    try:
        yield {key: _judge(fake, CASES[key]) for key in wanted}
    finally:
        fake.stop()


def _judge(fake: FakeGitHub, case: Case) -> GovernanceSignals:
    api = fake.add(case.key, case.dataset)
    snapshot = collect(
        case.dataset.repo,
        api_url=api,
        # Anonymous: the official fields need no issue timelines, and skipping GraphQL keeps the
        # 2,009-issue case fast.
        token=None,
        cache_dir=None,
        checkout=None,
        now=case.as_of,
        transport=Transport(throttle=None, write_throttle=None, backoff=0),
    )
    return compute_signals(snapshot, case.as_of, SignalConfig(days=case.days))


@pytest.mark.parametrize(("key", "check"), list(BUNDLE), ids=[f"{k}:{c}" for k, c in BUNDLE])
def test_official_reading_is_the_bundles(
    judged: dict[str, GovernanceSignals], key: str, check: str
) -> None:
    ours = getattr(judged[key], check).to_dict()
    expected = BUNDLE[key, check]
    # Every official field the bundle printed (an undefined `days_analyzed` it leaves out).
    assert {name: ours[name] for name in expected} == expected


def test_unrounded_compliance_keeps_the_tier1_blocker(
    judged: dict[str, GovernanceSignals],
) -> None:
    # 1808 of 2009 open issues labelled: 0.899950…, which rounded to 4 places reads 0.9. The
    # bundle's tier function (both legs at 100%) names `triage` as a Tier 1 blocker.
    full = LegSummary("measured", pass_rate=1.0)
    tier = compute_tier(full, full, judged["triage-0.89995"])
    assert [str(b) for b in tier.tier1_blockers] == ["triage", "spec_tracking"]
    assert (tier.tier, tier.tier2_met) == (2, True)


def test_every_literal_names_an_edge_case() -> None:
    # The literals above belong to these datasets: a renamed or removed case must be dumped again.
    assert {key for key, _ in BUNDLE} <= set(CASES)


def test_sep1730_a_stable_release_shortly_before_the_spec_supports_it(
    judged: dict[str, GovernanceSignals],
) -> None:
    # v1.1.0 came 30 hours before the spec release: officially too early (more than 24 h), so
    # the days since the spec decide (50 → fail). SEP-1730's Tier 1 wants support *before* the
    # spec release: it passes, 1.25 days early → gap Math.round(-1.25) = -1.
    spec = judged["spec-sdk-30h-before"].spec_tracking
    assert spec.status == "fail"
    assert (spec.sep1730.status, spec.sep1730.latest_sdk_release, spec.sep1730.days_gap) == (
        "pass",
        "v1.1.0",
        -1,
    )
    assert spec.disagrees_with_official


def test_sep1730_only_stable_releases_answer_a_spec(judged: dict[str, GovernanceSignals]) -> None:
    # v1.1.0-rc.1 (10 days after the spec, which is 90 days old) answers officially (pass); the
    # only stable release, v1.0.0, came 110 days before the spec → none in the window, and the
    # spec is 90 days old → fail, within six months.
    spec = judged["spec-prerelease-answers"].spec_tracking
    assert (spec.status, spec.days_gap) == ("pass", 10)
    sep = spec.sep1730
    assert (sep.status, sep.latest_sdk_release, sep.days_gap, sep.within_180d) == (
        "fail",
        None,
        90,
        True,
    )


def test_sep1730_build_metadata_is_not_a_plain_release(
    judged: dict[str, GovernanceSignals],
) -> None:
    # 1.4.0+build.9: officially stable (version "1.4.0+build.9", major 1). SEP-1730's pattern
    # ^[0-9]+\\.[0-9]+\\.[0-9]+$ ends at the patch number: not a stable release.
    release = judged["release-build"].stable_release
    assert (release.version, release.is_stable) == ("1.4.0+build.9", True)
    assert (release.sep1730.is_stable, release.sep1730.newest_release) == (False, "1.4.0+build.9")
    assert release.disagrees_with_official
    assert "build metadata" in release.to_dict()["sep1730"]["departures"].lower()
