"""Scoring conformance results against a requirement set (pure: no I/O).

The rules are the official tier-check's (SEP-1730 as implemented by the harness maintainers):

* a scenario passes iff it has at least one SUCCESS check and no FAILURE check — WARNING, INFO
  and SKIPPED do not count either way, so a scenario with only warnings (or no checks) fails;
* an expected scenario that left no results counts as failed;
* only scored scenarios count: `pass_rate = passed / scored`; status is pass at 1.0, partial at
  0.8 or more, fail below.

Three states are kept apart: *failed* (measured, and a required scenario failed), *skipped*
(the user or the config chose not to run the leg) and *unmeasured* (we tried and could not
measure — the harness crashed or was killed before writing results). Unmeasured is never
reported as "every scenario failed".

A scored failure measured beside other work (legs overlapping, the client scenarios of a leg
run together) is *confirmed* before it counts: the scenario is run again by itself, with nothing
else of tiercheck running, and `confirm_failure` is the one rule for what that decides. A failure
that comes back is a failure. One that does not is *flaky*, a state of its own that every report
shows as flaky; it counts as the run by itself judged it (passed), in the official reading and in
SEP-1730's alike: the official `tier-check` applies the harness's pass rule to a run of each
leg by itself, which is what the confirming run is for that scenario, and SEP-1730 scores tests
by their result, setting one aside only by a dispute. The confirming run that measured nothing
(the server did not start again, the harness wrote nothing) leaves the failure a failure, and
says why it was not confirmed. Both results are kept (`Confirmation.first`).

A single scenario can be unmeasured too: its `checks.json` is unreadable (truncated, not JSON,
not UTF-8, of the wrong shape, nested without end), its folder holds none after a harness that
exited non-zero, or the server had stopped answering when it ran. Such a scenario is neither
passed nor failed and stays out of the counts; a leg with a scored one is unmeasured as a
whole, its reason naming them, because its pass rate (and so the tier) would rest on answers
the SDK never gave.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from tiercheck.config.requirements import RequirementSet
from tiercheck.conformance.results import Check, ScenarioResult
from tiercheck.governance.disputes import DisputeMark
from tiercheck.revisions import Leg

__all__ = [
    "PARTIAL_THRESHOLD",
    "PASS_THRESHOLD",
    "CheckNote",
    "Confirmation",
    "Diagnosis",
    "LegState",
    "LegVerdict",
    "MergedLeg",
    "MergedState",
    "ScenarioVerdict",
    "Status",
    "Totals",
    "confirm_failure",
    "judge_scenario",
    "mark_disputes",
    "merge_revisions",
    "passes",
    "score_leg",
    "sep1730_totals",
    "skipped_leg",
    "status_for",
    "to_confirm",
    "unmeasured_leg",
    "with_confirmations",
    "with_unmeasured",
]

PASS_THRESHOLD = 1.0
PARTIAL_THRESHOLD = 0.8

LegState = Literal["measured", "skipped", "unmeasured"]
MergedState = Literal["measured", "partially-measured", "unmeasured", "skipped"]
Status = Literal["pass", "partial", "fail", "skipped"]
#: What a scenario's run by itself measured, once its failure beside other work was run again.
Alone = Literal["passed", "failed", "unmeasured"]
#: What a report shows of one scenario: `flaky` failed beside other work and passed by itself
#: (it counts as passed); `unmeasured` is neither passed nor failed.
Result = Literal["passed", "flaky", "failed", "unmeasured"]
#: Why a leg the harness ran is unmeasured all the same: what it ran against is no conformance
#: server (none of the fixtures the scenarios call) or no conformance client (nothing any scenario
#: checks for ever happened), so its failures say nothing about the SDK's MCP.
Diagnosis = Literal["not-a-conformance-server", "not-a-conformance-client"]

#: Scenarios found in the results but absent from the requirement set (stale output, or a
#: harness that runs more than the set lists) are shown but never scored.
NOT_IN_SET = "not-in-requirement-set"


def status_for(pass_rate: float) -> Status:
    """pass at 1.0, partial at ≥ 0.8, otherwise fail (the official thresholds)."""
    if pass_rate >= PASS_THRESHOLD:
        return "pass"
    if pass_rate >= PARTIAL_THRESHOLD:
        return "partial"
    return "fail"


@dataclass(frozen=True)
class CheckNote:
    """A failing or warning check, reduced to what a maintainer needs to act on it."""

    id: str
    status: str
    message: str
    spec_url: str | None

    @classmethod
    def of(cls, check: Check) -> CheckNote:
        """Summarise a harness check."""
        return cls(check.id, check.status, check.message, check.spec_url)


@dataclass(frozen=True)
class ScenarioVerdict:
    """One scenario of one leg at one revision, judged.

    `checks_passed`/`checks_failed`/`checks_warned` count checks as written (repeats included,
    as the official tool counts); `failures`/`warnings` list collapsed check ids. `reason`
    explains a failure that no failing check explains (no results, no checks, only warnings,
    unreadable checks.json). `checks` keeps every collapsed check for baselines.
    """

    scenario: str
    revision: str
    passed: bool
    checks_passed: int = 0
    checks_failed: int = 0
    checks_warned: int = 0
    failures: tuple[CheckNote, ...] = ()
    warnings: tuple[CheckNote, ...] = ()
    not_scored_reason: str | None = None
    reason: str | None = None
    results_path: Path | None = None
    checks: tuple[Check, ...] = field(default=(), repr=False)
    #: Why this scenario was not measured (then it is neither passed nor failed).
    unmeasured: str | None = None
    #: The scenario's dispute on the day judged, if the disputes file names it. An open one
    #: leaves it out of the SEP-1730 reading only: the official counts never see it.
    dispute: DisputeMark | None = None
    #: Set when this scenario failed beside other work and was run again by itself: the first
    #: result, and what the run by itself decided (`confirm_failure`). The fields above are then
    #: the run by itself's, unless it measured nothing.
    confirmation: Confirmation | None = field(default=None, repr=False)

    @property
    def disputed(self) -> bool:
        """Whether an open dispute leaves this scenario out of the SEP-1730 reading."""
        return self.dispute is not None and self.dispute.excluded

    @property
    def scored(self) -> bool:
        """Whether this scenario counts toward the leg's pass rate."""
        return self.not_scored_reason is None

    @property
    def measured(self) -> bool:
        """Whether the SDK's answer was measured (else `unmeasured` says why not)."""
        return self.unmeasured is None

    @property
    def flaky(self) -> bool:
        """Whether it failed beside other work and passed by itself (it counts as passed)."""
        return self.confirmation is not None and self.confirmation.flaky

    @property
    def result(self) -> Result:
        """What a report shows: passed, flaky, failed or unmeasured (never confused)."""
        if not self.measured:
            return "unmeasured"
        if self.flaky:
            return "flaky"
        return "passed" if self.passed else "failed"


