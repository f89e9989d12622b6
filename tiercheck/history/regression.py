"""Regressions of an SDK line, night by night (pure): what the dashboard shows and what a
tracking issue is opened, edited and closed on.

A *regression* is one of three things, and it lasts until what regressed is undone:

* ``lower-tier`` — the implied tier dropped (Tier 1 → 2, say) from the previous run that
  judged the tier, by the rule of `tiercheck.comparison` (`tier_dropped`: both runs judged
  their tier, on the same basis); it lasts while the tier stays below the tier before the drop
  (its `tier_after` follows the tier of the day). A tier lowered by what could not be measured
  is a gap, not a regression.
* ``newly-failing`` — a scenario newly failing, by the rule of `tiercheck.comparison` (scored
  and passed, then scored and failed, under the same harness version, no dispute open), between
  the run that last measured it and this one; it lasts until the scenario passes again (a night
  it is not measured bridges, as in streaks), stops being scored, or is disputed (SEP-1730
  leaves it out while the dispute is open).
* ``unmeasured`` — a leg that was measured before is unmeasured (`tiercheck.comparison`: a
  leg newly unmeasured is a regression, since it may hide a failure); it lasts until the leg
  is measured again.

A run that measured nothing (exit 3) is an unmeasured night: its legs are read as above, but
it has no tier and is never the `previous` run a later one is compared with.

A run's *basis* is its harness version and its requirement sets (their digest). A run whose
basis differs from the previous run's is *marked* (`NightState.basis_change` says what
changed; a change of harness version is a *referee change*, said as "referee changed on DATE
(harness A → B): N scenarios added, M changed" from the scenario definitions the two runs
recorded, `NightState.referee`). Scenarios are compared across a change of requirement sets
(one scored by both is the same requirement; one that became scored or unscored is neither
failing nor fixed), never across a change of harness version: a scenario that passed under
the old harness and fails under the new one is not called a regression. A lower tier is called
one only under the same basis. A regression already open when the basis changes stays open
while what regressed still holds, and ends as usual when it is undone.

A line's runs are read as one series, oldest first (several runs on one night each count:
the state after the night's latest run is the night's state). `timeline` gives one line's
state after each of its runs; `line_states` gives every line's latest state up to a moment,
the one `tier-check notify` acts on. A line's two series are two lines here: its branch
series under its own name and its stable series (runs of the ref `stable`) as `NAME@stable`
(`record.line_of`), so a regression of the default branch never opens or closes one of the
latest stable release, nor the reverse (the dashboard and the tracking issues read the same
states, so they never disagree about whether a line regressed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Literal

from tiercheck.comparison import (
    LegChange,
    LegOutcome,
    RefereeChange,
    RunScenarios,
    ScenarioOutcome,
    classify,
    comparable,
    leg_changes,
    leg_measured,
    leg_unmeasured,
    referee_change,
    starts_comparisons,
    tier_dropped,
)
from tiercheck.history.record import RunRecord, ScenarioRow, line_of, run_key

__all__ = [
    "Basis",
    "NightState",
    "Regression",
    "RegressionKind",
    "Status",
    "basis_change",
    "basis_of",
    "line_states",
    "night_end",
    "referee_of",
    "run_scenarios",
    "timeline",
]

RegressionKind = Literal["lower-tier", "newly-failing", "unmeasured"]
#: regressed: a regression is open; incomparable: none is open, but this run's basis differs
#: from the previous run's, so nothing could be compared; ok: none is open.
Status = Literal["regressed", "incomparable", "ok"]


@dataclass(frozen=True)
class Basis:
    """What must be equal for two runs to be compared."""

    harness_version: str | None
    requirements_digest: str | None


def basis_of(run: RunRecord) -> Basis:
    """The basis `run` was measured under."""
    return Basis(run.harness_version, run.requirements_digest)


def referee_of(before: RunRecord, after: RunRecord) -> RefereeChange | None:
    """What the referee changed from `before` to `after` (`comparison.referee_change`): None
    under the same harness version, or when one is not recorded."""
    if comparable(before.harness_version, after.harness_version):
        return None
    return referee_change(run_scenarios(before), run_scenarios(after))


def basis_change(before: RunRecord, after: RunRecord) -> tuple[str, ...]:
    """What differs between the bases of two runs, one phrase each (empty: the same): another
    harness is the referee's sentence, "referee changed on DATE (harness A → B): N scenarios
    added, M changed"."""
    out = []
    referee = referee_of(before, after)
    if referee is not None:
        out.append(referee.sentence(after.timestamp.date()))
    elif before.harness_version != after.harness_version:
        out.append(
            f"harness {before.harness_version or 'unknown'} → {after.harness_version or 'unknown'}"
        )
    if before.requirements_digest != after.requirements_digest:
        out.append(
            f"requirement sets {before.requirements_digest or 'unrecorded'} → "
            f"{after.requirements_digest or 'unrecorded'}"
        )
    return tuple(out)


