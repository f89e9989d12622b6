"""Applying an expected-failures baseline to scored legs (pure: no I/O).

The official semantics (the harness's `--expected-failures`), per scored scenario:

* listed whole: it fails → *expected failure*; it passes → *stale entry*;
* unlisted: it fails → *unexpected failure*; it passes → normal pass;
* listed per check: each failing check id is expected if listed, unexpected otherwise; a listed
  id whose collapsed verdict is SUCCESS is stale; a listed id that is absent or SKIPPED is
  tolerated (reported as not run).

A baseline never changes whether a scenario passed, so it never changes a tier. It answers a
maintainer's question instead: "did anything change that we have not written down?" — which is
`exit_ok`: False on any unexpected failure or stale entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tiercheck.config.baseline import Baseline, BaselineEntry
from tiercheck.scoring import LegVerdict, ScenarioVerdict

__all__ = ["BaselineOutcome", "BaselineVerdict", "Outcome", "apply_baseline"]

Outcome = Literal["expected-failure", "unexpected-failure", "stale", "not-run"]

# What "fails" means for a baseline. The official baseline counts a WARNING as a failure (the
# server and tier-check rules ignore warnings; see conformance#430) and we keep that, so a
# baseline written for the official harness means the same here. We add one case: a scenario
# our scorer fails without any FAILURE or WARNING (no results, no checks, only SKIPPED) is a
# failure too — otherwise a scored scenario could fail silently under a baseline.
_FAILING_STATUSES = frozenset({"FAILURE", "WARNING"})


@dataclass(frozen=True)
class BaselineOutcome:
    """What the baseline says about one entry, or about one failure no entry covers."""

    outcome: Outcome
    leg: str
    revision: str
    scenario: str
    check: str | None
    entry: BaselineEntry | None
    detail: str

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "outcome": self.outcome,
            "leg": self.leg,
            "revision": self.revision,
            "scenario": self.scenario,
            "check": self.check,
            "entry": None if self.entry is None else self.entry.text,
            "where": None if self.entry is None else self.entry.where,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class BaselineVerdict:
    """Every outcome of one baseline over the legs it was applied to."""

    source: str
    outcomes: tuple[BaselineOutcome, ...]
    normal_passes: int

    def of(self, outcome: Outcome) -> tuple[BaselineOutcome, ...]:
        """The outcomes of one kind."""
        return tuple(o for o in self.outcomes if o.outcome == outcome)

    @property
    def exit_ok(self) -> bool:
        """False on any unexpected failure or stale entry (the official exit rule)."""
        return not any(o.outcome in ("unexpected-failure", "stale") for o in self.outcomes)

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "source": self.source,
            "exit_ok": self.exit_ok,
            "expected_failures": len(self.of("expected-failure")),
            "unexpected_failures": len(self.of("unexpected-failure")),
            "stale": len(self.of("stale")),
            "not_run": len(self.of("not-run")),
            "normal_passes": self.normal_passes,
            "outcomes": [o.to_dict() for o in self.outcomes],
        }


def _fails(verdict: ScenarioVerdict) -> bool:
    return not verdict.passed or verdict.checks_warned > 0


def _why(verdict: ScenarioVerdict) -> str:
    notes = verdict.failures + verdict.warnings
    if notes:
        first = notes[0]
        more = f" (+{len(notes) - 1} more)" if len(notes) > 1 else ""
        return f"{first.id} {first.status}: {first.message}{more}"
    return verdict.reason or "failed"


def _judge_scenario(
    leg: LegVerdict,
    verdict: ScenarioVerdict,
    whole: BaselineEntry | None,
    per_check: dict[str, BaselineEntry],
) -> list[BaselineOutcome]:
    def out(
        outcome: Outcome, check: str | None, entry: BaselineEntry | None, detail: str
    ) -> BaselineOutcome:
        return BaselineOutcome(
            outcome, leg.leg, leg.revision, verdict.scenario, check, entry, detail
        )

    if not verdict.measured:
        # Neither passed nor failed: an entry for it is neither met nor stale.
        why = f"not measured: {verdict.unmeasured}"
        if whole is not None:
            return [out("not-run", None, whole, why)]
        return [out("not-run", c, e, why) for c, e in per_check.items()]
    if whole is not None:
        if _fails(verdict):
            return [out("expected-failure", None, whole, _why(verdict))]
        return [out("stale", None, whole, "the scenario passes now; remove the entry")]
    if not per_check:
        if _fails(verdict):
            return [out("unexpected-failure", None, None, _why(verdict))]
        return []
    results: list[BaselineOutcome] = []
    collapsed = {c.id: c for c in verdict.checks if c.status != "INFO"}
    failing = [c for c in collapsed.values() if c.status in _FAILING_STATUSES]
    for check in failing:
        entry = per_check.get(check.id)
        kind: Outcome = "unexpected-failure" if entry is None else "expected-failure"
        results.append(out(kind, check.id, entry, f"{check.status}: {check.message}"))
    if not failing and not verdict.passed:
        # Failed with no failing check to attribute it to (no results, unreadable, no SUCCESS).
        results.append(out("unexpected-failure", None, None, _why(verdict)))
    for check_id, entry in per_check.items():
        found = collapsed.get(check_id)
        if found is None or found.status in _FAILING_STATUSES:
            if found is None:
                results.append(out("not-run", check_id, entry, "the check did not run"))
            continue
        if found.status == "SUCCESS":
            results.append(out("stale", check_id, entry, "the check passes now; remove the entry"))
        else:
            results.append(out("not-run", check_id, entry, f"the check was {found.status}"))
    return results


def _judge_leg(
    leg: LegVerdict, entries: Sequence[BaselineEntry]
) -> tuple[list[BaselineOutcome], int]:
    if leg.state != "measured":
        detail = f"leg {leg.state} at {leg.revision}: {leg.reason}"
        return [
            BaselineOutcome("not-run", leg.leg, leg.revision, e.scenario, e.check, e, detail)
            for e in entries
        ], 0
    whole = {e.scenario: e for e in entries if e.check is None}
    per_check: dict[str, dict[str, BaselineEntry]] = {}
    for e in entries:
        if e.check is not None:
            per_check.setdefault(e.scenario, {})[e.check] = e
    outcomes: list[BaselineOutcome] = []
    passes = 0
    judged: set[str] = set()
    for verdict in leg.details:
        if not verdict.scored:
            continue  # only scored scenarios are judged, as under the official --requirements
        judged.add(verdict.scenario)
        found = _judge_scenario(
            leg, verdict, whole.get(verdict.scenario), per_check.get(verdict.scenario, {})
        )
        passes += not found and not _fails(verdict)
        outcomes.extend(found)
    by_name = {d.scenario: d for d in leg.details}
    for e in entries:
        if e.scenario in judged:
            continue
        other = by_name.get(e.scenario)
        detail = (
            f"not scored at {leg.revision} ({other.not_scored_reason})"
            if other
            else f"not run on the {leg.leg} leg at {leg.revision}"
        )
        outcomes.append(
            BaselineOutcome("not-run", leg.leg, leg.revision, e.scenario, e.check, e, detail)
        )
    return outcomes, passes


def apply_baseline(baseline: Baseline, legs: Sequence[LegVerdict]) -> BaselineVerdict:
    """Judge each leg verdict (one leg at one revision) against the baseline's entries.

    Unmeasured and skipped legs are not judged: their entries are reported as not run.
    """
    outcomes: list[BaselineOutcome] = []
    passes = 0
    for leg in legs:
        found, leg_passes = _judge_leg(leg, baseline.on(leg.leg))
        outcomes.extend(found)
        passes += leg_passes
    return BaselineVerdict(baseline.source, tuple(outcomes), passes)