@dataclass(frozen=True)
class Confirmation:
    """A failure measured beside other work, run again by itself with nothing else of tiercheck
    running: the first result kept whole, what the run by itself measured, and its cost."""

    #: The scenario as the run beside other work judged it (it failed).
    first: ScenarioVerdict
    alone: Alone
    #: Seconds the run by itself took (the server's start again included, shared evenly).
    duration_s: float
    #: Why the run by itself measured nothing (`alone` "unmeasured").
    reason: str | None = None

    @property
    def flaky(self) -> bool:
        """The failure did not come back."""
        return self.alone == "passed"


def to_confirm(leg: LegVerdict) -> tuple[ScenarioVerdict, ...]:
    """The scenarios of a leg whose failure must be confirmed by a run by itself before it
    counts: the scored, measured failures of a measured leg not confirmed yet (a scenario that
    does not count, or a leg that measured nothing, has no verdict to confirm)."""
    if leg.state != "measured":
        return ()
    return tuple(d for d in leg.failing if d.confirmation is None)


def confirm_failure(
    first: ScenarioVerdict,
    alone: ScenarioVerdict | None,
    *,
    duration_s: float,
    reason: str | None = None,
) -> ScenarioVerdict:
    """The one rule for a failure run again by itself (`alone`: its verdict from that run, None
    when the run left nothing to judge, `reason` saying why).

    * failed again: a failure, the run by itself's verdict, the first kept;
    * passed: flaky, counted as the run by itself judged it (passed), the first kept;
    * measured nothing: the first verdict stands (a failure), with why it was not confirmed.

    Raises ValueError for a scenario that did not fail, was not measured or was confirmed.
    """
    if first.passed or not first.measured or first.confirmation is not None:
        msg = f"{first.scenario}: only a measured failure not yet confirmed can be confirmed"
        raise ValueError(msg)
    if alone is None or not alone.measured:
        why = reason or (alone.unmeasured if alone is not None else None) or "no result"
        return replace(first, confirmation=Confirmation(first, "unmeasured", duration_s, why))
    decided: Alone = "passed" if alone.passed else "failed"
    return replace(
        alone,
        not_scored_reason=first.not_scored_reason,
        dispute=first.dispute,
        confirmation=Confirmation(first, decided, duration_s),
    )