@dataclass(frozen=True)
class Regression:
    """One open (or just ended) regression of a line."""

    kind: RegressionKind
    #: The run it began with.
    since: RunRecord
    revision: str | None = None
    leg: str | None = None
    scenario: str | None = None
    #: lower-tier: the tier before the drop, and the tier it dropped to.
    tier_before: int | None = None
    tier_after: int | None = None
    #: newly-failing: the first failing check and its message; unmeasured: the leg's reason.
    check: str | None = None
    message: str | None = None
    #: Nights with a run of the line it has lasted, counting the night it began (a night
    #: without a run is not counted).
    nights: int = 1

    @property
    def row(self) -> str:
        """The row it began in, as the matrix names it: NAME@REF (NAME alone without a ref)."""
        run = self.since
        return f"{run.sdk}@{run.ref}" if run.ref else run.sdk

    @property
    def key(self) -> str:
        """A stable name of what regressed (`newly-failing:2025-11-25/server/tools-list`):
        the same regression on every night it lasts, so a notifier can tell states apart."""
        if self.kind == "lower-tier":
            return "lower-tier"
        where = "/".join(p for p in (self.revision, self.leg, self.scenario) if p)
        return f"{self.kind}:{where}"

    @property
    def detail(self) -> str:
        """One line saying what regressed and since when."""
        day = self.since.timestamp.date().isoformat()
        if self.kind == "lower-tier":
            return f"Tier {self.tier_before} → Tier {self.tier_after} since {day}"
        if self.kind == "newly-failing":
            why = f": {self.check}" if self.check else ""
            return f"{self.revision} {self.leg} {self.scenario} failing since {day}{why}"
        why = f": {self.message}" if self.message else ""
        return f"{self.revision} {self.leg} unmeasured since {day}{why}"


@dataclass(frozen=True)
class NightState:
    """A line's state after one of its runs."""

    line: str
    run: RunRecord
    #: The line's last run before this one that measured something, if any: what this run is
    #: compared with.
    previous: RunRecord | None
    #: What differs in this run's basis from the previous run's (empty: the same basis).
    basis_change: tuple[str, ...]
    #: Every regression open after this run, oldest first.
    regressions: tuple[Regression, ...]
    #: The regressions that began with this run.
    started: tuple[Regression, ...] = field(default=())
    #: The regressions this run undid.
    ended: tuple[Regression, ...] = field(default=())
    #: Legs this run left unmeasured that were measured before, with how many runs running
    #: (up to this one) left them unmeasured: (revision, leg, runs); each is an
    #: ``unmeasured`` regression.
    unmeasured: tuple[tuple[str, str, int], ...] = field(default=())
    #: What the referee changed since the previous run, when this run is under another harness
    #: version (`basis_change` says it in a sentence): never a regression.
    referee: RefereeChange | None = None
    #: The run in the form `tiercheck.comparison` compares (`run_scenarios(run)`), made once
    #: for every reader of the timeline.
    form: RunScenarios | None = field(default=None, compare=False, repr=False)

    @property
    def night(self) -> date:
        """The run's day (UTC)."""
        return self.run.timestamp.date()

    @property
    def row(self) -> str:
        """The run's row, as the matrix names it: NAME@REF (NAME alone without a ref)."""
        return f"{self.run.sdk}@{self.run.ref}" if self.run.ref else self.run.sdk

    @property
    def marked(self) -> bool:
        """Measured under another harness or other requirement sets than the run before."""
        return bool(self.basis_change)

    @property
    def regressed(self) -> bool:
        """A regression is open."""
        return bool(self.regressions)

    @property
    def status(self) -> Status:
        """regressed, incomparable (nothing open, but the basis changed) or ok."""
        if self.regressions:
            return "regressed"
        return "incomparable" if self.marked else "ok"


def _ordered(runs: Iterable[RunRecord]) -> list[RunRecord]:
    return sorted(runs, key=lambda r: (r.timestamp, r.run_id, run_key(r)))


def _outcome(row: ScenarioRow) -> ScenarioOutcome:
    outcome = row.outcome
    return ScenarioOutcome(
        row.revision,
        row.leg,
        row.scenario,
        outcome,
        row.scored,
        row.message if outcome == "failed" else None,
        disputed=row.disputed,
    )


