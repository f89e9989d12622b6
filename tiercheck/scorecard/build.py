"""Building the scorecard document from what the pure core computed (pure).

Verdicts, signals and the tier in; a typed `Scorecard` out. This is the one place that knows
how a domain object (a `LegVerdict`, an `ImpliedTier`, a `Blocker`) is written into the
document, so `scoring` and `tier` stay free of JSON concerns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from tiercheck.baseline import BaselineVerdict
from tiercheck.config.resolve import RevisionConfig
from tiercheck.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NOTHING_MEASURED, EXIT_OK
from tiercheck.governance.disputes import DisputeMark
from tiercheck.governance.signals import CHECK_NAMES, GovernanceSignals
from tiercheck.governance.signals.release_date import CandidateRelease, judge_release_by_date
from tiercheck.model import from_json
from tiercheck.revisions import Leg
from tiercheck.scorecard.model import (
    Artifacts,
    BaselineApplied,
    BaselineBlock,
    BaselineEntry,
    BlockerEntry,
    BuildBlock,
    CheckEntry,
    Checks,
    ConfigEntry,
    ConfirmationBlock,
    ConfirmationEntry,
    FirstRunEntry,
    GovernanceBlock,
    HarnessBlock,
    ImpliedTierBlock,
    LegEntry,
    LegSummaryEntry,
    LegTiersBlock,
    MergedLegEntry,
    MissingRevision,
    NotScored,
    ProbesBlock,
    RevisionEntry,
    ScenarioDispute,
    ScenarioEntry,
    Scorecard,
    SdkBlock,
    Sep1730Counts,
    SepTierBlock,
    SignalEntry,
    ToolBlock,
    UnmeasuredEntry,
)
from tiercheck.scoring import (
    CheckNote,
    Confirmation,
    LegVerdict,
    MergedLeg,
    ScenarioVerdict,
    sep1730_totals,
    status_for,
)
from tiercheck.tier import Blocker, ImpliedTier, LegSummary

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_NOTHING_MEASURED",
    "EXIT_OK",
    "ScorecardParts",
    "blocker_entry",
    "build_scorecard",
    "confirmation_block",
    "exit_code_for",
    "implied_tier_block",
    "leg_entry",
    "leg_summary",
    "merged_leg_entry",
    "scenario_entry",
    "signal_entries",
]

_OUTCOME_RANK = {"unexpected-failure": 4, "stale": 3, "expected-failure": 2, "not-run": 1}

Outcomes = Mapping[tuple[str, str, str], str]


def leg_summary(merged: MergedLeg) -> LegSummary:
    """What the tier needs of a merged leg; partially measured counts as unmeasured."""
    sep = sep1730_totals(merged.details).pass_rate if _any_disputed(merged) else None
    if merged.state == "measured":
        return LegSummary("measured", merged.pass_rate, sep1730_pass_rate=sep)
    if merged.state == "skipped":
        return LegSummary("skipped", 0.0, merged.reason)
    return LegSummary("unmeasured", merged.pass_rate, merged.reason, sep)


def _any_disputed(merged: MergedLeg) -> bool:
    return any(d.disputed for d in merged.details)


def exit_code_for(
    server: MergedLeg,
    client: MergedLeg,
    baseline: BaselineVerdict | None,
    *,
    interrupted: bool,
) -> int:
    """The documented exit code (`errors.EXIT_CODES`): 130 interrupted; 3 when no leg was
    measured at any revision (every one skipped or unmeasured); 1 on a failed scored scenario,
    an unmeasured leg or (with a baseline) an unexpected failure or stale entry; else 0."""
    if interrupted:
        return EXIT_INTERRUPTED
    legs = (server, client)
    if all(leg.state in ("skipped", "unmeasured") for leg in legs):
        return EXIT_NOTHING_MEASURED
    if any(leg.state in ("unmeasured", "partially-measured") for leg in legs):
        return EXIT_FAILED
    if baseline is not None:
        return EXIT_OK if baseline.exit_ok else EXIT_FAILED
    return EXIT_FAILED if any(leg.failed > 0 for leg in legs) else EXIT_OK


def _check_entry(note: CheckNote) -> CheckEntry:
    return CheckEntry(id=note.id, status=note.status, message=note.message, spec_url=note.spec_url)


def scenario_entry(verdict: ScenarioVerdict, outcomes: Outcomes, leg: str) -> ScenarioEntry:
    """One judged scenario as the document writes it, with its baseline outcome if any."""
    outcome = outcomes.get((verdict.revision, leg, verdict.scenario))
    return ScenarioEntry(
        scenario=verdict.scenario,
        passed=verdict.passed,
        checks_passed=verdict.checks_passed,
        checks_failed=verdict.checks_failed,
        revision=verdict.revision,
        not_scored_reason=verdict.not_scored_reason,
        checks_warned=verdict.checks_warned,
        reason=verdict.reason,
        failures=tuple(_check_entry(n) for n in verdict.failures),
        warnings=tuple(_check_entry(n) for n in verdict.warnings),
        results_path=None if verdict.results_path is None else str(verdict.results_path),
        baseline=outcome,  # type: ignore[arg-type]
        unmeasured=verdict.unmeasured,
        dispute=None if verdict.dispute is None else _dispute(verdict.dispute),
        confirmation=None if verdict.confirmation is None else _confirmation(verdict.confirmation),
    )


def _confirmation(confirmation: Confirmation) -> ConfirmationEntry:
    """A failure run again by itself, as the document writes it: what that run measured, its
    cost, and the first result."""
    first = confirmation.first
    return ConfirmationEntry(
        alone=confirmation.alone,
        duration_s=round(confirmation.duration_s, 3),
        reason=confirmation.reason,
        first=FirstRunEntry(
            passed=first.passed,
            checks_passed=first.checks_passed,
            checks_failed=first.checks_failed,
            checks_warned=first.checks_warned,
            reason=first.reason,
            failures=tuple(_check_entry(n) for n in first.failures),
            results_path=None if first.results_path is None else str(first.results_path),
        ),
    )


def confirmation_block(
    legs: Sequence[LegVerdict], rerun: int | None, duration_s: float
) -> ConfirmationBlock | None:
    """What confirming the failures of `legs` by themselves found and cost (None: the step
    did not run). The counts are read from the scenarios' recorded confirmations."""
    if rerun is None:
        return None
    done = [d.confirmation for leg in legs for d in leg.details if d.confirmation is not None]
    return ConfirmationBlock(
        rerun=rerun,
        duration_s=round(duration_s, 3),
        flaky=sum(c.alone == "passed" for c in done),
        failed=sum(c.alone == "failed" for c in done),
        unconfirmed=sum(c.alone == "unmeasured" for c in done),
    )


