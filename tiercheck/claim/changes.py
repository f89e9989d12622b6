"""Changes since the previous assessment: rows whose finding or verdict moved, and scenarios.

The filed claims that follow an earlier one say what changed ("server conformance moved from
83.3% to 100%, a conformance client was implemented…"). Given the previous `claim.json` (every
row) or `scorecard.json` (the measured rows 1a–4b), this compares row by row, and scenario by
scenario by the one rule of `tiercheck.comparison` (which the diff, the matrix and the history
follow too): `now_failing` and `now_passing` are its newly failing and fixed scenarios, `added`
its added scored scenarios and those newly scored, `removed` its removed scored scenarios and
those no longer scored, and `other` its scenarios to or from unmeasured, with every scored
scenario of a leg that became unmeasured or was measured again. Under another harness version
no scenario is compared (`incomparable`), and `referee` says what the referee changed (the
scenarios added, and those whose recorded definition changed), which the claim says instead
of any regression. Pure: the previous document arrives already read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tiercheck.claim.model import (
    Changes,
    ClaimDocument,
    ClaimRowDoc,
    RefereeChanged,
    RowChange,
    ScenarioChange,
    ScenarioState,
    ScenarioStateName,
)
from tiercheck.claim.table import BY_DATE_MARK
from tiercheck.comparison import (
    Comparison,
    LegChange,
    LegOutcome,
    Outcome,
    RunScenarios,
    ScenarioOutcome,
    referee_change,
)
from tiercheck.comparison import ScenarioChange as Classified
from tiercheck.comparison import compare as compare_runs
from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.readings import revision_scenarios

__all__ = ["Previous", "compare", "leg_states", "run_scenarios", "scenario_states"]

#: Rows a scorecard alone decides (the judgment rows need the checkout).
MEASURED_ROWS = frozenset({"1a", "1b", "2", "2b", "3", "4", "4b"})


@dataclass(frozen=True)
class Previous:
    """The previous assessment as read: its rows and scenarios, and where it came from."""

    source: str
    kind: str  # "claim" | "scorecard"
    commit: str | None
    date: str | None
    rows: tuple[ClaimRowDoc, ...]
    scenarios: tuple[ScenarioState, ...]
    requested_tier: int | None = None
    version: str | None = None
    harness_version: str | None = None
    #: Every leg it planned, with its state (a claim.json's conformance split records them).
    legs: tuple[LegOutcome, ...] = ()
    #: Scenario → the digest of its definition in its harness (None: not recorded).
    definitions: Mapping[str, str] | None = None


def leg_states(doc: Scorecard) -> tuple[LegOutcome, ...]:
    """Every leg of each revision scored, with its state."""
    out = []
    for revision in doc.requirements_revisions:
        entry = doc.revisions.get(revision)
        if entry is None:
            continue
        for leg in (entry.server, entry.client):
            out.append(LegOutcome(revision, leg.leg, leg.state, leg.reason))
    return tuple(out)


def _claim_legs(document: ClaimDocument) -> tuple[LegOutcome, ...]:
    """The legs of a claim.json: its conformance split's whole server and client rows."""
    rows = {r.name: r for r in document.conformance.rows}
    return tuple(
        LegOutcome(revision, leg, tally.state)
        for revision in document.conformance.revisions
        for leg in LEGS
        if leg in rows and (tally := rows[leg].by_revision.get(revision)) is not None
    )


def run_scenarios(
    harness_version: str | None,
    legs: Sequence[LegOutcome],
    scenarios: Sequence[ScenarioState],
    definitions: Mapping[str, str] | None = None,
) -> RunScenarios:
    """An assessment in the form `tiercheck.comparison` compares."""
    return RunScenarios(
        definitions=definitions,
        harness_version=harness_version,
        legs=tuple(legs),
        scenarios=tuple(
            ScenarioOutcome(s.revision, s.leg, s.scenario, s.state, s.scored, disputed=s.disputed)
            for s in scenarios
        ),
    )


def scenario_states(doc: Scorecard) -> tuple[ScenarioState, ...]:
    """Every scenario each revision's legs ran, with its state (for claim.json and --previous)."""
    return tuple(
        ScenarioState(
            revision=revision,
            leg=leg,
            scenario=d.scenario,
            state=d.outcome,
            scored=d.scored,
            disputed=d.disputed,
        )
        for revision, leg, d in revision_scenarios(doc)
    )


def from_claim(document: ClaimDocument, source: str) -> Previous:
    """A previous `claim.json`."""
    header = document.header
    return Previous(
        source=source,
        kind="claim",
        commit=document.commit,
        date=header.date,
        rows=document.rows,
        scenarios=document.scenarios,
        requested_tier=header.requested_tier,
        version=header.release.version if header.release else None,
        harness_version=header.harness_version,
        legs=_claim_legs(document),
        definitions=header.harness_definitions,
    )