#: A row's outcome, by the row's id, with the row (so the id names no other): `run_scenarios`
#: makes an outcome once for a row that many runs share (`HistoryStore.runs` shares each
#: distinct row).
Outcomes = dict[int, tuple[ScenarioRow, ScenarioOutcome]]


def _outcome_of(row: ScenarioRow, outcomes: Outcomes) -> ScenarioOutcome:
    found = outcomes.get(id(row))
    if found is not None and found[0] is row:
        return found[1]
    made = _outcome(row)
    outcomes[id(row)] = (row, made)
    return made


def run_scenarios(run: RunRecord, outcomes: Outcomes | None = None) -> RunScenarios:
    """A stored run in the form `tiercheck.comparison` compares (the history keeps the
    scenarios of measured legs only); `outcomes`, when given, keeps each row's outcome for
    the next run that holds the same row."""
    known: Outcomes = {} if outcomes is None else outcomes
    return RunScenarios(
        harness_version=run.harness_version,
        legs=tuple(LegOutcome(x.revision, x.leg, x.state, x.reason) for x in run.legs),
        scenarios=tuple(_outcome_of(s, known) for s in run.scenarios),
        tier=run.assessed_tier,
        requirements_digest=run.requirements_digest,
        interrupted=run.interrupted,
        governance_inconclusive="inconclusive" in run.signals.values(),
        definitions=run.definitions,
    )