def _dispute(mark: DisputeMark) -> ScenarioDispute:
    """The scorecard's record of a dispute: the mark's fields, by name."""
    return ScenarioDispute(
        **{f.name: getattr(mark, f.name) for f in dataclasses.fields(ScenarioDispute)}
    )


def sep1730_counts(merged: MergedLeg) -> Sep1730Counts | None:
    """A merged leg's counts without its disputed scenarios (None: no scenario has a dispute)."""
    if not any(d.dispute is not None for d in merged.details):
        return None
    t = sep1730_totals(merged.details)
    status = merged.status if merged.state in ("skipped", "unmeasured") else status_for(t.pass_rate)
    return Sep1730Counts(
        status=status,
        pass_rate=t.pass_rate,
        passed=t.passed,
        failed=t.failed,
        total=t.total,
        disputed=sum(d.disputed and d.measured and d.scored for d in merged.details),
    )


def _counts(leg: LegVerdict | MergedLeg, *, error: str | None) -> dict[str, Any]:
    """The official count fields (`LegCounts`) every leg object starts with."""
    return {
        "status": leg.status,
        "pass_rate": leg.pass_rate,
        "passed": leg.passed,
        "failed": leg.failed,
        "total": leg.total,
        "not_scored": NotScored(total=leg.not_scored_total, failed=leg.not_scored_failed),
        "error": error,
    }


