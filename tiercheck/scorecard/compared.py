"""A scorecard in the form the one comparison rule reads (`tiercheck.comparison`), pure.

The diff of two scorecards, the claim's changes and the matrix's rows each start from here, so
a scorecard is read one way wherever it is compared: every leg `readings.legs` lists, each
scenario's outcome, scoring and dispute as the run recorded them, and the run's tier (None
when it measured nothing, `readings.measured_nothing`).
"""

from __future__ import annotations

from tiercheck.comparison import LegOutcome, RunScenarios, ScenarioOutcome
from tiercheck.scorecard.model import ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import failure_message, legs, measured_nothing

__all__ = ["GOVERNANCE_SIGNALS", "governance_inconclusive", "run_scenarios", "scenario_outcome"]

#: The official governance checks a run's tier stands on (`Checks.signal`).
GOVERNANCE_SIGNALS = (
    "labels",
    "triage",
    "p0_resolution",
    "stable_release",
    "policy_signals",
    "spec_tracking",
)


def governance_inconclusive(doc: Scorecard) -> bool:
    """Whether some governance signal of the run could not be read."""
    return any(doc.checks.signal(name).status == "inconclusive" for name in GOVERNANCE_SIGNALS)


def scenario_outcome(revision: str, leg: str, detail: ScenarioEntry) -> ScenarioOutcome:
    """One scenario of a scorecard as the comparison reads it."""
    outcome = detail.outcome
    return ScenarioOutcome(
        revision,
        leg,
        detail.scenario,
        outcome,
        detail.scored,
        failure_message(detail) if outcome == "failed" else None,
        disputed=detail.disputed,
    )


def run_scenarios(doc: Scorecard) -> RunScenarios:
    """A scorecard in the form `tiercheck.comparison` compares: every leg of `legs(doc)`."""
    views = list(legs(doc))
    return RunScenarios(
        harness_version=doc.harness.version,
        legs=tuple(LegOutcome(v.revision, v.leg, v.state, v.reason or None) for v in views),
        scenarios=tuple(scenario_outcome(v.revision, v.leg, d) for v in views for d in v.details),
        tier=None if measured_nothing(doc) else doc.implied_tier.tier,
        requirements_digest=doc.tiercheck.requirements_digest,
        interrupted=doc.interrupted,
        governance_inconclusive=governance_inconclusive(doc),
        definitions=doc.harness.definitions,
    )