class _Line:
    """The running state of one line while its runs are read in order."""

    def __init__(self, line: str) -> None:
        self.line = line
        #: Each scenario as the latest run that measured its leg listed it, with that run's
        #: harness version.
        self.last_seen: dict[tuple[str, str, str], tuple[ScenarioOutcome, str | None]] = {}
        self.active: dict[str, Regression] = {}
        self.unmeasured: dict[tuple[str, str], tuple[RunRecord, int]] = {}
        self.tier_run: RunRecord | None = None
        self.previous: RunRecord | None = None
        #: `tier_run` and `previous` in the form the comparison reads, each made once.
        self.tier_form: RunScenarios | None = None
        self.previous_form: RunScenarios | None = None
        self.started: list[Regression] = []
        self.ended: list[Regression] = []
        #: Every night with a run so far, for how many nights a regression has lasted.
        self.nights: set[date] = set()
        #: Each row's outcome, made once over the line's runs (`run_scenarios`).
        self.outcomes: Outcomes = {}

    def _start(self, regression: Regression) -> None:
        if regression.key not in self.active:
            self.active[regression.key] = regression
            self.started.append(regression)

    def _end(self, key: str) -> None:
        if key in self.active:
            self.ended.append(self.active.pop(key))

    def _scenarios(self, run: RunRecord, form: RunScenarios) -> None:
        """`run`'s scenarios, each with its outcome in `form` (`run_scenarios(run)`: one
        outcome a row, in the run's order)."""
        measured = {(x.revision, x.leg) for x in run.legs if leg_measured(x.state)}
        harness = run.harness_version
        last_seen = self.last_seen
        for row, now in zip(run.scenarios, form.scenarios, strict=True):
            where = (row.revision, row.leg, row.scenario)
            if where[:2] not in measured:
                continue
            if now.outcome == "unmeasured":
                continue  # a gap: neither starts nor ends, and not the verdict to compare with
            prior = last_seen.get(where)
            if now.scored and (now.outcome == "passed" or now.disputed):
                if self.active:  # (most nights nothing is open: no key to make)
                    self._end(f"newly-failing:{row.revision}/{row.leg}/{row.scenario}")
            elif (
                prior is not None
                and prior[0] is not now  # the very outcome of the run before: no change
                and comparable(prior[1], harness)
            ):
                change = classify(prior[0], now)
                if change is not None and change.kind == "newly-failing":
                    self._start(
                        Regression(
                            "newly-failing",
                            run,
                            row.revision,
                            row.leg,
                            row.scenario,
                            check=row.check,
                            message=row.message,
                        )
                    )
            if prior is None or prior[0] is not now or prior[1] != harness:
                last_seen[where] = (now, harness)
        if not self.active:
            return
        rows = {(s.revision, s.leg, s.scenario): s for s in run.scenarios}
        for key, open_one in list(self.active.items()):
            # Measured, but no longer a scored scenario: it cannot be failing any more.
            where = (open_one.revision or "", open_one.leg or "", open_one.scenario or "")
            if open_one.kind != "newly-failing" or where[:2] not in measured:
                continue
            if where not in rows or not rows[where].scored:
                self._end(key)

    def _legs(self, run: RunRecord, found: Sequence[LegChange]) -> None:
        """A leg newly unmeasured by the one rule (`found`, against the last run that measured
        something) begins a regression; it lasts while the leg stays unmeasured, and ends when
        the leg is measured again or a run that measured something no longer plans it."""
        newly = {(c.revision, c.leg): c for c in found}
        for x in run.legs:
            where = (x.revision, x.leg)
            if leg_measured(x.state):
                self.unmeasured.pop(where, None)
                self._end(f"unmeasured:{x.revision}/{x.leg}")
            elif not leg_unmeasured(x.state):
                continue
            elif where in newly:
                self.unmeasured[where] = (run, 1)
                self._start(
                    Regression("unmeasured", run, x.revision, x.leg, message=newly[where].reason)
                )
            elif where in self.unmeasured:
                first, count = self.unmeasured[where]
                self.unmeasured[where] = (first, count + 1)
        if run.assessed:
            planned = {(x.revision, x.leg) for x in run.legs}
            for where in [w for w in self.unmeasured if w not in planned]:
                self.unmeasured.pop(where)  # the line no longer plans the leg
                self._end(f"unmeasured:{where[0]}/{where[1]}")

    def _tier(self, run: RunRecord, now: RunScenarios) -> None:
        if not now.judges_tier:
            return  # a gap: neither starts nor ends a lower tier
        open_one = self.active.get("lower-tier")
        if open_one is not None:
            if open_one.tier_before is not None and run.tier <= open_one.tier_before:
                self._end("lower-tier")
            elif run.tier != open_one.tier_after:
                # Still below the tier before the drop: the same regression, at today's tier.
                self.active["lower-tier"] = dataclasses.replace(open_one, tier_after=run.tier)
        elif (
            self.tier_run is not None
            and self.tier_form is not None
            and tier_dropped(self.tier_form, now)
        ):
            self._start(
                Regression("lower-tier", run, tier_before=self.tier_run.tier, tier_after=run.tier)
            )
        self.tier_run, self.tier_form = run, now

    def _lasted(self, regression: Regression) -> Regression:
        began = regression.since.timestamp.date()
        nights = sum(1 for d in self.nights if d >= began)
        return dataclasses.replace(regression, nights=nights)

    def read(self, run: RunRecord) -> NightState:
        self.started, self.ended = [], []
        self.nights.add(run.timestamp.date())
        change = basis_change(self.previous, run) if self.previous else ()
        now = run_scenarios(run, self.outcomes)
        found = leg_changes(self.previous_form, now)[0] if self.previous_form is not None else ()
        self._scenarios(run, now)
        self._legs(run, found)
        self._tier(run, now)
        unmeasured = tuple(
            (x.revision, x.leg, self.unmeasured[(x.revision, x.leg)][1])
            for x in run.legs
            if leg_unmeasured(x.state) and (x.revision, x.leg) in self.unmeasured
        )
        state = NightState(
            line=self.line,
            run=run,
            previous=self.previous,
            basis_change=change,
            regressions=tuple(
                self._lasted(r)
                for r in sorted(self.active.values(), key=lambda r: (r.since.timestamp, r.key))
            ),
            started=tuple(self._lasted(r) for r in self.started),
            ended=tuple(self.ended),
            unmeasured=unmeasured,
            referee=referee_of(self.previous, run) if self.previous else None,
            form=now,
        )
        if starts_comparisons(now):
            self.previous, self.previous_form = run, now
        return state


def timeline(runs: Iterable[RunRecord]) -> list[NightState]:
    """One line's state after each of its runs, oldest first (`runs` are that line's)."""
    ordered = _ordered(runs)
    if not ordered:
        return []
    reader = _Line(ordered[0].sdk)
    return [reader.read(run) for run in ordered]


def night_end(night: date) -> datetime:
    """The last moment of `night` (a UTC date): `line_states(runs, as_of=night_end(d))` is
    every line's state on night `d`, after its latest run on or before it."""
    return datetime.combine(night, time.max, tzinfo=UTC)


def line_states(
    runs: Iterable[RunRecord], *, as_of: datetime | None = None
) -> dict[str, NightState]:
    """Every line's state after its latest run up to `as_of` (all runs when None), by line.

    This is what a notifier reads each night: `status`, the open `regressions` (each with a
    stable `key`), what `started` and `ended` with that run, and `basis_change`.
    """
    by_line: dict[str, list[RunRecord]] = {}
    for run in runs:
        if as_of is None or run.timestamp <= as_of:
            by_line.setdefault(line_of(run), []).append(run)
    out: dict[str, NightState] = {}
    for line in sorted(by_line):
        states = timeline(by_line[line])
        out[line] = states[-1]
    return out
