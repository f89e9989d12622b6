"""Building the matrix document from the rows' scorecards (pure).

One builder for both ways a matrix is made: `tier-check matrix` on one machine and
`tier-check matrix merge` over many runners' folders each hand it the planned rows and the
scorecards they found, so the two produce the same document. A row without a scorecard (not
runnable here, a job that left nothing, an unreadable file) is an unmeasured row with its
reason, never a failed one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tiercheck import __version__
from tiercheck.comparison import (
    LegOutcome,
    RunScenarios,
    ScenarioOutcome,
    compare,
    starts_comparisons,
)
from tiercheck.comparison import ScenarioChange as Classified
from tiercheck.matrix.model import (
    SCHEMA_VERSION,
    ChangesBlock,
    LegCell,
    Matrix,
    MatrixRow,
    MatrixTool,
    ProbeCounts,
    ScenarioCell,
    ScenarioChange,
    ScenarioVerdictName,
    TierCell,
    TierChange,
)
from tiercheck.revisions import LEGS, known_revisions
from tiercheck.scorecard.compared import governance_inconclusive
from tiercheck.scorecard.model import LegEntry, ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import flaky_summary, measured_nothing

ServerOrClient = Literal["server", "client"]
RowState = Literal["measured", "unmeasured", "interrupted"]

__all__ = ["RowInput", "build_matrix", "changes_since", "row_id", "run_scenarios"]


def row_id(sdk: str, ref: str | None) -> str:
    """A row's name: NAME@REF, or NAME when the ref is not known."""
    return f"{sdk}@{ref}" if ref else sdk


@dataclass(frozen=True, kw_only=True)
class RowInput:
    """One planned row and what its assessment left: a scorecard, or the reason there is none."""

    id: str
    sdk: str
    repo: str | None
    ref: str | None
    #: The revisions the line claims (known_sdks.yaml): the others are "not-claimed" cells.
    claimed_revisions: tuple[str, ...]
    claimed_tier: int | None = None
    runnable: bool = True
    #: Why there is no scorecard (not runnable, the job left none, it was unreadable).
    reason: str | None = None
    scorecard: Scorecard | None = None
    #: The scorecard's folder, relative to the matrix's folder.
    folder: str | None = None


def build_matrix(
    rows: Sequence[RowInput],
    *,
    run_id: str,
    started_at: str,
    finished_at: str,
    interrupted: bool,
    previous: Matrix | None = None,
) -> Matrix:
    """The matrix of `rows`, in their order; `changes` is filled when `previous` is given."""
    revisions = _revisions(rows)
    built = tuple(_row(r, revisions) for r in rows)
    return Matrix(
        tiercheck=MatrixTool(version=__version__, schema_version=SCHEMA_VERSION),
        run_id=run_id,
        started_at=started_at,
        finished_at=finished_at,
        interrupted=interrupted or any(r.state == "interrupted" for r in built),
        revisions=revisions,
        rows=built,
        changes=None if previous is None else changes_since(previous, built),
    )


def _revisions(rows: Sequence[RowInput]) -> tuple[str, ...]:
    seen: set[str] = set()
    for r in rows:
        seen.update(r.claimed_revisions)
        if r.scorecard is not None:
            seen.update(r.scorecard.revisions)
    # Known revisions in their order first, then anything newer a scorecard names.
    known = known_revisions()
    return tuple(v for v in known if v in seen) + tuple(sorted(seen - set(known)))


def _row_without_scorecard(source: RowInput, revisions: tuple[str, ...]) -> MatrixRow:
    """A row whose assessment left no scorecard: unmeasured, its reason in every cell."""
    why = source.reason or "no scorecard"
    return MatrixRow(
        id=source.id,
        sdk=source.sdk,
        repo=source.repo,
        ref=source.ref,
        commit=None,
        runnable=source.runnable,
        state="unmeasured",
        reason=why,
        tier=None,
        blockers=(),
        legs=tuple(
            _empty_cell(revision, leg, source.claimed_revisions, why)
            for revision in revisions
            for leg in LEGS
        ),
        probes=(),
        scorecard=source.folder,
        exit_code=None,
        duration_s=None,
    )


def _row_state(card: Scorecard, legs: Sequence[LegCell]) -> tuple[RowState, str | None]:
    """Interrupted when the run was, measured when a leg was, else unmeasured with the first
    reason found (`_first_reason`)."""
    if card.interrupted:
        return "interrupted", "interrupted before the row finished"
    if any(c.state == "measured" for c in legs):
        return "measured", None
    return "unmeasured", _first_reason(card, legs)


