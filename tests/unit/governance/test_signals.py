"""Every signal against numbers worked out by hand from the dataset in governance_fixtures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from support.governance_fixtures import AS_OF, LABEL_ALIASES, collect_from, running
from tiercheck.governance.signals import (
    GovernanceSignals,
    SignalConfig,
    business_seconds,
    compute_signals,
    parse_release_version,
)
from tiercheck.governance.signals.base import js_parse_int, js_round
from tiercheck.governance.snapshot import Snapshot, dump_snapshot, load_snapshot, save_snapshot

CONFIG = SignalConfig(label_aliases=LABEL_ALIASES)


@pytest.fixture(scope="module")
def snapshot() -> Iterator[Snapshot]:
    with running() as fake:
        yield collect_from(fake)


@pytest.fixture(scope="module")
def signals(snapshot: Snapshot) -> GovernanceSignals:
    return compute_signals(snapshot, AS_OF, CONFIG)


def test_pull_requests_and_nothing_else_are_dropped(snapshot: Snapshot) -> None:
    assert not isinstance(snapshot.issues, str)
    numbers = [i.number for i in snapshot.issues.issues]  # type: ignore[union-attr]
    assert numbers == [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]


def test_labels(signals: GovernanceSignals) -> None:
    labels = signals.labels
    # 12 required; "P3" is only present as the alias "priority: low"; "Needs Confirmation"
    # matches case-insensitively.
    assert (labels.status, labels.present, labels.required) == ("fail", 11, 12)
    assert labels.missing == ("P3",)
    assert labels.uses_issue_types is False
    assert labels.sep_status == "pass"
    assert labels.sep_missing == ()
    assert labels.to_dict()["sep1730"]["aliases_applied"] == {"priority: low": "P3"}
    assert labels.disagrees_with_official


def test_triage_official(signals: GovernanceSignals) -> None:
    triage = signals.triage
    # Open at as_of: #3 #4 #5 #6 #9 #11 (6); labelled now: all but #5 → 5/6 → partial, and the
    # rate is reported unrounded, as the official JSON has it.
    # Unlabelled ages: #5 only, Fri 12:00 → Mon 12:00 = 72 h (> 48 h → exceeding).
    assert triage.total_issues == 6
    assert triage.triaged_within_sla == 5
    assert triage.compliance_rate == 5 / 6
    assert triage.status == "partial"
    assert (triage.exceeding_sla, triage.median_hours, triage.p95_hours) == (1, 72.0, 72.0)
    assert triage.days_analyzed is None


def test_triage_sep1730(signals: GovernanceSignals) -> None:
    sep = signals.triage.sep1730
    # Window since 03-18: #1 #3 #4 #5 #7 #8 #9 #11 considered (8); #6 bot-opened excluded.
    # Business hours to first human non-author label: #1 24, #3 40, #4 72, #8 6, #9 2, #11 1;
    # #7 never (bot label only; closed unlabelled, which is not triage); #5 pending (24 h so far).
    # Within 2 BD: #1 #3 #8 #9 #11 = 5; breached: #4 #7 = 2 → 5/7 = 0.7143 → fail.
    # Within a month: #7 breached too (never labelled, 76 days old) → 6/7 = 0.8571.
    assert (sep.issues_considered, sep.bot_issues_excluded) == (8, 1)
    assert (sep.within_2_business_days, sep.breached_2_business_days) == (5, 2)
    assert sep.pending_2_business_days == 1
    assert sep.rate_2_business_days == 0.7143
    assert sep.status == "fail"
    assert (sep.within_1_month, sep.breached_1_month, sep.rate_1_month) == (6, 1, 0.8571)
    assert sep.labelled == 6
    assert sep.self_or_bot_labels_ignored == 2  # alice on #4, github-actions[bot] on #7
    # Sorted [1, 2, 6, 24, 40, 72]: median (6 + 24) / 2 = 15; p95 nearest rank 6 → 72.
    assert (sep.median_business_hours, sep.p95_business_hours) == (15.0, 72.0)
    # Only #1 had a response from someone else (maint after 6 h); #4's were alice and a bot.
    assert (sep.first_response_count, sep.first_response_median_hours) == (1, 6.0)
    assert not sep.tier1_met
    assert sep.tier2_met
    assert signals.triage.disagrees_with_official


def test_p0_official(signals: GovernanceSignals) -> None:
    p0 = signals.p0_resolution
    # Labelled P0 now: #8 (closed after 8 d), #9 (open, 4.5 d → Math.round → 5), #10 (closed
    # after 31 d).
    assert p0.open_p0s == 1
    assert [d.to_dict() for d in p0.open_p0_details] == [
        {"number": 9, "title": "security hole", "age_days": 5}
    ]
    assert (p0.closed_total, p0.closed_within_7d, p0.closed_within_14d) == (2, 0, 1)
    assert not p0.all_p0s_resolved_within_7d
    assert not p0.all_p0s_resolved_within_14d
    assert p0.status == "fail"


def test_p0_sep1730(signals: GovernanceSignals) -> None:
    sep = signals.p0_resolution.sep1730
    # #8: P0 label 05-05 → closed 05-09 = 4 d. #9 open 4.4 d since its label: not late yet.
    # #10 ended before the 365-day window; #11 was downgraded to P1 after a day.
    assert (sep.episodes, sep.resolved_total, sep.resolved_within_7d) == (3, 1, 1)
    assert (sep.open_p0s, sep.downgraded, sep.label_time_unknown) == (1, 1, 0)
    assert sep.within_7d
    assert sep.within_14d
    assert sep.status == "pass"
    assert signals.p0_resolution.disagrees_with_official


def test_stable_release(signals: GovernanceSignals) -> None:
    release = signals.stable_release
    # Official: the draft v2.0.0 is skipped, so the first is v2.0.0-rc.1 → not stable.
    assert (release.version, release.is_prerelease, release.is_stable) == (
        "2.0.0-rc.1",
        True,
        False,
    )
    assert release.status == "fail"
    # Ours: the newest stable semver is v1.9.0; the newer rc does not hide it.
    sep = release.sep1730
    assert (sep.version, sep.tag, sep.is_stable, sep.newest_release) == (
        "1.9.0",
        "v1.9.0",
        True,
        "v2.0.0-rc.1",
    )
    assert release.disagrees_with_official


def test_spec_tracking(signals: GovernanceSignals) -> None:
    spec = signals.spec_tracking
    # Spec releases: 2025-06-18 is after as_of, draft-x is a prerelease → 2025-03-26.
    # Official: the oldest-listed SDK release published no earlier than a day before it is
    # v1.8.0-beta.1 (04-01) → 6 days → pass; both are reported by `published_at`.
    assert (spec.latest_spec_release, spec.latest_sdk_release, spec.days_gap) == (
        "2025-03-26T00:00:00Z",
        "2025-04-01T00:00:00Z",
        6,
    )
    assert spec.status == "pass"
    assert spec.sdk_release_within_30d
    # Ours: only stable releases answer a spec: v1.8.0 on 05-05 → 40 days → fail (< 180 d).
    sep = spec.sep1730
    assert (sep.latest_sdk_release, sep.days_gap, sep.within_30d, sep.within_180d) == (
        "v1.8.0",
        40,
        False,
        True,
    )
    assert spec.disagrees_with_official


def test_policy_files(signals: GovernanceSignals) -> None:
    policy = signals.policy_signals
    # Exact official paths present: CHANGELOG.md, .github/dependabot.yml, docs/roadmap.md.
    assert {path for path, found in policy.files.items() if found} == {
        "CHANGELOG.md",
        ".github/dependabot.yml",
        "docs/roadmap.md",
    }
    assert policy.status == "partial"  # security, contributing, versioning missing
    # Ours also finds .github/SECURITY.md and CONTRIBUTING.rst; docs/guide/ is too deep.
    assert dict(policy.categories) == {
        "changelog": ("CHANGELOG.md",),
        "security": (".github/SECURITY.md",),
        "contributing": ("CONTRIBUTING.rst",),
        "dependency_policy": (".github/dependabot.yml",),
        "roadmap": ("docs/roadmap.md",),
        "versioning": (),
    }
    assert policy.sep_status == "partial"


def test_official_field_names_are_present(signals: GovernanceSignals) -> None:
    data = signals.to_dict()
    official = {
        "labels": {"status", "present", "required", "missing", "found", "uses_issue_types"},
        "triage": {
            "status",
            "compliance_rate",
            "total_issues",
            "triaged_within_sla",
            "exceeding_sla",
            "median_hours",
            "p95_hours",
            "days_analyzed",
        },
        "p0_resolution": {
            "status",
            "open_p0s",
            "open_p0_details",
            "closed_within_7d",
            "closed_within_14d",
            "closed_total",
            "all_p0s_resolved_within_7d",
            "all_p0s_resolved_within_14d",
        },
        "stable_release": {"status", "version", "is_stable", "is_prerelease"},
        "policy_signals": {"status", "files"},
        "spec_tracking": {
            "status",
            "latest_spec_release",
            "latest_sdk_release",
            "sdk_release_within_30d",
            "days_gap",
        },
    }
    for name, keys in official.items():
        assert keys <= set(data[name]), name
        assert "sep1730" in data[name]
        assert "disagrees_with_official" in data[name]


def test_same_snapshot_and_as_of_give_byte_identical_json(
    snapshot: Snapshot, tmp_path: Path
) -> None:
    path = tmp_path / "snap.json"
    save_snapshot(snapshot, path)
    first = json.dumps(
        compute_signals(load_snapshot(path), AS_OF, CONFIG).to_dict(), sort_keys=True
    )
    second = json.dumps(
        compute_signals(load_snapshot(path), AS_OF, CONFIG).to_dict(), sort_keys=True
    )
    direct = json.dumps(compute_signals(snapshot, AS_OF, CONFIG).to_dict(), sort_keys=True)
    assert first == second == direct
    assert dump_snapshot(load_snapshot(path)) == path.read_text(encoding="utf-8")


def test_ages_follow_as_of_not_the_clock(snapshot: Snapshot) -> None:
    later = compute_signals(snapshot, datetime(2025, 6, 21, 12, tzinfo=UTC), CONFIG)
    # Five days later #9 is 9.5 days old (official age Math.round(9.5) = 10); 9.4 days since its
    # P0 label is over SEP's 7 days but within 14 → partial.
    assert later.p0_resolution.open_p0_details[0].age_days == 10
    assert later.p0_resolution.sep1730.status == "partial"
    # And #12 (created 06-16 13:00) is now an open unlabelled issue: 7 open, 5 labelled.
    assert (later.triage.total_issues, later.triage.triaged_within_sla) == (7, 5)


@pytest.mark.parametrize(
    ("start", "end", "hours"),
    [
        ("2025-06-06T18:00:00+00:00", "2025-06-10T10:00:00+00:00", 40),  # Fri → Tue
        ("2025-06-07T10:00:00+00:00", "2025-06-08T10:00:00+00:00", 0),  # within a weekend
        ("2025-06-07T10:00:00+00:00", "2025-06-09T03:00:00+00:00", 3),  # Sat → Mon 03:00
        ("2025-06-02T00:00:00+00:00", "2025-06-30T00:00:00+00:00", 20 * 24),  # four weeks
        ("2025-06-02T09:00:00+00:00", "2025-06-02T08:00:00+00:00", 0),  # end before start
    ],
)
def test_business_seconds(start: str, end: str, hours: int) -> None:
    assert business_seconds(datetime.fromisoformat(start), datetime.fromisoformat(end)) == (
        hours * 3600
    )


@pytest.mark.parametrize(
    ("tag", "prefix", "expected"),
    [
        ("v1.2.3", None, "1.2.3"),
        ("rmcp-v3.1.4", None, "3.1.4"),
        ("rmcp-v3.1.4", "rmcp-v", "3.1.4"),
        ("rmcp-macros-v0.1.0", "rmcp-v", None),
        ("pkg@1.2.0-rc.1", None, "1.2.0-rc.1"),
        ("server/v2.0.0+build.5", None, "2.0.0+build.5"),
        ("release-2024", None, None),
        ("v1.2", None, None),
    ],
)
def test_parse_release_version(tag: str, prefix: str | None, expected: str | None) -> None:
    parsed = parse_release_version(tag, prefix)
    assert (parsed.text if parsed else None) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # ECMAScript Math.round: the nearest integer, a half rounds towards +∞.
        (4.5, 5),
        (2.5, 3),  # Python's round gives 2
        (-0.5, 0),
        (-1.25, -1),
        (-1.5, -1),
        (0.49999999999999994, 0),  # floor(x + 0.5) would say 1
        (30.4, 30),
        (30.6, 31),
    ],
)
def test_js_round(value: float, expected: int) -> None:
    assert js_round(value) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ECMAScript parseInt(text, 10): white space, a sign, then ASCII digits; else NaN.
        ("1", 1),
        ("12abc", 12),
        (" \u00a0-3", -3),
        ("+7", 7),
        ("\u0663", None),  # ARABIC-INDIC DIGIT THREE is no JavaScript digit
        ("v1", None),
        ("", None),
    ],
)
def test_js_parse_int(text: str, expected: int | None) -> None:
    assert js_parse_int(text) == expected
