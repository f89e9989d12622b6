"""The implied tier: pure functions from leg summaries and governance signals to a tier.

Two readings side by side. The default is the official `tier-check` `computeTier`, rule for rule
(blocker names included), extended only where it cannot speak: an *unmeasured* leg or an
*inconclusive* signal is named as a blocker of its own, and an unmeasured leg allows no tier
above 3, because we could not tell. The `sep1730` reading applies SEP-1730 as written: triage
by time to first label, P0 clocked from the label, Tier 2 triage within a month, and a skipped
conformance leg is not by itself a blocker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tiercheck.governance.signals import (
    TRIAGE_PASS,
    GovernanceSignals,
    LabelsSignal,
    P0Signal,
    SpecTrackingSignal,
    StableReleaseSignal,
    TriageSignal,
)

__all__ = ["ImpliedTier", "LegState", "LegSummary", "SepTier", "compute_tier"]

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


@dataclass(frozen=True)
class SepTier:
    """The SEP-1730 reading of the same evidence."""

    tier: int
    blockers: tuple[str, ...]
    tier2_met: bool
    tier2_blockers: tuple[str, ...]
    skipped_legs: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the SEP-1730 reading."""
        return {
            "tier": self.tier,
            "blockers": list(self.blockers),
            "tier2_met": self.tier2_met,
            "tier2_blockers": list(self.tier2_blockers),
            "skipped_legs": list(self.skipped_legs),
        }


@dataclass(frozen=True)
class ImpliedTier:
    """The official `implied_tier` (same field names) plus why Tier 2 failed and SEP-1730's view.

    `tier2_blockers` is ours: the unmet Tier 2 conditions, which the official JSON leaves the
    reader to work out.
    """

    tier: int
    tier1_blockers: tuple[str, ...]
    tier2_met: bool
    note: str
    tier2_blockers: tuple[str, ...]
    sep1730: SepTier

    @property
    def disagrees_with_official(self) -> bool:
        """True when SEP-1730 as written implies a different tier."""
        return self.sep1730.tier != self.tier

    def to_dict(self) -> dict[str, Any]:
        """Official `implied_tier` fields plus `tier2_blockers`, `sep1730` and the flag."""
        return {
            "tier": self.tier,
            "tier1_blockers": list(self.tier1_blockers),
            "tier2_met": self.tier2_met,
            "note": self.note,
            "tier2_blockers": list(self.tier2_blockers),
            "sep1730": self.sep1730.to_dict(),
            "disagrees_with_official": self.disagrees_with_official,
        }


def _inconclusive(name: str, reason: str | None) -> str:
    return f"{name} (inconclusive: {reason or 'no data'})"


def _unmeasured(name: str, leg: LegSummary) -> str:
    return f"{name} (unmeasured: {leg.reason or 'no reason recorded'})"


def _leg_tier1_official(name: str, leg: LegSummary) -> str | None:
    if leg.state == "skipped":
        return f"{name} (skipped)"
    if leg.state == "unmeasured":
        return _unmeasured(name, leg)
    return name if leg.pass_rate < TIER1_PASS_RATE else None


def _leg_tier2(name: str, leg: LegSummary) -> str | None:
    if leg.state == "skipped":
        return None
    if leg.state == "unmeasured":
        return _unmeasured(name, leg)
    return f"{name} (< 80%)" if leg.pass_rate < TIER2_PASS_RATE else None


def _signal_blocker(name: str, status: str, reason: str | None, met: bool) -> str | None:
    if status == "inconclusive":
        return _inconclusive(name, reason)
    if status == "skipped" and not met:
        # Not measured by choice (--skip-governance): named as such, never as a failure.
        return f"{name} (skipped)"
    return None if met else name


def _official_tier1(
    triage: TriageSignal,
    p0: P0Signal,
    release: StableReleaseSignal,
    spec: SpecTrackingSignal,
    labels: LabelsSignal,
) -> list[str | None]:
    return [
        _signal_blocker(
            "triage", triage.status, triage.reason, triage.compliance_rate >= TRIAGE_PASS
        ),
        _signal_blocker("p0_resolution", p0.status, p0.reason, p0.all_p0s_resolved_within_7d),
        _signal_blocker("stable_release", release.status, release.reason, release.is_stable),
        _signal_blocker("spec_tracking", spec.status, spec.reason, spec.status != "fail"),
        _signal_blocker("labels", labels.status, labels.reason, not labels.missing),
    ]