def passes(checks: Iterable[Check]) -> bool:
    """The pass rule on a scenario's checks as written: a SUCCESS and no FAILURE."""
    statuses = [c.status for c in checks]
    return "SUCCESS" in statuses and "FAILURE" not in statuses


def judge_scenario(
    name: str,
    revision: str,
    result: ScenarioResult | None,
    *,
    not_scored_reason: str | None = None,
    harness_exit: int = 0,
) -> ScenarioVerdict:
    """Apply the pass rule to one scenario's results (None: the scenario left no results).

    `harness_exit` is how the harness run that wrote `result` ended: after a non-zero exit, a
    scenario folder without `checks.json` is a scenario the harness failed to finish (it threw,
    or was stopped), not an answer of the SDK's.
    """
    if result is None:
        return ScenarioVerdict(
            name, revision, passed=False, not_scored_reason=not_scored_reason, reason="no results"
        )
    unmeasured = _unmeasured_reason(result, harness_exit)
    if unmeasured is not None:
        return ScenarioVerdict(
            name,
            revision,
            passed=False,
            not_scored_reason=not_scored_reason,
            results_path=result.path,
            unmeasured=unmeasured,
        )
    raw = result.raw_checks
    succeeded = sum(c.status == "SUCCESS" for c in raw)
    failed = sum(c.status == "FAILURE" for c in raw)
    warned = sum(c.status == "WARNING" for c in raw)
    passed = passes(raw)
    collapsed = result.checks
    return ScenarioVerdict(
        scenario=name,
        revision=revision,
        passed=passed,
        checks_passed=succeeded,
        checks_failed=failed,
        checks_warned=warned,
        failures=tuple(CheckNote.of(c) for c in collapsed if c.status == "FAILURE"),
        warnings=tuple(CheckNote.of(c) for c in collapsed if c.status == "WARNING"),
        not_scored_reason=not_scored_reason,
        reason=None if passed or failed else _no_pass_reason(raw_count=len(raw), warned=warned),
        results_path=result.path,
        checks=collapsed,
    )


def _unmeasured_reason(result: ScenarioResult, harness_exit: int) -> str | None:
    """Why a scenario's results say nothing about the SDK, or None when they do."""
    if result.parse_error is not None:
        # The official parser counts this as a failed check; but the harness wrote the file,
        # not the SDK, so nothing about the SDK was learnt from it.
        return f"unreadable checks.json: {result.parse_error}"
    if harness_exit != 0 and not result.has_checks_file:
        return f"no checks.json: the harness exited {harness_exit} without writing it"
    return None


def _no_pass_reason(*, raw_count: int, warned: int) -> str:
    """Why a scenario without a failed check did not pass."""
    if raw_count == 0:
        return "no checks (the scenario wrote none)"
    if warned:
        return "only warnings: no check succeeded"
    return "no check succeeded"


@dataclass(frozen=True, kw_only=True)
class Totals:
    """The counts of a leg over its scored scenarios (not-scored ones counted apart).

    Check counts cover scored scenarios only: they explain the pass rate.
    """

    passed: int = 0
    failed: int = 0
    total: int = 0
    pass_rate: float = 0.0
    not_scored_total: int = 0
    not_scored_failed: int = 0
    checks_passed: int = 0
    checks_failed: int = 0
    warnings: int = 0
    #: Scored scenarios that failed beside other work and passed by themselves: in `passed`.
    flaky: int = 0


def _counts(totals: Totals) -> dict[str, Any]:
    """The fields of `totals`, to build a verdict that carries them."""
    return {f.name: getattr(totals, f.name) for f in fields(Totals)}


def sep1730_totals(details: Iterable[ScenarioVerdict]) -> Totals:
    """The counts of SEP-1730's reading: the official ones without the scenarios whose
    dispute is open on the day judged ("excluding tests labeled `disputed` ... until the
    dispute is resolved"). A disputed scenario is neither passed, failed nor not-scored here."""
    return _totals(d for d in details if not d.disputed)


def _totals(details: Iterable[ScenarioVerdict]) -> Totals:
    measured = [d for d in details if d.measured]
    scored = [d for d in measured if d.scored]
    unscored = [d for d in measured if not d.scored]
    passed = sum(d.passed for d in scored)
    total = len(scored)
    return Totals(
        passed=passed,
        failed=total - passed,
        total=total,
        pass_rate=passed / total if total else 0.0,
        not_scored_total=len(unscored),
        not_scored_failed=sum(not d.passed for d in unscored),
        checks_passed=sum(d.checks_passed for d in scored),
        checks_failed=sum(d.checks_failed for d in scored),
        warnings=sum(d.checks_warned for d in scored),
        flaky=sum(d.flaky for d in scored),
    )