def _leg_summary_entry(leg: LegVerdict) -> LegSummaryEntry:
    return LegSummaryEntry(
        **_counts(leg, error=leg.reason if leg.state == "unmeasured" else None),
        leg=leg.leg,
        revision=leg.revision,
        state=leg.state,
        reason=leg.reason,
        diagnosis=leg.diagnosis,
        checks_passed=leg.checks_passed,
        checks_failed=leg.checks_failed,
        warnings=leg.warnings,
        flaky=leg.flaky,
        results_dir=None if leg.results_dir is None else str(leg.results_dir),
    )


def leg_entry(
    leg: LegVerdict, outcomes: Outcomes | None = None, duration_s: float | None = None
) -> LegEntry:
    """One leg at one revision: the official conformance-result keys, then ours."""
    summary = _leg_summary_entry(leg)
    # Every field of the summary, plus the scenarios and the time: shallow, not `asdict`, so
    # the nested models stay models.
    shared = {f.name: getattr(summary, f.name) for f in dataclasses.fields(summary)}
    return LegEntry(
        **shared,
        details=tuple(scenario_entry(d, outcomes or {}, leg.leg) for d in leg.details),
        duration_s=duration_s,
    )


def merged_leg_entry(merged: MergedLeg, outcomes: Outcomes | None = None) -> MergedLegEntry:
    """One leg across revisions: the official merged keys, then ours."""
    missing = merged.state in ("unmeasured", "partially-measured")
    return MergedLegEntry(
        **_counts(merged, error=merged.reason if missing else None),
        details=tuple(scenario_entry(d, outcomes or {}, merged.leg) for d in merged.details),
        leg=merged.leg,
        state=merged.state,
        reason=merged.reason,
        conclusive=merged.conclusive,
        revisions=merged.revisions,
        measured_revisions=merged.measured_revisions,
        missing_revisions=tuple(
            MissingRevision(revision=p.revision, state=p.state, reason=p.reason)
            for p in merged.missing
        ),
        checks_passed=merged.checks_passed,
        checks_failed=merged.checks_failed,
        warnings=merged.warnings,
        flaky=merged.flaky,
        by_revision={p.revision: _leg_summary_entry(p) for p in merged.parts},
        sep1730=sep1730_counts(merged),
    )


def blocker_entry(blocker: Blocker) -> BlockerEntry:
    """A blocker as data, with its official string."""
    return BlockerEntry(
        check=blocker.check,
        tier=blocker.tier,
        kind=blocker.kind,
        qualifier=blocker.qualifier,
        reason=blocker.reason,
        text=str(blocker),
    )


def implied_tier_block(implied: ImpliedTier) -> ImpliedTierBlock:
    """The official `implied_tier` fields, then the Tier 2 blockers, SEP-1730's reading and the
    blockers as data (both tiers)."""
    sep = implied.sep1730
    return ImpliedTierBlock(
        tier=implied.tier,
        tier1_blockers=tuple(str(b) for b in implied.tier1_blockers),
        tier2_met=implied.tier2_met,
        note=implied.note,
        tier2_blockers=tuple(str(b) for b in implied.tier2_blockers),
        sep1730=SepTierBlock(
            tier=sep.tier,
            blockers=tuple(str(b) for b in sep.blockers),
            tier2_met=sep.tier2_met,
            tier2_blockers=tuple(str(b) for b in sep.tier2_blockers),
            skipped_legs=sep.skipped_legs,
            blocker_details=tuple(blocker_entry(b) for b in (*sep.blockers, *sep.tier2_blockers)),
        ),
        disagrees_with_official=implied.disagrees_with_official,
        blocker_details=tuple(
            blocker_entry(b) for b in (*implied.tier1_blockers, *implied.tier2_blockers)
        ),
        leg_tiers=(
            LegTiersBlock(
                server=implied.legs.server,
                client=implied.legs.client,
                sep1730_server=implied.legs.sep1730_server,
                sep1730_client=implied.legs.sep1730_client,
            )
            if implied.legs
            else None
        ),
    )