def _sep_tier(server: LegSummary, client: LegSummary, signals: GovernanceSignals) -> SepTier:
    legs = {"server_conformance": server, "client_conformance": client}
    skipped = tuple(name for name, leg in legs.items() if leg.state == "skipped")
    tier1: list[str | None] = []
    for name, leg in legs.items():
        if leg.state == "unmeasured":
            tier1.append(_unmeasured(name, leg))
        elif leg.state == "measured" and leg.pass_rate < TIER1_PASS_RATE:
            tier1.append(name)
    if len(skipped) == len(legs):
        # A skipped leg alone does not block, but a tier needs some conformance evidence.
        tier1.append("conformance (no leg measured)")
    triage = signals.triage.sep1730
    p0 = signals.p0_resolution.sep1730
    release = signals.stable_release.sep1730
    spec = signals.spec_tracking.sep1730
    labels = signals.labels
    tier1 += [
        _signal_blocker("triage", triage.status, triage.reason, triage.tier1_met),
        _signal_blocker("p0_resolution", p0.status, p0.reason, p0.within_7d),
        _signal_blocker(
            "stable_release", release.status, signals.stable_release.reason, release.is_stable
        ),
        _signal_blocker(
            "spec_tracking", spec.status, signals.spec_tracking.reason, spec.status != "fail"
        ),
        _signal_blocker("labels", labels.sep_status, labels.reason, not labels.sep_missing),
    ]
    tier2: list[str | None] = [_leg_tier2(name, leg) for name, leg in legs.items()]
    if len(skipped) == len(legs):
        tier2.append("conformance (no leg measured)")
    tier2 += [
        _signal_blocker("triage (within a month)", triage.status, triage.reason, triage.tier2_met),
        _signal_blocker("p0_resolution (14 days)", p0.status, p0.reason, p0.within_14d),
        _signal_blocker(
            "stable_release", release.status, signals.stable_release.reason, release.is_stable
        ),
        _signal_blocker(
            "spec_tracking (6 months)",
            spec.status,
            signals.spec_tracking.reason,
            spec.status == "skipped" or spec.within_180d,
        ),
    ]
    blockers = tuple(b for b in tier1 if b)
    tier2_blockers = tuple(b for b in tier2 if b)
    tier2_met = not tier2_blockers
    tier = 1 if not blockers else 2 if tier2_met else 3
    return SepTier(tier, blockers, tier2_met, tier2_blockers, skipped)


def _note(tier: int, blockers: tuple[str, ...], sep: SepTier) -> str:
    parts = [
        f"Implied Tier {tier} from automated checks; documentation, dependency policy and "
        "roadmap are not judged here"
    ]
    if any("unmeasured" in b or "inconclusive" in b for b in blockers):
        parts.append("some evidence could not be measured, so this tier is a lower bound")
    if sep.tier != tier:
        parts.append(f"SEP-1730 as written implies Tier {sep.tier}")
    return "; ".join(parts) + "."


def compute_tier(server: LegSummary, client: LegSummary, signals: GovernanceSignals) -> ImpliedTier:
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
    tier1: list[str | None] = [_leg_tier1_official(name, leg) for name, leg in legs.items()]
    tier1 += _official_tier1(
        signals.triage,
        signals.p0_resolution,
        signals.stable_release,
        signals.spec_tracking,
        signals.labels,
    )
    p0 = signals.p0_resolution
    release = signals.stable_release
    tier2: list[str | None] = [_leg_tier2(name, leg) for name, leg in legs.items()]
    tier2 += [
        _signal_blocker(
            "p0_resolution (14 days)", p0.status, p0.reason, p0.all_p0s_resolved_within_14d
        ),
        _signal_blocker("stable_release", release.status, release.reason, release.is_stable),
    ]
    blockers = tuple(b for b in tier1 if b)
    tier2_blockers = tuple(b for b in tier2 if b)
    tier2_met = not tier2_blockers
    tier = 1 if not blockers else 2 if tier2_met else 3
    sep = _sep_tier(server, client, signals)
    return ImpliedTier(
        tier=tier,
        tier1_blockers=blockers,
        tier2_met=tier2_met,
        note=_note(tier, blockers, sep),
        tier2_blockers=tier2_blockers,
        sep1730=sep,
    )