@dataclass(frozen=True, kw_only=True)
class LegVerdict(Totals):
    """One leg (server or client) at one revision.

    `state` says whether it was measured; only a measured leg has meaningful numbers. An
    unmeasured leg carries the reason (stderr tail, signal); a skipped one says who chose to skip.
    """

    leg: Leg
    revision: str
    state: LegState
    reason: str | None
    details: tuple[ScenarioVerdict, ...]
    status: Status
    results_dir: Path | None = None
    #: Set on an unmeasured leg whose reason is one of `Diagnosis`.
    diagnosis: Diagnosis | None = None

    @property
    def failing(self) -> tuple[ScenarioVerdict, ...]:
        """Scored scenarios that failed (measured ones: an unmeasured scenario did not fail)."""
        return tuple(d for d in self.details if d.scored and d.measured and not d.passed)


def score_leg(
    leg: Leg,
    revision: str,
    results: Sequence[ScenarioResult],
    requirements: RequirementSet,
    *,
    results_dir: Path | None = None,
    harness_exit: int = 0,
) -> LegVerdict:
    """Judge a leg: every expected scenario, scored or not, plus any extras found.

    Expected scenarios without results fail with reason "no results"; not-scored scenarios
    carry their `notScoredReason` and stay out of the pass rate. A scored scenario that could
    not be measured (see `judge_scenario`) makes the leg unmeasured (`with_unmeasured`).
    """
    by_name = {r.name: r for r in results}
    not_scored = requirements.not_scored_on(leg)
    details: list[ScenarioVerdict] = []
    for name in requirements.expected(leg):
        entry = not_scored.get(name)
        details.append(
            judge_scenario(
                name,
                revision,
                by_name.pop(name, None),
                not_scored_reason=None if entry is None else entry.reason,
                harness_exit=harness_exit,
            )
        )
    details.extend(
        judge_scenario(
            name, revision, result, not_scored_reason=NOT_IN_SET, harness_exit=harness_exit
        )
        for name, result in by_name.items()
    )
    return with_unmeasured(
        leg,
        revision,
        details,
        results_dir=results_dir,
        reason="the harness did not leave readable results",
    )


def with_unmeasured(
    leg: Leg,
    revision: str,
    details: Sequence[ScenarioVerdict],
    *,
    results_dir: Path | None,
    reason: str,
    name_each: bool = True,
) -> LegVerdict:
    """The leg of `details`: measured, or unmeasured when a scored scenario is unmeasured.

    An unmeasured leg keeps its details (what was measured stays visible) and its reason
    starts with `reason`, then (`name_each`) names each unmeasured scored scenario with why;
    without `name_each`, `reason` already says it all.
    """
    t = _totals(details)
    missing = [d for d in details if d.scored and not d.measured]
    state: LegState = "measured"
    why = None
    if missing:
        state = "unmeasured"
        named = "; ".join(f"{d.scenario}: {d.unmeasured}" for d in missing)
        count = f"{len(missing)} scored scenario(s) not measured"
        why = f"{reason}: {count} ({named})" if name_each else reason
    return LegVerdict(
        leg=leg,
        revision=revision,
        state=state,
        reason=why,
        details=tuple(details),
        status=status_for(t.pass_rate) if state == "measured" else "fail",
        results_dir=results_dir,
        **_counts(t),
    )


def with_confirmations(leg: LegVerdict, confirmed: Sequence[ScenarioVerdict]) -> LegVerdict:
    """`leg` with each of `confirmed` (`confirm_failure`'s verdicts) in place of the scenario
    of its name, and its counts and status again. Raises ValueError for a leg not measured or a
    scenario it does not hold."""
    if leg.state != "measured":
        msg = f"{leg.leg} leg {leg.revision}: only a measured leg has failures to confirm"
        raise ValueError(msg)
    by_name = {d.scenario: d for d in confirmed}
    unknown = sorted(set(by_name) - {d.scenario for d in leg.details})
    if unknown:
        msg = f"{leg.leg} leg {leg.revision} has no scenario {unknown[0]}"
        raise ValueError(msg)
    details = tuple(by_name.get(d.scenario, d) for d in leg.details)
    t = _totals(details)
    return replace(leg, details=details, status=status_for(t.pass_rate), **_counts(t))


