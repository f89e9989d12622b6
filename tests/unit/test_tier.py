"""Table-driven tests of the implied tier: every official blocker, Tier 2 condition and the
SEP-1730 reading beside it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from tiercheck.governance.signals import GovernanceSignals, compute_signals
from tiercheck.governance.snapshot import (
    IssueFacts,
    LabelFacts,
    PolicyFileFacts,
    Release,
    ReleaseFacts,
    Snapshot,
)
from tiercheck.model import to_json
from tiercheck.scorecard.build import implied_tier_block
from tiercheck.tier import Blocker, LegSummary, compute_tier

AS_OF = datetime(2025, 6, 16, 12, tzinfo=UTC)
T = datetime(2025, 3, 26, tzinfo=UTC)
FULL = LegSummary("measured", 1.0)


def _perfect() -> GovernanceSignals:
    """A repository that meets everything: all labels, no issues, a stable release 5 days
    after the spec release."""
    labels = (
        "bug enhancement question|needs confirmation|needs repro|ready for work|"
        "good first issue|help wanted|P0|P1|P2|P3"
    )
    snapshot = Snapshot(
        repo="example/sdk",
        captured_at=AS_OF,
        api_base="http://127.0.0.1",
        authenticated=True,
        labels=LabelFacts(
            names=tuple(labels.replace(" ", "|", 2).split("|")), uses_issue_types=False
        ),
        issues=IssueFacts(issues=(), truncated=False, timeline_reason=None),
        releases=ReleaseFacts(
            releases=(Release("v1.2.0", None, False, False, T.replace(day=31), T.replace(day=31)),),
            truncated=False,
        ),
        spec_releases=ReleaseFacts(
            releases=(Release("2025-03-26", None, False, False, T, T),), truncated=False
        ),
        policy_files=PolicyFileFacts(paths=(), source="git-tree", truncated=False),
    )
    return compute_signals(snapshot, AS_OF)


PERFECT = _perfect()
Change = Callable[[GovernanceSignals], GovernanceSignals]


def triage(rate: float, status: str = "partial") -> Change:
    return lambda s: replace(s, triage=replace(s.triage, compliance_rate=rate, status=status))


def inconclusive(name: str) -> Change:
    def change(s: GovernanceSignals) -> GovernanceSignals:
        signal = getattr(s, name)
        return replace(s, **{name: replace(signal, status="inconclusive", reason="HTTP 502")})

    return change


def p0(within_7: bool, within_14: bool) -> Change:
    return lambda s: replace(
        s,
        p0_resolution=replace(
            s.p0_resolution,
            status="fail",
            all_p0s_resolved_within_7d=within_7,
            all_p0s_resolved_within_14d=within_14,
        ),
    )


def unstable(s: GovernanceSignals) -> GovernanceSignals:
    return replace(s, stable_release=replace(s.stable_release, status="fail", is_stable=False))


def spec(status: str) -> Change:
    return lambda s: replace(s, spec_tracking=replace(s.spec_tracking, status=status))


def missing_label(s: GovernanceSignals) -> GovernanceSignals:
    return replace(s, labels=replace(s.labels, status="fail", missing=("P3",)))


def same(s: GovernanceSignals) -> GovernanceSignals:
    return s


SKIPPED = LegSummary("skipped", reason="no client configured")
UNMEASURED = LegSummary("unmeasured", reason="server never became ready")

# (id, server, client, change, tier, tier1_blockers, tier2_met)
OFFICIAL = [
    ("all-met", FULL, FULL, same, 1, [], True),
    ("server-skipped", SKIPPED, FULL, same, 2, ["server_conformance (skipped)"], True),
    ("client-skipped", FULL, SKIPPED, same, 2, ["client_conformance (skipped)"], True),
    ("server-90", LegSummary("measured", 0.9), FULL, same, 2, ["server_conformance"], True),
    ("client-80", FULL, LegSummary("measured", 0.8), same, 2, ["client_conformance"], True),
    ("server-79", LegSummary("measured", 0.79), FULL, same, 3, ["server_conformance"], False),
    ("client-50", FULL, LegSummary("measured", 0.5), same, 3, ["client_conformance"], False),
    (
        "server-unmeasured",
        UNMEASURED,
        FULL,
        same,
        3,
        ["server_conformance (unmeasured: server never became ready)"],
        False,
    ),
    (
        "client-unmeasured",
        FULL,
        LegSummary("unmeasured", reason="harness crashed"),
        same,
        3,
        ["client_conformance (unmeasured: harness crashed)"],
        False,
    ),
    ("triage-0.89", FULL, FULL, triage(0.89), 2, ["triage"], True),
    ("triage-0.9", FULL, FULL, triage(0.9, "pass"), 1, [], True),
    (
        "triage-inconclusive",
        FULL,
        FULL,
        inconclusive("triage"),
        2,
        ["triage (inconclusive: HTTP 502)"],
        True,
    ),
    ("p0-14d", FULL, FULL, p0(False, True), 2, ["p0_resolution"], True),
    ("p0-slow", FULL, FULL, p0(False, False), 3, ["p0_resolution"], False),
    (
        "p0-inconclusive",
        FULL,
        FULL,
        inconclusive("p0_resolution"),
        3,
        ["p0_resolution (inconclusive: HTTP 502)"],
        False,
    ),
    ("no-stable", FULL, FULL, unstable, 3, ["stable_release"], False),
    (
        "release-inconclusive",
        FULL,
        FULL,
        inconclusive("stable_release"),
        3,
        ["stable_release (inconclusive: HTTP 502)"],
        False,
    ),
    ("spec-fail", FULL, FULL, spec("fail"), 2, ["spec_tracking"], True),
    ("spec-skipped", FULL, FULL, spec("skipped"), 1, [], True),
    (
        "spec-inconclusive",
        FULL,
        FULL,
        inconclusive("spec_tracking"),
        2,
        ["spec_tracking (inconclusive: HTTP 502)"],
        True,
    ),
    ("labels-missing", FULL, FULL, missing_label, 2, ["labels"], True),
    (
        "labels-inconclusive",
        FULL,
        FULL,
        inconclusive("labels"),
        2,
        ["labels (inconclusive: HTTP 502)"],
        True,
    ),
    (
        "everything",
        SKIPPED,
        LegSummary("measured", 0.95),
        lambda s: missing_label(spec("fail")(triage(0.5, "fail")(s))),
        2,
        ["server_conformance (skipped)", "client_conformance", "triage", "spec_tracking", "labels"],
        True,
    ),
]


@pytest.mark.parametrize(
    ("server", "client", "change", "expected"),
    [(*case[1:4], case[4:]) for case in OFFICIAL],
    ids=[case[0] for case in OFFICIAL],
)
def test_official_tier(
    server: LegSummary,
    client: LegSummary,
    change: Change,
    expected: tuple[int, list[str], bool],
) -> None:
    tier, blockers, tier2_met = expected
    result = compute_tier(server, client, change(PERFECT))
    assert result.tier == tier
    assert [str(b) for b in result.tier1_blockers] == blockers
    assert result.tier2_met is tier2_met
    assert bool(result.tier2_blockers) is not tier2_met
    data = to_json(implied_tier_block(result))
    assert {"tier", "tier1_blockers", "tier2_met", "note"} <= set(data)
    assert data["note"].startswith(f"Implied Tier {tier}")


def sep_triage(rate_bd: float, rate_month: float) -> Change:
    return lambda s: replace(
        s,
        triage=replace(
            s.triage,
            sep1730=replace(
                s.triage.sep1730, rate_2_business_days=rate_bd, rate_1_month=rate_month
            ),
        ),
    )


def sep_p0(within_7: bool, within_14: bool) -> Change:
    return lambda s: replace(
        s,
        p0_resolution=replace(
            s.p0_resolution,
            sep1730=replace(s.p0_resolution.sep1730, within_7d=within_7, within_14d=within_14),
        ),
    )


def sep_spec(within_30: bool, within_180: bool) -> Change:
    return lambda s: replace(
        s,
        spec_tracking=replace(
            s.spec_tracking,
            sep1730=replace(
                s.spec_tracking.sep1730,
                status="pass" if within_30 else "fail",
                within_30d=within_30,
                within_180d=within_180,
            ),
        ),
    )


def alias_labels(s: GovernanceSignals) -> GovernanceSignals:
    # Officially missing P3, but "priority: low" is configured as its alias.
    return replace(s, labels=replace(s.labels, status="fail", missing=("P3",)))


# (id, server, client, change, sep tier, sep blockers, sep tier2_met)
SEP = [
    ("all-met", FULL, FULL, same, 1, [], True),
    ("one-leg-skipped", SKIPPED, FULL, same, 1, [], True),
    ("both-skipped", SKIPPED, SKIPPED, same, 3, ["conformance (no leg measured)"], False),
    (
        "unmeasured",
        UNMEASURED,
        FULL,
        same,
        3,
        ["server_conformance (unmeasured: server never became ready)"],
        False,
    ),
    ("server-85", LegSummary("measured", 0.85), FULL, same, 2, ["server_conformance"], True),
    ("triage-slow-but-monthly", FULL, FULL, sep_triage(0.5, 0.8), 2, ["triage"], True),
    ("triage-not-monthly", FULL, FULL, sep_triage(0.5, 0.7), 3, ["triage"], False),
    ("p0-14d", FULL, FULL, sep_p0(False, True), 2, ["p0_resolution"], True),
    ("p0-slow", FULL, FULL, sep_p0(False, False), 3, ["p0_resolution"], False),
    ("spec-6-months", FULL, FULL, sep_spec(False, True), 2, ["spec_tracking"], True),
    ("spec-late", FULL, FULL, sep_spec(False, False), 3, ["spec_tracking"], False),
    ("alias-label", FULL, FULL, alias_labels, 1, [], True),
]


@pytest.mark.parametrize(
    ("server", "client", "change", "expected"),
    [(*case[1:4], case[4:]) for case in SEP],
    ids=[case[0] for case in SEP],
)
def test_sep1730_tier(
    server: LegSummary,
    client: LegSummary,
    change: Change,
    expected: tuple[int, list[str], bool],
) -> None:
    tier, blockers, tier2_met = expected
    result = compute_tier(server, client, change(PERFECT)).sep1730
    assert result.tier == tier
    assert [str(b) for b in result.blockers] == blockers
    assert result.tier2_met is tier2_met


def test_disagreement_is_flagged_and_noted() -> None:
    result = compute_tier(SKIPPED, FULL, PERFECT)
    assert (result.tier, result.sep1730.tier) == (2, 1)
    data = to_json(implied_tier_block(result))
    assert data["disagrees_with_official"] is True
    assert data["sep1730"]["skipped_legs"] == ["server_conformance"]
    assert "SEP-1730 as written implies Tier 1" in data["note"]


def test_inconclusive_tier_is_called_a_lower_bound() -> None:
    result = compute_tier(FULL, FULL, inconclusive("triage")(PERFECT))
    assert "lower bound" in result.note


def test_perfect_fixture_really_is_perfect() -> None:
    assert PERFECT.labels.missing == ()
    assert PERFECT.triage.compliance_rate == 1.0
    assert PERFECT.stable_release.is_stable
    assert (PERFECT.spec_tracking.status, PERFECT.spec_tracking.days_gap) == ("pass", 5)


def test_blockers_are_data_and_render_the_official_strings() -> None:
    # Hand-worked: an unmeasured client blocks both tiers under one name; an inconclusive P0
    # signal blocks Tier 1 and, with the 14-day qualifier, Tier 2.
    unmeasured = LegSummary("unmeasured", 0.0, "harness exited with code 1")
    result = compute_tier(FULL, unmeasured, inconclusive("p0_resolution")(PERFECT))
    assert result.tier1_blockers[0] == Blocker(
        "client_conformance", 1, "unmeasured", None, "harness exited with code 1"
    )
    assert [(b.check, b.tier, b.kind, b.qualifier) for b in result.tier2_blockers] == [
        ("client_conformance", 2, "unmeasured", None),
        ("p0_resolution", 2, "inconclusive", "14 days"),
    ]
    assert [str(b) for b in result.tier2_blockers] == [
        "client_conformance (unmeasured: harness exited with code 1)",
        "p0_resolution (14 days) (inconclusive: HTTP 502)",
    ]
    data = to_json(implied_tier_block(result))
    assert data["tier2_blockers"] == [str(b) for b in result.tier2_blockers]
    assert [d["text"] for d in data["blocker_details"]] == [
        *data["tier1_blockers"],
        *data["tier2_blockers"],
    ]


@pytest.mark.parametrize(
    ("blocker", "text"),
    [
        (Blocker("labels", 1), "labels"),
        (Blocker("server_conformance", 2, qualifier="< 80%"), "server_conformance (< 80%)"),
        (Blocker("server_conformance", 1, "skipped", reason="x"), "server_conformance (skipped)"),
        (Blocker("triage", 1, "inconclusive"), "triage (inconclusive: no data)"),
        (
            Blocker("client_conformance", 1, "unmeasured"),
            "client_conformance (unmeasured: no reason recorded)",
        ),
        (Blocker("p0_resolution", 2, "skipped", "14 days"), "p0_resolution (14 days) (skipped)"),
    ],
)
def test_blocker_strings(blocker: Blocker, text: str) -> None:
    assert str(blocker) == text