def _tier_cell(card: Scorecard, source: RowInput, state: RowState) -> TierCell | None:
    """The row's tiers (official, SEP-1730's, the one claimed) and whether a measured row is
    below its claim; None for a row that measured nothing (exit 3: its Tier 3 rests on
    nothing)."""
    if measured_nothing(card):
        return None
    tier = card.implied_tier
    return TierCell(
        official=tier.tier,
        sep1730=tier.sep1730.tier,
        claimed=source.claimed_tier,
        below_claim=state == "measured"
        and source.claimed_tier is not None
        and tier.tier > source.claimed_tier,
        governance_inconclusive=governance_inconclusive(card),
    )


def _row(source: RowInput, revisions: tuple[str, ...]) -> MatrixRow:
    """A row of the matrix: a cell per revision and leg (a revision the line does not claim
    is a not-claimed cell), its state, tiers, probes and timing."""
    card = source.scorecard
    if card is None:
        return _row_without_scorecard(source, revisions)
    claimed = source.claimed_revisions or tuple(card.revisions)
    legs = tuple(
        _cell(card, revision, leg, claimed, interrupted=card.interrupted)
        for revision in revisions
        for leg in LEGS
    )
    state, reason = _row_state(card, legs)
    return MatrixRow(
        id=source.id,
        sdk=source.sdk,
        repo=card.repo or source.repo,
        ref=source.ref,
        commit=card.sdk.commit,
        runnable=source.runnable,
        state=state,
        reason=reason,
        tier=_tier_cell(card, source, state),
        blockers=card.implied_tier.blocker_details,
        legs=legs,
        probes=tuple(
            _probe_counts(revision, card) for revision in revisions if _has_probes(card, revision)
        ),
        scorecard=source.folder,
        exit_code=card.exit_code,
        duration_s=_duration(card),
        trend=card.history.trend if card.history else (),
        harness_version=card.harness.version,
        requirements_digest=card.tiercheck.requirements_digest,
    )


def _duration(card: Scorecard) -> float | None:
    """The row's seconds: its conformance half (checkout to the last leg) and governance."""
    parts = [card.timings[k] for k in ("conformance", "governance") if k in card.timings]
    return round(sum(parts), 3) if parts else None


def _first_reason(card: Scorecard, legs: Sequence[LegCell]) -> str:
    if card.build is not None and card.build.state == "failed" and card.build.reason:
        return f"build failed: {card.build.reason}"
    for entry in card.unmeasured:
        return f"{entry.what}: {entry.reason}"
    for cell in legs:
        if cell.reason:
            return cell.reason
    return "no leg measured"


def _empty_cell(revision: str, leg: str, claimed: Sequence[str], reason: str) -> LegCell:
    if claimed and revision not in claimed:
        return LegCell(
            revision=revision,
            leg=_leg(leg),
            state="not-claimed",
            reason=f"the line does not claim {revision}",
            passed=0,
            total=0,
            scenarios=(),
        )
    return LegCell(
        revision=revision,
        leg=_leg(leg),
        state="unmeasured",
        reason=reason,
        passed=0,
        total=0,
        scenarios=(),
    )


def _leg(name: str) -> ServerOrClient:
    return "server" if name == "server" else "client"


def _cell(
    card: Scorecard, revision: str, leg: str, claimed: Sequence[str], *, interrupted: bool
) -> LegCell:
    entry = card.revisions.get(revision)
    if entry is None and revision in claimed:
        # Claimed, but the row asked for other revisions only (`--revision`): a choice.
        return LegCell(
            revision=revision,
            leg=_leg(leg),
            state="skipped",
            reason="not asked for in this run",
            passed=0,
            total=0,
            scenarios=(),
        )
    if entry is None:
        return _empty_cell(revision, leg, claimed, "")
    measured: LegEntry = entry.server if leg == "server" else entry.client
    unmeasured = measured.state == "unmeasured"
    return LegCell(
        revision=revision,
        leg=_leg(leg),
        state=measured.state,
        reason=measured.reason or measured.error,
        passed=measured.passed if measured.state == "measured" else 0,
        total=measured.total if measured.state == "measured" else 0,
        flaky=measured.flaky if measured.state == "measured" else 0,
        scenarios=tuple(_scenario(d, unmeasured=unmeasured) for d in measured.details),
    )


def _scenario(entry: ScenarioEntry, *, unmeasured: bool) -> ScenarioCell:
    verdict: ScenarioVerdictName
    if unmeasured:
        verdict = "unmeasured"
    elif not entry.scored:
        verdict = "not-scored"
    elif not entry.measured:
        verdict = "unmeasured"
    elif entry.flaky:
        return ScenarioCell(
            scenario=entry.scenario,
            verdict="flaky",
            expected_failure=entry.expected_failure,
            message=flaky_summary(entry),
            disputed=entry.disputed,
        )
    else:
        verdict = "passed" if entry.passed else "failed"
    first = entry.failures[0] if entry.failures and not entry.passed else None
    return ScenarioCell(
        scenario=entry.scenario,
        verdict=verdict,
        expected_failure=entry.expected_failure,
        check=first.id if first else None,
        message=first.message if first else (None if entry.passed else entry.reason),
        disputed=entry.disputed,
    )