@dataclass(frozen=True)
class ScorecardParts:
    """Everything that goes into one scorecard, already computed.

    Every block arrives typed: the document's own blocks as their steps built them, and the
    domain objects (verdicts, signals, resolved configurations, probe reports) that this module
    alone knows how to write into the document.
    """

    repo: str
    branch: str | None
    finished_at: datetime
    revisions: Sequence[str]
    sdk: SdkBlock
    harness: HarnessBlock
    tiercheck: ToolBlock
    server: MergedLeg
    client: MergedLeg
    per_revision: Mapping[str, Mapping[str, LegVerdict]]
    server_urls: Mapping[str, str]
    configs: Mapping[str, RevisionConfig]
    #: The six governance checks under their official names (`signal_entries`).
    checks: Mapping[str, SignalEntry]
    governance: GovernanceBlock
    implied_tier: ImpliedTier
    stable_version: str | None
    baseline: BaselineVerdict | None
    #: (revision, leg) → the baseline file applied there.
    baseline_files: Mapping[tuple[str, Leg], str]
    build: BuildBlock | None
    unmeasured: Sequence[tuple[str, str]]
    timings: Mapping[str, float]
    artifacts: Artifacts
    interrupted: bool
    exit_code: int
    #: Revision → the advisory probes' report.
    probes: Mapping[str, ProbesBlock] = field(default_factory=dict)
    #: Tag → the day the SDK's GitHub release of that tag came out
    #: (`governance.signals.release_date.published_days`; empty without governance).
    release_days: Mapping[str, date] = field(default_factory=dict)
    #: Failures run again by themselves, and the wall seconds it took (None: not run).
    rerun: int | None = None
    rerun_s: float = 0.0


def _baseline_by_scenario(baseline: BaselineVerdict | None) -> dict[tuple[str, str, str], str]:
    """(revision, leg, scenario) → the scenario's baseline outcome (worst of its entries)."""
    found: dict[tuple[str, str, str], str] = {}
    for outcome in baseline.outcomes if baseline else ():
        key = (outcome.revision, outcome.leg, outcome.scenario)
        if _OUTCOME_RANK.get(outcome.outcome, 0) >= _OUTCOME_RANK.get(found.get(key, "pass"), 0):
            found[key] = outcome.outcome
    return found


def _baseline_block(parts: ScorecardParts) -> BaselineBlock | None:
    verdict = parts.baseline
    if verdict is None:
        return None
    by_revision: dict[str, list[str]] = {}
    for (revision, _), path in parts.baseline_files.items():
        if path not in by_revision.setdefault(revision, []):
            by_revision[revision].append(path)
    return BaselineBlock(
        exit_ok=verdict.exit_ok,
        files={revision: ", ".join(paths) for revision, paths in by_revision.items()},
        applied=tuple(
            BaselineApplied(revision=revision, leg=leg, file=path)
            for (revision, leg), path in parts.baseline_files.items()
        ),
        expected_failures=len(verdict.of("expected-failure")),
        unexpected_failures=len(verdict.of("unexpected-failure")),
        stale=len(verdict.of("stale")),
        entries=tuple(
            BaselineEntry(
                outcome=o.outcome,
                leg=o.leg,
                revision=o.revision,
                scenario=o.scenario,
                check=o.check,
                entry=None if o.entry is None else o.entry.text,
                where=None if o.entry is None else o.entry.where,
                detail=o.detail,
            )
            for o in verdict.outcomes
        ),
    )


def _revision_entry(parts: ScorecardParts, revision: str, outcomes: Outcomes) -> RevisionEntry:
    legs = parts.per_revision[revision]
    return RevisionEntry(
        server=leg_entry(legs["server"], outcomes, parts.timings.get(f"server {revision}")),
        client=leg_entry(legs["client"], outcomes, parts.timings.get(f"client {revision}")),
        server_url=parts.server_urls.get(revision),
        config=_config_block(parts.configs.get(revision)),
        probes=_probes_block(parts, revision),
    )


def _config_block(config: RevisionConfig | None) -> dict[str, ConfigEntry]:
    if config is None:
        return {}
    return {
        key: from_json(ConfigEntry, dict(item), f"config.{key}")
        for key, item in config.to_dict().items()
    }


#: The relegation signal's key in `checks` (beside the six official ones).
UNADDRESSED = "unaddressed_issues"