def unmeasured_leg(
    leg: Leg, revision: str, reason: str, *, results_dir: Path | None = None
) -> LegVerdict:
    """A leg we tried to measure and could not; shaped like the official error result."""
    return LegVerdict(
        leg=leg,
        revision=revision,
        state="unmeasured",
        reason=reason,
        details=(),
        status="fail",
        results_dir=results_dir,
    )


def skipped_leg(leg: Leg, revision: str, reason: str) -> LegVerdict:
    """A leg the user or the configuration chose not to run."""
    return LegVerdict(
        leg=leg,
        revision=revision,
        state="skipped",
        reason=reason,
        details=(),
        status="skipped",
    )


@dataclass(frozen=True, kw_only=True)
class MergedLeg(Totals):
    """One leg across every revision assessed.

    The numbers span every *measured* revision (details are concatenated, never de-duplicated:
    the same scenario at two revisions is two requirements). Unlike the official tool, an
    unmeasured revision does not erase the measured ones; instead `state` becomes
    "partially-measured" and `reason` names the missing revisions. Only a fully measured leg is
    `conclusive`, and only a conclusive leg can support a tier above 3.
    """

    leg: Leg
    state: MergedState
    reason: str | None
    parts: tuple[LegVerdict, ...]
    details: tuple[ScenarioVerdict, ...]
    status: Status

    @property
    def conclusive(self) -> bool:
        """True when every revision was measured."""
        return self.state == "measured"

    @property
    def revisions(self) -> tuple[str, ...]:
        """Every revision assessed, in order."""
        return tuple(p.revision for p in self.parts)

    @property
    def measured_revisions(self) -> tuple[str, ...]:
        """Revisions whose numbers are in the merged totals."""
        return tuple(p.revision for p in self.parts if p.state == "measured")

    @property
    def missing(self) -> tuple[LegVerdict, ...]:
        """Parts that are not measured (unmeasured or skipped), each with its reason."""
        return tuple(p for p in self.parts if p.state != "measured")

    @property
    def failing(self) -> tuple[ScenarioVerdict, ...]:
        """Scored scenarios that failed, across revisions."""
        return tuple(d for d in self.details if d.scored and d.measured and not d.passed)


def _describe(part: LegVerdict) -> str:
    if part.state == "skipped":
        return f"{part.revision}: skipped ({part.reason})"
    return f"{part.revision}: {part.reason}"


def merge_revisions(parts: Sequence[LegVerdict]) -> MergedLeg:
    """Merge one leg's verdicts across revisions (one part is returned as it is, re-shaped).

    all measured → measured; none measured and all skipped → skipped; none measured →
    unmeasured; otherwise partially-measured, with numbers from the measured revisions and a
    reason naming the others. Raises ValueError for no parts or parts of different legs.
    """
    if not parts:
        msg = "merge_revisions needs at least one leg verdict"
        raise ValueError(msg)
    leg = parts[0].leg
    if any(p.leg != leg for p in parts):
        msg = "merge_revisions got verdicts of different legs"
        raise ValueError(msg)
    measured = [p for p in parts if p.state == "measured"]
    missing = [p for p in parts if p.state != "measured"]
    details = tuple(d for p in measured for d in p.details)
    t = _totals(details)
    reason = "; ".join(_describe(p) for p in missing) or None
    state: MergedState
    status: Status
    if not missing:
        state, status = "measured", status_for(t.pass_rate)
    elif not measured and all(p.state == "skipped" for p in parts):
        state, status = "skipped", "skipped"
    elif not measured:
        state, status = "unmeasured", "fail"
    else:
        state, status = "partially-measured", status_for(t.pass_rate)
    return MergedLeg(
        leg=leg,
        state=state,
        reason=reason,
        parts=tuple(parts),
        details=details,
        status=status,
        **_counts(t),
    )


def _marked(
    details: Sequence[ScenarioVerdict], leg: Leg, marks: Mapping[tuple[str, str, str], DisputeMark]
) -> tuple[ScenarioVerdict, ...]:
    return tuple(
        replace(d, dispute=marks.get((d.revision, leg, d.scenario), d.dispute)) for d in details
    )


def mark_disputes(
    merged: MergedLeg, marks: Mapping[tuple[str, str, str], DisputeMark]
) -> MergedLeg:
    """`merged` with each scenario's dispute (keyed by revision, leg and scenario) attached.

    The official counts are not touched: a dispute changes only `sep1730_totals`.
    """
    if not marks:
        return merged
    parts = tuple(replace(p, details=_marked(p.details, merged.leg, marks)) for p in merged.parts)
    return replace(merged, parts=parts, details=_marked(merged.details, merged.leg, marks))
