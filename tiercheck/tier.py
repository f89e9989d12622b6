"""The implied tier: pure functions from leg summaries and governance signals to a tier.

Two readings side by side. The default is the official `tier-check` `computeTier`, rule for rule
(blocker names included), extended only where it cannot speak: an *unmeasured* leg or an
*inconclusive* signal is named as a blocker of its own, and an unmeasured leg allows no tier
above 3, because we could not tell. The `sep1730` reading applies SEP-1730 as written: triage
by time to first label, P0 clocked from the label, Tier 2 triage within a month, and a skipped
conformance leg is not by itself a blocker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from tiercheck.governance.signals import (
    TRIAGE_PASS,
    GovernanceSignals,
    LabelsSignal,
    P0Signal,
    SpecTrackingSignal,
    StableReleaseSignal,
    TriageSignal,
)

__all__ = [
    "Blocker",
    "BlockerKind",
    "ImpliedTier",
    "LegState",
    "LegSummary",
    "LegTiers",
    "SepTier",
    "compute_tier",
    "governance_tier",
]

LegState = Literal["measured", "skipped", "unmeasured"]

#: Conformance thresholds: Tier 1 passes every required scenario, Tier 2 at least 80%.
TIER1_PASS_RATE = 1.0
TIER2_PASS_RATE = 0.8


@dataclass(frozen=True)
class LegSummary:
    """What the tier needs to know of one conformance leg (server or client).

    Attributes:
        state: ``measured`` (it ran; `pass_rate` is meaningful), ``skipped`` (the user or the
            config chose not to run it) or ``unmeasured`` (we tried and could not measure).
        pass_rate: passed / (passed + failed) over the scored scenarios, 0.0–1.0.
        reason: why the leg was skipped or unmeasured (shown in the blocker).
    """

    state: LegState
    pass_rate: float = 0.0
    reason: str | None = None
    #: SEP-1730's pass rate when it differs from the official one: without the scenarios
    #: whose dispute is open on the day judged (None: no scenario is disputed).
    sep1730_pass_rate: float | None = None

    def sep1730(self) -> LegSummary:
        """This leg as SEP-1730 reads it (its pass rate without disputed scenarios)."""
        if self.sep1730_pass_rate is None:
            return self
        return LegSummary(self.state, self.sep1730_pass_rate, self.reason)


BlockerKind = Literal["failed", "unmeasured", "inconclusive", "skipped"]


@dataclass(frozen=True)
class Blocker:
    """One thing between the SDK and a tier, as data.

    `check` is the official check name (``server_conformance``, ``triage``, …), `qualifier` the
    rule's variant (``< 80%``, ``14 days``), `reason` why it was not measured. The official
    blocker string (``p0_resolution (14 days) (inconclusive: rate limited)``) is `str(blocker)`,
    rendered from these fields and never parsed back.
    """

    check: str
    tier: int
    kind: BlockerKind = "failed"
    qualifier: str | None = None
    reason: str | None = None

    def __str__(self) -> str:
        text = f"{self.check} ({self.qualifier})" if self.qualifier else self.check
        if self.kind == "skipped":
            return f"{text} (skipped)"
        if self.kind == "unmeasured":
            return f"{text} (unmeasured: {self.reason or 'no reason recorded'})"
        if self.kind == "inconclusive":
            return f"{text} (inconclusive: {self.reason or 'no data'})"
        return text


Blockers = tuple[Blocker, ...]


@dataclass(frozen=True)
class SepTier:
    """The SEP-1730 reading of the same evidence."""

    tier: int
    blockers: Blockers
    tier2_met: bool
    tier2_blockers: Blockers
    skipped_legs: tuple[str, ...]


@dataclass(frozen=True)
class LegTiers:
    """The tier one side of the SDK alone would earn (modelcontextprotocol#2306, #2144).

    The server side alone: the same rules with the client leg taken as measured at 100% and
    governance as it is; the client side alone likewise. Shown beside the implied tier, never
    instead of it. None where that leg was skipped (nothing was measured to say it with).
    """

    server: int | None
    client: int | None
    sep1730_server: int | None
    sep1730_client: int | None


@dataclass(frozen=True)
class ImpliedTier:
    """The official `implied_tier` (same field names) plus why Tier 2 failed and SEP-1730's view.

    `tier2_blockers` is ours: the unmet Tier 2 conditions, which the official JSON leaves the
    reader to work out.
    """

    tier: int
    tier1_blockers: Blockers
    tier2_met: bool
    note: str
    tier2_blockers: Blockers
    sep1730: SepTier
    legs: LegTiers | None = None

    @property
    def disagrees_with_official(self) -> bool:
        """True when SEP-1730 as written implies a different tier."""
        return self.sep1730.tier != self.tier


def _leg_tier1_official(name: str, leg: LegSummary) -> Blocker | None:
    if leg.state == "skipped":
        return Blocker(name, 1, "skipped", reason=leg.reason)
    if leg.state == "unmeasured":
        return Blocker(name, 1, "unmeasured", reason=leg.reason)
    return Blocker(name, 1) if leg.pass_rate < TIER1_PASS_RATE else None


def _leg_tier2(name: str, leg: LegSummary) -> Blocker | None:
    if leg.state == "skipped":
        return None
    if leg.state == "unmeasured":
        return Blocker(name, 2, "unmeasured", reason=leg.reason)
    return Blocker(name, 2, qualifier="< 80%") if leg.pass_rate < TIER2_PASS_RATE else None


def _signal_blocker(
    name: str,
    tier: int,
    status: str,
    reason: str | None,
    met: bool,
    *,
    qualifier: str | None = None,
) -> Blocker | None:
    if status == "inconclusive":
        return Blocker(name, tier, "inconclusive", qualifier, reason)
    if status == "skipped" and not met:
        # Not measured by choice (--skip-governance): named as such, never as a failure.
        return Blocker(name, tier, "skipped", qualifier, reason)
    return None if met else Blocker(name, tier, qualifier=qualifier)


def _official_tier1(
    triage: TriageSignal,
    p0: P0Signal,
    release: StableReleaseSignal,
    spec: SpecTrackingSignal,
    labels: LabelsSignal,
) -> list[Blocker | None]:
    return [
        _signal_blocker(
            "triage", 1, triage.status, triage.reason, triage.compliance_rate >= TRIAGE_PASS
        ),
        _signal_blocker("p0_resolution", 1, p0.status, p0.reason, p0.all_p0s_resolved_within_7d),
        _signal_blocker("stable_release", 1, release.status, release.reason, release.is_stable),
        _signal_blocker("spec_tracking", 1, spec.status, spec.reason, spec.status != "fail"),
        _signal_blocker("labels", 1, labels.status, labels.reason, not labels.missing),
    ]


def _settle(
    tier1: list[Blocker | None], tier2: list[Blocker | None]
) -> tuple[int, Blockers, Blockers]:
    """(tier, Tier 1 blockers, Tier 2 blockers): Tier 1 without blockers, else 2 if met, else 3."""
    blockers = tuple(b for b in tier1 if b)
    tier2_blockers = tuple(b for b in tier2 if b)
    tier = 1 if not blockers else 2 if not tier2_blockers else 3
    return tier, blockers, tier2_blockers


def _sep_tier(server: LegSummary, client: LegSummary, signals: GovernanceSignals) -> SepTier:
    # "Excluding tests labeled `disputed` ... until the dispute is resolved": each leg's
    # SEP-1730 pass rate leaves out the scenarios whose dispute is open that day.
    legs = {"server_conformance": server.sep1730(), "client_conformance": client.sep1730()}
    skipped = tuple(name for name, leg in legs.items() if leg.state == "skipped")
    tier1: list[Blocker | None] = []
    for name, leg in legs.items():
        if leg.state == "unmeasured":
            tier1.append(Blocker(name, 1, "unmeasured", reason=leg.reason))
        elif leg.state == "measured" and leg.pass_rate < TIER1_PASS_RATE:
            tier1.append(Blocker(name, 1))
    if len(skipped) == len(legs):
        # A skipped leg alone does not block, but a tier needs some conformance evidence.
        tier1.append(Blocker("conformance", 1, qualifier="no leg measured"))
    triage = signals.triage.sep1730
    p0 = signals.p0_resolution.sep1730
    release = signals.stable_release.sep1730
    spec = signals.spec_tracking.sep1730
    labels = signals.labels
    release_reason = signals.stable_release.reason
    spec_reason = signals.spec_tracking.reason
    tier1 += [
        _signal_blocker("triage", 1, triage.status, triage.reason, triage.tier1_met),
        _signal_blocker("p0_resolution", 1, p0.status, p0.reason, p0.within_7d),
        _signal_blocker("stable_release", 1, release.status, release_reason, release.is_stable),
        _signal_blocker("spec_tracking", 1, spec.status, spec_reason, spec.status != "fail"),
        _signal_blocker("labels", 1, labels.sep_status, labels.reason, not labels.sep_missing),
    ]
    tier2: list[Blocker | None] = [_leg_tier2(name, leg) for name, leg in legs.items()]
    if len(skipped) == len(legs):
        tier2.append(Blocker("conformance", 2, qualifier="no leg measured"))
    tier2 += [
        _signal_blocker(
            "triage", 2, triage.status, triage.reason, triage.tier2_met, qualifier="within a month"
        ),
        _signal_blocker(
            "p0_resolution", 2, p0.status, p0.reason, p0.within_14d, qualifier="14 days"
        ),
        _signal_blocker("stable_release", 2, release.status, release_reason, release.is_stable),
        _signal_blocker(
            "spec_tracking",
            2,
            spec.status,
            spec_reason,
            spec.status == "skipped" or spec.within_180d,
            qualifier="6 months",
        ),
    ]
    tier, blockers, tier2_blockers = _settle(tier1, tier2)
    return SepTier(tier, blockers, not tier2_blockers, tier2_blockers, skipped)


def _note(tier: int, blockers: Blockers, sep: SepTier) -> str:
    parts = [
        f"Implied Tier {tier} from automated checks; documentation, dependency policy and "
        "roadmap are not judged here"
    ]
    if any(b.kind in ("unmeasured", "inconclusive") for b in blockers):
        parts.append("some evidence could not be measured, so this tier is a lower bound")
    if sep.tier != tier:
        parts.append(f"SEP-1730 as written implies Tier {sep.tier}")
    return "; ".join(parts) + "."


def compute_tier(server: LegSummary, client: LegSummary, signals: GovernanceSignals) -> ImpliedTier:
    """The implied tier by the official rules, with SEP-1730's reading and each side alone
    (`LegTiers`) alongside; see `_implied` for the rules."""
    full = LegSummary("measured", pass_rate=1.0)
    server_alone = _implied(server, full, signals)
    client_alone = _implied(full, client, signals)
    legs = LegTiers(
        server=None if server.state == "skipped" else server_alone.tier,
        client=None if client.state == "skipped" else client_alone.tier,
        sep1730_server=None if server.state == "skipped" else server_alone.sep1730.tier,
        sep1730_client=None if client.state == "skipped" else client_alone.sep1730.tier,
    )
    return replace(_implied(server, client, signals), legs=legs)


def _implied(server: LegSummary, client: LegSummary, signals: GovernanceSignals) -> ImpliedTier:
    """The implied tier by the official rules, with SEP-1730's reading alongside.

    Official (`tier-check` computeTier): Tier 1 blockers are `server_conformance (skipped)` /
    `server_conformance` (pass rate < 100%), the same for the client, `triage` (compliance
    < 0.9), `p0_resolution` (not all within 7 days), `stable_release`, `spec_tracking` (status
    fail) and `labels` (any missing). Tier 2 is met when each leg is skipped or ≥ 80%, every P0
    resolved within 14 days and a stable release exists. Tier 1 without blockers, else Tier 2 if
    met, else Tier 3. Unmeasured legs and inconclusive signals are blockers named with their
    reason; an unmeasured leg, or an inconclusive P0 or release signal, fails Tier 2 too.
    """
    legs = {"server_conformance": server, "client_conformance": client}
    tier1: list[Blocker | None] = [_leg_tier1_official(name, leg) for name, leg in legs.items()]
    tier1 += _official_tier1(
        signals.triage,
        signals.p0_resolution,
        signals.stable_release,
        signals.spec_tracking,
        signals.labels,
    )
    p0 = signals.p0_resolution
    release = signals.stable_release
    tier2: list[Blocker | None] = [_leg_tier2(name, leg) for name, leg in legs.items()]
    tier2 += [
        _signal_blocker(
            "p0_resolution",
            2,
            p0.status,
            p0.reason,
            p0.all_p0s_resolved_within_14d,
            qualifier="14 days",
        ),
        _signal_blocker("stable_release", 2, release.status, release.reason, release.is_stable),
    ]
    tier, blockers, tier2_blockers = _settle(tier1, tier2)
    sep = _sep_tier(server, client, signals)
    return ImpliedTier(
        tier=tier,
        tier1_blockers=blockers,
        tier2_met=not tier2_blockers,
        note=_note(tier, blockers, sep),
        tier2_blockers=tier2_blockers,
        sep1730=sep,
    )


def governance_tier(signals: GovernanceSignals) -> ImpliedTier:
    """The tier governance alone implies: the same rules with both conformance legs at 100%.

    What remains are exactly the governance blockers of Tier 1 and Tier 2, for a command that
    measures no conformance (`tier-check governance`).
    """
    full = LegSummary("measured", pass_rate=1.0)
    return compute_tier(full, full, signals)
