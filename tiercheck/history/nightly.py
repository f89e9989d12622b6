"""A line's state on one night, for the nightly's tracking issues (pure).

A *line* is an SDK line (a known_sdks.yaml name); its *rows* are the refs the matrix runs it at
(`go-sdk@main`, `go-sdk@v1.7.0`), each a series of stored runs. From those runs this module says
whether the line is green or has regressed on a night, and why. Decided here (documented in
docs/history.md, "The state of a line on a night"):

* **Which runs.** A night is a UTC calendar date. Only runs on or before the night count, and a
  row's run of a night is its latest run that day. The line is judged on its latest night that
  has a run (on or before the night asked), and its rows are the refs that ran that night: a
  night without a run of the line changes nothing (a gap), and a ref the matrix no longer runs
  drops out instead of staying "unmeasured" for ever.
* **Comparable runs.** Verdicts are compared only between runs of one row made with the same
  harness version and the same requirement sets (the run's `requirements_digest`; an unknown
  digest matches only an unknown one). The row's *anchor* is its latest run that measured at
  least one leg; the runs compared with it are the row's runs under the anchor's harness and
  requirement sets. A row whose anchor has no earlier run under them, while earlier runs under
  others exist, is **not comparable**: it is shown as such and is never a regression.
* **Regressions**, each lasting until it is undone, so a line stays in regression from the
  night it begins until the night it is green again:

  - *tier*: among comparable runs that judge the tier (they measured every leg, and every
    governance signal was conclusive: a tier lowered by what could not be measured, such as a
    rate-limited GitHub, is a gap), the implied tier went down (a higher number) from one run
    to the next; it lasts while the tier stays below the tier before the drop.
  - *scenario*: a scored scenario whose latest measured verdict is a failure, in a streak of
    failures that began after a measured pass (a scenario that has never passed under these
    runs is a standing failure, not a regression). A leg that was not measured is a gap: it
    neither ends nor extends a streak (tiercheck.history.analysis).
  - *unmeasured*: the row's runs of two nights running (nights without a run skipped) both
    left a planned leg unmeasured (or were interrupted), whatever the harness, after a night
    that measured every leg (a row that has never been measured, such as one whose toolchain
    the runner lacks, has not regressed). One such night alone is shown as a warning and is
    not a regression.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from tiercheck.history.analysis import current_streaks
from tiercheck.history.record import RunRecord

__all__ = [
    "UNMEASURED_NIGHTS",
    "Comparability",
    "LineNight",
    "Regression",
    "RegressionKind",
    "RowNight",
    "line_night",
    "night_of",
    "row_name",
]

#: How many nights running a row must be unmeasured before it is a regression.
UNMEASURED_NIGHTS = 2

RegressionKind = Literal["tier", "scenario", "unmeasured"]
#: compared: the anchor has earlier runs under its harness and requirement sets; first: it is
#: the row's first measured run; not-comparable: earlier runs exist, none under the same ones.
Comparability = Literal["compared", "first", "not-comparable"]


def night_of(run: RunRecord) -> date:
    """The night (UTC date) a run belongs to."""
    return run.timestamp.date()


def row_name(run: RunRecord) -> str:
    """The row a run belongs to: NAME@REF, as the matrix names it (NAME alone without a ref)."""
    return f"{run.sdk}@{run.ref}" if run.ref else run.sdk


@dataclass(frozen=True)
class Regression:
    """One reason a line is in regression, from the night it began.

    `key` names it independently of how long it has lasted, so a change of `key`s is a change
    of state and the same `key`s night after night are the same state.
    """

    kind: RegressionKind
    row: str
    since: date
    #: Runs (one per night) it has lasted so far, counting the night it began.
    nights: int
    #: tier: the tier before the drop and the tier now.
    tier_before: int | None = None
    tier_now: int | None = None
    #: scenario: which one, its first failing check and message.
    revision: str | None = None
    leg: str | None = None
    scenario: str | None = None
    check: str | None = None
    message: str | None = None
    flaky: bool = False
    #: unmeasured: why the latest run could not measure.
    reason: str | None = None

    @property
    def key(self) -> str:
        """What this regression is, without how long it has lasted."""
        if self.kind == "tier":
            return f"tier:{self.row}:{self.tier_before}"
        if self.kind == "scenario":
            return f"scenario:{self.row}:{self.revision}/{self.leg}/{self.scenario}"
        return f"unmeasured:{self.row}"


@dataclass(frozen=True)
class RowNight:
    """One row of the line on its latest night: its run, and what it was compared with."""

    row: str
    ref: str | None
    run: RunRecord
    #: The row's latest run that measured something (None: it never has).
    anchor: RunRecord | None
    comparable: Comparability
    #: The row's latest earlier run that measured something (what "not comparable" is about).
    previous: RunRecord | None
    #: Nights running (up to this one) on which the row left a planned leg unmeasured.
    unmeasured_nights: int

    @property
    def measured(self) -> bool:
        """Whether tonight's run measured every leg it planned."""
        return self.run.all_measured