def from_scorecard(doc: Scorecard, rows: Sequence[ClaimRowDoc], source: str) -> Previous:
    """A previous `scorecard.json`, its measured rows built as a claim would build them."""
    return Previous(
        source=source,
        kind="scorecard",
        commit=doc.sdk.commit,
        date=doc.timestamp[:10],
        rows=tuple(r for r in rows if r.id in MEASURED_ROWS),
        scenarios=scenario_states(doc),
        version=str(doc.version) if doc.version else None,
        harness_version=doc.harness.version,
        legs=leg_states(doc),
        definitions=doc.harness.definitions,
    )


def _official(current: str) -> str:
    # A scorecard alone has no release tag to judge row 4b by date: compare what it has.
    return current.split(BY_DATE_MARK, 1)[0]


def _row_changes(
    before: Sequence[ClaimRowDoc], after: Sequence[ClaimRowDoc], *, scorecard: bool
) -> tuple[RowChange, ...]:
    old = {r.id: r for r in before}
    changed = []
    for row in after:
        prior = old.get(row.id)
        if prior is None:
            continue
        shared = [k for k in row.verdicts if k in prior.verdicts]
        moved = any(prior.verdicts[k] != row.verdicts[k] for k in shared)
        found_before, found_now = prior.current, row.current
        if scorecard:
            found_before, found_now = _official(found_before), _official(found_now)
        if found_before != found_now or moved:
            changed.append(
                RowChange(
                    id=row.id,
                    requirement=row.requirement,
                    before=prior.current,
                    after=row.current,
                    verdicts_before={k: prior.verdicts[k] for k in shared},
                    verdicts_after={k: row.verdicts[k] for k in shared},
                )
            )
    return tuple(changed)


def _state(outcome: Outcome, scored: bool) -> ScenarioStateName | None:
    return None if outcome == "absent" or not scored else outcome


def _record(change: Classified) -> ScenarioChange:
    return ScenarioChange(
        revision=change.revision,
        leg=change.leg,
        scenario=change.scenario,
        before=_state(change.was, change.scored_before),
        after=_state(change.now, change.scored_after),
    )


def _leg_scenarios(
    legs: Sequence[LegChange], scenarios: Sequence[ScenarioState], *, unmeasured_now: bool
) -> list[ScenarioChange]:
    """Each scored scenario of a leg that changed state, to or from unmeasured."""
    where = {(x.revision, x.leg) for x in legs}
    return [
        ScenarioChange(
            revision=s.revision,
            leg=s.leg,
            scenario=s.scenario,
            before=s.state if unmeasured_now else "unmeasured",
            after="unmeasured" if unmeasured_now else s.state,
        )
        for s in scenarios
        if s.scored and (s.revision, s.leg) in where
    ]


def compare(previous: Previous, rows: Sequence[ClaimRowDoc], doc: Scorecard) -> Changes:
    """What moved between `previous` and this claim's rows and the scenarios of `doc`."""
    scenarios = scenario_states(doc)
    before = run_scenarios(
        previous.harness_version, previous.legs, previous.scenarios, previous.definitions
    )
    after = run_scenarios(doc.harness.version, leg_states(doc), scenarios, doc.harness.definitions)
    found: Comparison = compare_runs(before, after)
    referee = referee_change(before, after)
    order: Mapping[tuple[str, str, str], int] = {
        (s.revision, s.leg, s.scenario): i for i, s in enumerate(previous.scenarios)
    }
    removed = sorted(
        (
            c
            for c in found.changes
            if (c.kind == "removed" and c.scored_before) or c.kind == "no-longer-scored"
        ),
        key=lambda c: order[(c.revision, c.leg, c.scenario)],
    )
    added = [
        c
        for c in found.changes
        if (c.kind == "added" and c.scored_after) or c.kind == "newly-scored"
    ]
    other = [
        *(_record(c) for c in found.of("newly-unmeasured", "measured-again")),
        *_leg_scenarios(found.legs_newly_unmeasured, previous.scenarios, unmeasured_now=True),
        *_leg_scenarios(found.legs_measured_again, scenarios, unmeasured_now=False),
    ]
    return Changes(
        source=previous.source,
        kind="claim" if previous.kind == "claim" else "scorecard",
        commit=previous.commit,
        date=previous.date,
        rows=_row_changes(previous.rows, rows, scorecard=previous.kind == "scorecard"),
        added=tuple(_record(c) for c in added),
        removed=tuple(_record(c) for c in removed),
        now_passing=tuple(_record(c) for c in found.fixed),
        now_failing=tuple(_record(c) for c in found.newly_failing),
        other=tuple(other),
        incomparable=found.incomparable,
        referee=None
        if referee is None
        else RefereeChanged(
            date=doc.timestamp[:10],
            harness_before=referee.before,
            harness_after=referee.after,
            added=referee.added,
            changed=referee.changed,
            unknown=referee.unknown,
        ),
    )
