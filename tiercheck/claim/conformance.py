"""Rows 1a and 1b as the filed claims split them: each revision, and the client's core and auth.

The filed claims give "67/67 (30/30 @ 2025-11-25 + 37/37 @ 2026-07-28)" and split the client
leg into its core scenarios and its authorization (`auth/…`) ones, because a client that
implements no OAuth flow fails the one part and not the other. They also count WARNING checks:
the official tier-check ignores them in the pass rate while its CI runner fails a client
scenario on one (conformance#245, #430), so a reviewer wants to see whether there are any.
Scenarios the disputes file names are listed with their dispute: SEP-1730 leaves one out while
its dispute is open, the official reading counts it. Pure: read from the scorecard's
per-revision legs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tiercheck.claim.model import (
    ConformanceSplit,
    DisputedScenario,
    FlakyScenario,
    NotScoredTally,
    SplitRow,
    Tally,
    WarningTally,
)
from tiercheck.scorecard.model import LegEntry, ScenarioEntry, Scorecard
from tiercheck.scorecard.readings import revision_scenarios

__all__ = ["AUTH_PREFIX", "conformance_split", "split_text"]

#: Client scenarios of the authorization suite.
AUTH_PREFIX = "auth/"


def _tally(leg: LegEntry | None, keep: Callable[[ScenarioEntry], bool]) -> Tally:
    if leg is None:
        return Tally(passed=0, total=0, state="not run")
    if leg.state != "measured":
        return Tally(passed=0, total=0, state=leg.state)
    scored = [d for d in leg.details if d.scored and keep(d)]
    return Tally(passed=sum(1 for d in scored if d.passed), total=len(scored), state="measured")


def _all(parts: Sequence[Tally]) -> Tally:
    measured = [t for t in parts if t.state == "measured"]
    if not measured:
        state = parts[0].state if parts else "not run"
    elif len(measured) < len(parts):
        state = "partially-measured"
    else:
        state = "measured"
    return Tally(
        passed=sum(t.passed for t in measured), total=sum(t.total for t in measured), state=state
    )


def _row(doc: Scorecard, name: str, leg: str, keep: Callable[[ScenarioEntry], bool]) -> SplitRow:
    by_revision = {}
    for revision in doc.requirements_revisions:
        entry = doc.revisions.get(revision)
        by_revision[revision] = _tally(
            (entry.server if leg == "server" else entry.client) if entry else None, keep
        )
    return SplitRow(name=name, by_revision=by_revision, all=_all(list(by_revision.values())))


def _warnings(doc: Scorecard) -> tuple[WarningTally, ...]:
    return tuple(
        WarningTally(
            leg=leg,
            revision=revision,
            scenario=d.scenario,
            checks=d.checks_warned,
            message=d.warnings[0].message if d.warnings else None,
        )
        for revision, leg, d in revision_scenarios(doc)
        if d.scored and d.checks_warned
    )


def _not_scored(doc: Scorecard) -> tuple[NotScoredTally, ...]:
    counts: dict[tuple[str, str], list[int]] = {}
    for _, leg, d in revision_scenarios(doc):
        if d.scored or not d.measured:
            continue
        tally = counts.setdefault((leg, d.not_scored_reason or "not scored"), [0, 0])
        tally[0 if d.passed else 1] += 1
    return tuple(
        NotScoredTally(leg=leg, reason=reason, passed=passed, failed=failed)
        for (leg, reason), (passed, failed) in sorted(counts.items())
    )


def _disputed(doc: Scorecard) -> tuple[DisputedScenario, ...]:
    return tuple(
        DisputedScenario(
            leg=leg,
            revision=revision,
            scenario=d.scenario,
            result=d.outcome,
            scored=d.scored,
            state=d.dispute.state,
            verified=d.dispute.verified,
            issue=d.dispute.issue,
            reason=d.dispute.reason,
            title=d.dispute.title,
        )
        for revision, leg, d in revision_scenarios(doc)
        if d.dispute is not None
    )


def _flaky(doc: Scorecard) -> tuple[FlakyScenario, ...]:
    found = []
    for revision, leg, d in revision_scenarios(doc):
        if not (d.scored and d.result == "flaky" and d.confirmation is not None):
            continue
        first = d.confirmation.first
        check = first.failures[0] if first.failures else None
        why = f"{check.id}: {check.message}" if check else first.reason or "no check succeeded"
        found.append(
            FlakyScenario(
                leg=leg,
                revision=revision,
                scenario=d.scenario,
                first=why,
                duration_s=d.confirmation.duration_s,
            )
        )
    return tuple(found)


def conformance_split(doc: Scorecard) -> ConformanceSplit:
    """The server leg per revision; the client leg per revision, core and auth apart."""

    def core(d: ScenarioEntry) -> bool:
        return not d.scenario.startswith(AUTH_PREFIX)

    def auth(d: ScenarioEntry) -> bool:
        return d.scenario.startswith(AUTH_PREFIX)

    def every(_: ScenarioEntry) -> bool:
        return True

    return ConformanceSplit(
        revisions=tuple(doc.requirements_revisions),
        rows=(
            _row(doc, "server", "server", every),
            _row(doc, "client: core", "client", core),
            _row(doc, "client: auth", "client", auth),
            _row(doc, "client", "client", every),
        ),
        warnings=_warnings(doc),
        not_scored=_not_scored(doc),
        disputed=_disputed(doc),
        flaky=_flaky(doc),
    )


def _fraction(tally: Tally) -> str:
    if tally.state not in ("measured", "partially-measured"):
        return tally.state
    return f"{tally.passed}/{tally.total}"


def split_text(row: SplitRow) -> str:
    """`67/67 (30/30 @ 2025-11-25 + 37/37 @ 2026-07-28)`; one revision: `30/30 @ 2025-11-25`."""
    parts = [f"{_fraction(t)} @ {revision}" for revision, t in row.by_revision.items()]
    if len(parts) == 1:
        return parts[0]
    return f"{_fraction(row.all)} ({' + '.join(parts)})"
