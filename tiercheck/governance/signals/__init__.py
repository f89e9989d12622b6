"""Governance signals: pure functions of (snapshot, as_of, config), one module per check.

Each check module (`labels`, `triage`, `p0`, `stable_release`, `policy`, `spec_tracking`) keeps
its official reading (the pinned `tier-check` code's, under its field names) and its SEP-1730
reading side by side on the shared `base.Signal`, and carries its own `CHECK` (name, rank and
remediation text) as plain data. This package puts the six together, with `unaddressed`
(issues unaddressed for two months), a SEP-1730 relegation signal that no official check reads
and no tier depends on.

A fact group the collector could not fetch makes the signals that need it `inconclusive` with the
collector's reason. Inconclusive is not fail: the tier logic names it as a blocker of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tiercheck.governance.signals import labels, p0, policy, spec_tracking, stable_release, triage
from tiercheck.governance.signals.base import (
    CheckInfo,
    Signal,
    SignalConfig,
    Status,
    business_seconds,
)
from tiercheck.governance.signals.labels import LabelsSignal, labels_signal
from tiercheck.governance.signals.p0 import P0Signal, p0_signal
from tiercheck.governance.signals.policy import PolicySignal, policy_signal
from tiercheck.governance.signals.spec_tracking import SpecTrackingSignal, spec_tracking_signal
from tiercheck.governance.signals.stable_release import (
    StableReleaseSignal,
    parse_release_version,
    stable_release_signal,
)
from tiercheck.governance.signals.triage import TRIAGE_PASS, TriageSignal, triage_signal
from tiercheck.governance.signals.unaddressed import UnaddressedSignal, unaddressed_signal
from tiercheck.governance.snapshot import Snapshot

__all__ = [
    "CHECKS",
    "CHECK_NAMES",
    "TRIAGE_PASS",
    "CheckInfo",
    "GovernanceSignals",
    "LabelsSignal",
    "P0Signal",
    "PolicySignal",
    "Signal",
    "SignalConfig",
    "SpecTrackingSignal",
    "StableReleaseSignal",
    "Status",
    "TriageSignal",
    "UnaddressedSignal",
    "business_seconds",
    "compute_signals",
    "labels_signal",
    "p0_signal",
    "parse_release_version",
    "policy_signal",
    "spec_tracking_signal",
    "stable_release_signal",
    "triage_signal",
    "unaddressed_signal",
]

#: Each check's name, rank and remediation, in the official scorecard's order.
CHECKS: tuple[CheckInfo, ...] = (
    labels.CHECK,
    triage.CHECK,
    p0.CHECK,
    stable_release.CHECK,
    policy.CHECK,
    spec_tracking.CHECK,
)

#: The official scorecard's names for the six governance checks, in its order.
CHECK_NAMES = tuple(check.name for check in CHECKS)


@dataclass(frozen=True)
class GovernanceSignals:
    """The six governance signals of one snapshot at one `as_of`, and the relegation signal."""

    repo: str
    as_of: datetime
    captured_at: datetime
    labels: LabelsSignal
    triage: TriageSignal
    p0_resolution: P0Signal
    stable_release: StableReleaseSignal
    policy_signals: PolicySignal
    spec_tracking: SpecTrackingSignal
    unaddressed_issues: UnaddressedSignal

    def to_dict(self) -> dict[str, Any]:
        """Keys as in the official scorecard's `checks` (plus `as_of` and `captured_at`)."""
        return {
            "repo": self.repo,
            "as_of": self.as_of.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "captured_at": self.captured_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "labels": self.labels.to_dict(),
            "triage": self.triage.to_dict(),
            "p0_resolution": self.p0_resolution.to_dict(),
            "stable_release": self.stable_release.to_dict(),
            "policy_signals": self.policy_signals.to_dict(),
            "spec_tracking": self.spec_tracking.to_dict(),
            "unaddressed_issues": self.unaddressed_issues.to_dict(),
        }


def compute_signals(
    snapshot: Snapshot, as_of: datetime, config: SignalConfig | None = None
) -> GovernanceSignals:
    """All six signals for `snapshot` judged at `as_of` (an aware datetime)."""
    if as_of.tzinfo is None:
        msg = "as_of must be timezone-aware"
        raise ValueError(msg)
    config = config or SignalConfig()
    return GovernanceSignals(
        repo=snapshot.repo,
        as_of=as_of,
        captured_at=snapshot.captured_at,
        labels=labels_signal(snapshot, config),
        triage=triage_signal(snapshot, as_of, config),
        p0_resolution=p0_signal(snapshot, as_of, config),
        stable_release=stable_release_signal(snapshot, config),
        policy_signals=policy_signal(snapshot),
        spec_tracking=spec_tracking_signal(snapshot, as_of, config),
        unaddressed_issues=unaddressed_signal(snapshot, as_of),
    )