def _probes_block(parts: ScorecardParts, revision: str) -> ProbesBlock | None:
    return parts.probes.get(revision)


def signal_entries(signals: GovernanceSignals) -> dict[str, SignalEntry]:
    """The six signals as the document's `checks` entries, under their official names, then
    `unaddressed_issues` (no official check)."""
    everything = signals.to_dict()
    return {
        name: from_json(SignalEntry, dict(everything[name]), f"checks.{name}")
        for name in (*CHECK_NAMES, UNADDRESSED)
    }


def _assessed_release(parts: ScorecardParts) -> CandidateRelease | None:
    """The release the commit assessed is, to offer to the release-date rule: `sdk.release`
    when the ref assessed names that very tag (`@stable` resolved to it, or the tag itself
    named) and it is stable with a known GitHub release day; None otherwise (the commit may be
    past its release: only the checkout could tell, and the spec-tracking reading stands)."""
    sdk = parts.sdk
    release = sdk.release
    if release is None or not release.stable or release.tag not in (sdk.tag, sdk.ref):
        return None
    published = parts.release_days.get(release.tag)
    if published is None:
        return None
    return CandidateRelease(tag=release.tag, published=published, stable=True, commits_after=0)


def _measured_at(parts: ScorecardParts, revision: str) -> bool:
    """Whether a leg at `revision` was measured (a leg skipped or unmeasured says nothing of
    what the release supports)."""
    legs = parts.per_revision.get(revision, {})
    return any(verdict.state == "measured" for verdict in legs.values())


def _release_date_rule(parts: ScorecardParts) -> SignalEntry:
    """The spec-tracking entry with the release-date rule kept for the revisions scored; at a
    revision measured on a commit that is itself a stable release (`_assessed_release`)
    published by the revision's release day, that release answers: by the release date."""
    spec = parts.checks["spec_tracking"]
    rule = spec.facts.get("by_release_date")
    if not isinstance(rule, list):
        return spec
    assessed = _assessed_release(parts)
    kept = []
    for item in rule:
        revision = item.get("revision")
        if revision not in parts.revisions:
            continue
        spec_day = item.get("spec_released")
        judged = (
            judge_release_by_date(
                revision, date.fromisoformat(spec_day), str(item.get("spec_source")), assessed
            )
            if assessed is not None and isinstance(spec_day, str) and _measured_at(parts, revision)
            else None
        )
        settled = judged is not None and judged.status == "by the release date"
        kept.append(judged.to_dict() if judged is not None and settled else item)
    return replace(spec, facts={**spec.facts, "by_release_date": kept})


def build_scorecard(parts: ScorecardParts) -> Scorecard:
    """The scorecard document, without `remediation` (which the report layer derives)."""
    outcomes = _baseline_by_scenario(parts.baseline)
    return Scorecard(
        repo=parts.repo,
        branch=parts.branch,
        timestamp=parts.finished_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        version=parts.stable_version,
        requirements_revisions=tuple(parts.revisions),
        checks=Checks(
            conformance=merged_leg_entry(parts.server, outcomes),
            client_conformance=merged_leg_entry(parts.client, outcomes),
            **{name: parts.checks[name] for name in CHECK_NAMES if name != "spec_tracking"},
            spec_tracking=_release_date_rule(parts),
            unaddressed_issues=parts.checks.get(UNADDRESSED),
        ),
        implied_tier=implied_tier_block(parts.implied_tier),
        remediation=(),
        tiercheck=parts.tiercheck,
        sdk=parts.sdk,
        harness=parts.harness,
        revisions={rev: _revision_entry(parts, rev, outcomes) for rev in parts.per_revision},
        baseline=_baseline_block(parts),
        build=parts.build,
        governance=parts.governance,
        unmeasured=tuple(UnmeasuredEntry(what=w, reason=r) for w, r in parts.unmeasured),
        timings=dict(parts.timings),
        artifacts=parts.artifacts,
        interrupted=parts.interrupted,
        exit_code=parts.exit_code,
        confirmation=confirmation_block(
            [leg for legs in parts.per_revision.values() for leg in legs.values()],
            parts.rerun,
            parts.rerun_s,
        ),
    )