@dataclass(frozen=True)
class LineNight:
    """A line's state on one night."""

    line: str
    #: The night asked about.
    night: date
    #: The line's latest night with a run, on or before `night` (None: no run yet).
    latest: date | None
    rows: tuple[RowNight, ...]
    regressions: tuple[Regression, ...]

    @property
    def status(self) -> Literal["green", "regression"]:
        """regression while any regression lasts, else green."""
        return "regression" if self.regressions else "green"

    @property
    def state_key(self) -> str:
        """The state, without durations: "green", or the regressions' keys."""
        if not self.regressions:
            return "green"
        return " ".join(sorted({r.key for r in self.regressions}))

    @property
    def not_comparable(self) -> tuple[RowNight, ...]:
        """Rows measured under another harness version or requirement sets."""
        return tuple(r for r in self.rows if r.comparable == "not-comparable")


def _comparison_key(run: RunRecord) -> tuple[str | None, str | None]:
    return run.harness_version, run.requirements_digest


def _measured_something(run: RunRecord) -> bool:
    return any(x.state == "measured" for x in run.legs)


def _nightly(runs: Iterable[RunRecord]) -> list[RunRecord]:
    """One run per night (the latest of the day), oldest first."""
    latest: dict[date, RunRecord] = {}
    for run in sorted(runs, key=lambda r: (r.timestamp, r.run_id)):
        latest[night_of(run)] = run
    return [latest[d] for d in sorted(latest)]


def _judges_tier(run: RunRecord) -> bool:
    """Whether a run's tier is a verdict: every leg measured, every signal conclusive."""
    return run.all_measured and "inconclusive" not in run.signals.values()


def _tier_regression(row: str, comparable: Sequence[RunRecord]) -> Regression | None:
    """The tier drop that still lasts among comparable fully measured runs, if any."""
    drop: tuple[int, RunRecord] | None = None  # (tier before the drop, run of the drop)
    previous: RunRecord | None = None
    for run in comparable:
        if not _judges_tier(run):
            continue  # a tier lowered by what could not be measured is not a verdict
        if previous is not None:
            if drop is None and run.tier > previous.tier:
                drop = (previous.tier, run)
            elif drop is not None and run.tier <= drop[0]:
                drop = None
        previous = run
    if drop is None or previous is None:
        return None
    nights = sum(1 for r in comparable if night_of(r) >= night_of(drop[1]) and _judges_tier(r))
    return Regression(
        "tier",
        row,
        night_of(drop[1]),
        nights,
        tier_before=drop[0],
        tier_now=previous.tier,
    )


