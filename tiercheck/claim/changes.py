"""Changes since the previous assessment: rows whose finding or verdict moved, and scenarios.

The filed claims that follow an earlier one say what changed ("server conformance moved from
83.3% to 100%, a conformance client was implemented…"). Given the previous `claim.json` (every
row) or `scorecard.json` (the measured rows 1a–4b), this compares row by row and scenario by
scenario. Pure: the previous document arrives already read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tiercheck.claim.model import (
    Changes,
    ClaimDocument,
    ClaimRowDoc,
    RowChange,
    ScenarioChange,
    ScenarioState,
    ScenarioStateName,
)
from tiercheck.claim.table import BY_DATE_MARK
from tiercheck.scorecard.model import Scorecard

__all__ = ["Previous", "compare", "scenario_states"]

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


def scenario_states(doc: Scorecard) -> tuple[ScenarioState, ...]:
    """Every scenario each revision's legs ran, with its state (for claim.json and --previous)."""
    out = []
    for revision in doc.requirements_revisions:
        entry = doc.revisions.get(revision)
        if entry is None:
            continue
        for leg in (entry.server, entry.client):
            for d in leg.details:
                state: ScenarioStateName = (
                    "unmeasured" if not d.measured else "passed" if d.passed else "failed"
                )
                out.append(
                    ScenarioState(
                        revision=revision,
                        leg=leg.leg,
                        scenario=d.scenario,
                        state=state,
                        scored=d.scored,
                    )
                )
    return tuple(out)


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


def _key(state: ScenarioState) -> tuple[str, str, str]:
    return (state.revision, state.leg, state.scenario)


def compare(
    previous: Previous, rows: Sequence[ClaimRowDoc], scenarios: Sequence[ScenarioState]
) -> Changes:
    """What moved between `previous` and this claim's rows and scenarios (scored ones)."""
    old: Mapping[tuple[str, str, str], ScenarioState] = {
        _key(s): s for s in previous.scenarios if s.scored
    }
    new: Mapping[tuple[str, str, str], ScenarioState] = {_key(s): s for s in scenarios if s.scored}

    def change(key: tuple[str, str, str]) -> ScenarioChange:
        before, after = old.get(key), new.get(key)
        return ScenarioChange(
            revision=key[0],
            leg=key[1],
            scenario=key[2],
            before=before.state if before else None,
            after=after.state if after else None,
        )

    both = [k for k in new if k in old and old[k].state != new[k].state]
    return Changes(
        source=previous.source,
        kind="claim" if previous.kind == "claim" else "scorecard",
        commit=previous.commit,
        date=previous.date,
        rows=_row_changes(previous.rows, rows, scorecard=previous.kind == "scorecard"),
        added=tuple(change(k) for k in new if k not in old),
        removed=tuple(change(k) for k in old if k not in new),
        now_passing=tuple(change(k) for k in both if new[k].state == "passed"),
        now_failing=tuple(change(k) for k in both if new[k].state == "failed"),
        other=tuple(change(k) for k in both if new[k].state == "unmeasured"),
    )