def _has_probes(card: Scorecard, revision: str) -> bool:
    entry = card.revisions.get(revision)
    return entry is not None and entry.probes is not None


def _probe_counts(revision: str, card: Scorecard) -> ProbeCounts:
    probes = card.revisions[revision].probes
    assert probes is not None  # _has_probes said so
    return ProbeCounts(
        revision=revision,
        passed=len(probes.of("pass")),
        warned=len(probes.of("warn")),
        failed=len(probes.of("fail")),
        skipped=len(probes.of("skip")),
    )


def _outcome(leg: LegCell, cell: ScenarioCell) -> ScenarioOutcome:
    """A not-scored cell keeps no verdict, only its failure: without one it passed. A flaky
    one counts as passed, as its leg's score does (`scoring.confirm_failure`)."""
    verdict = cell.verdict
    where = (leg.revision, leg.leg, cell.scenario)
    if verdict == "not-scored":
        failed = cell.check is not None or cell.message is not None
        outcome: Literal["passed", "failed"] = "failed" if failed else "passed"
        return ScenarioOutcome(*where, outcome, False, disputed=cell.disputed)
    if verdict == "flaky":
        return ScenarioOutcome(*where, "passed", True, disputed=cell.disputed)
    return ScenarioOutcome(*where, verdict, True, disputed=cell.disputed)


def run_scenarios(row: MatrixRow) -> RunScenarios:
    """A matrix row in the form `tiercheck.comparison` compares."""
    return RunScenarios(
        harness_version=row.harness_version,
        legs=tuple(LegOutcome(c.revision, c.leg, c.state, c.reason) for c in row.legs),
        scenarios=tuple(_outcome(c, s) for c in row.legs for s in c.scenarios),
        tier=row.tier.official if row.tier else None,
        requirements_digest=row.requirements_digest,
        interrupted=row.state == "interrupted",
        governance_inconclusive=row.tier.governance_inconclusive if row.tier else False,
    )


def _verdict(scored: bool, outcome: str) -> ScenarioVerdictName | None:
    if outcome == "absent":
        return None
    if not scored:
        return "not-scored"
    return "failed" if outcome == "failed" else "passed" if outcome == "passed" else "unmeasured"


def _record(row: str, change: Classified) -> ScenarioChange:
    after = _verdict(change.scored_after, change.now)
    assert after is not None  # newly failing and fixed scenarios are listed now
    return ScenarioChange(
        row=row,
        revision=change.revision,
        leg=change.leg,
        scenario=change.scenario,
        before=_verdict(change.scored_before, change.was),
        after=after,
    )


def changes_since(previous: Matrix, rows: Sequence[MatrixRow]) -> ChangesBlock:
    """New failures, fixes, tier changes and regressions of `rows` against `previous`.

    Each row is compared with its previous self by the rule of `tiercheck.comparison`: only
    legs measured on both sides, and only under the same harness version (a row under another
    is `incomparable`); a tier drop, a scenario newly failing or a leg newly unmeasured is a
    regression. A scenario absent before that fails now is added, not a new failure. A row
    that was not assessed before (no scorecard, or it measured nothing) starts no comparison.
    """
    new_failures: list[ScenarioChange] = []
    fixes: list[ScenarioChange] = []
    tier_changes: list[TierChange] = []
    incomparable: list[str] = []
    unmeasured: list[str] = []
    regressed: list[str] = []
    for row in rows:
        before_row = previous.row(row.id)
        before_tier = before_row.tier.official if before_row and before_row.tier else None
        after_tier = row.tier.official if row.tier else None
        before = run_scenarios(before_row) if before_row else None
        if before is None or not starts_comparisons(before):
            if before_tier != after_tier:
                tier_changes.append(TierChange(row=row.id, before=before_tier, after=after_tier))
            continue
        found = compare(before, run_scenarios(row))
        if before_tier != after_tier:
            tier_changes.append(
                TierChange(
                    row=row.id, before=before_tier, after=after_tier, dropped=found.tier_dropped
                )
            )
        if found.incomparable:
            incomparable.append(row.id)
        new_failures += (_record(row.id, c) for c in found.newly_failing)
        fixes += (_record(row.id, c) for c in found.fixed)
        unmeasured += (f"{row.id} {c.revision} {c.leg}" for c in found.legs_newly_unmeasured)
        if found.regressed:
            regressed.append(row.id)
    return ChangesBlock(
        previous_run_id=previous.run_id,
        new_failures=tuple(new_failures),
        fixes=tuple(fixes),
        tier_changes=tuple(tier_changes),
        incomparable=tuple(incomparable),
        newly_unmeasured=tuple(unmeasured),
        regressed_rows=tuple(regressed),
    )