def _passes(run: RunRecord) -> set[tuple[str, str, str]]:
    """The scored scenarios a run measured as passing."""
    measured = {(x.revision, x.leg) for x in run.legs if x.state == "measured"}
    return {
        (s.revision, s.leg, s.scenario)
        for s in run.scenarios
        if s.scored and s.passed and (s.revision, s.leg) in measured
    }


def _scenario_regressions(row: str, comparable: Sequence[RunRecord]) -> list[Regression]:
    """Scored scenarios failing now whose streak began after a measured pass."""
    out: list[Regression] = []
    for streak in current_streaks(comparable):
        key = (streak.revision, streak.leg, streak.scenario)
        if not any(key in _passes(r) for r in comparable if r.timestamp < streak.first.timestamp):
            continue  # never passed under these runs: a standing failure, not a regression
        latest = next(s for s in streak.last.scenarios if (s.revision, s.leg, s.scenario) == key)
        out.append(
            Regression(
                "scenario",
                row,
                night_of(streak.first),
                streak.runs,
                revision=streak.revision,
                leg=streak.leg,
                scenario=streak.scenario,
                check=latest.check,
                message=latest.message,
                flaky=streak.flaky,
            )
        )
    return out


def _unmeasured_reason(run: RunRecord) -> str:
    reasons = [
        f"{x.leg} {x.revision}: {x.reason}" if x.reason else f"{x.leg} {x.revision}"
        for x in run.legs
        if x.state == "unmeasured"
    ]
    if run.interrupted:
        reasons.insert(0, "interrupted")
    return "; ".join(reasons) or "not measured"


def _row_night(row: str, runs: Sequence[RunRecord]) -> tuple[RowNight, list[Regression]]:
    """One row's state from its nightly runs (oldest first, the last one tonight's)."""
    tonight = runs[-1]
    unmeasured = 0
    for run in reversed(runs):
        if run.all_measured:
            break
        unmeasured += 1
    measured = [r for r in runs if _measured_something(r)]
    anchor = measured[-1] if measured else None
    previous = measured[-2] if len(measured) > 1 else None
    regressions: list[Regression] = []
    comparable: list[RunRecord] = []
    state: Comparability = "first"
    if anchor is not None:
        key = _comparison_key(anchor)
        comparable = [r for r in measured if _comparison_key(r) == key]
        if len(comparable) > 1:
            state = "compared"
        elif previous is not None:
            state = "not-comparable"
        tier = _tier_regression(row, comparable)
        if tier is not None:
            regressions.append(tier)
        regressions += _scenario_regressions(row, comparable)
    measured_before = any(r.all_measured for r in runs[: len(runs) - unmeasured])
    if unmeasured >= UNMEASURED_NIGHTS and measured_before:
        regressions.append(
            Regression(
                "unmeasured",
                row,
                night_of(runs[-unmeasured]),
                unmeasured,
                reason=_unmeasured_reason(tonight),
            )
        )
    return (
        RowNight(row, tonight.ref, tonight, anchor, state, previous, unmeasured),
        regressions,
    )


def line_night(line: str, runs: Iterable[RunRecord], night: date) -> LineNight:
    """The state of SDK line `line` on `night`, from the line's stored runs (any order)."""
    mine = [r for r in runs if r.sdk == line and night_of(r) <= night]
    if not mine:
        return LineNight(line, night, None, (), ())
    latest = max(night_of(r) for r in mine)
    by_row: dict[str, list[RunRecord]] = {}
    for run in mine:
        by_row.setdefault(row_name(run), []).append(run)
    rows: list[RowNight] = []
    regressions: list[Regression] = []
    for row in sorted(by_row):
        nightly = _nightly(by_row[row])
        if night_of(nightly[-1]) != latest:
            continue  # not run on the line's latest night: no longer in the matrix
        state, found = _row_night(row, nightly)
        rows.append(state)
        regressions += found
    regressions.sort(key=lambda r: (r.row, r.since, r.key))
    return LineNight(line, night, latest, tuple(rows), tuple(regressions))
