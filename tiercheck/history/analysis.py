"""What the history says (pure): failing streaks, SEP-1730 relegation, flaky scenarios, changes
and the score series, from stored runs.

How gaps count (decided here, documented in docs/history.md):

* Only a measured leg gives a verdict. A night without a run, an unmeasured or skipped leg, or
  a scenario the run did not report or could not measure is a *gap*: it neither breaks a
  streak nor extends it.
* A scenario disputed on a run's governance day (its dispute open, as the run recorded it) is
  left out of that run's reading, as SEP-1730 leaves out disputed tests "until the dispute is
  resolved": a dispute ends the scenario's streak (no streak, and so no relegation clock or
  early warning, runs through it), the 20% share leaves it out, and it counts again from the
  first run after its dispute is resolved, a new streak if it still fails.
* A streak starts at the first measured failure after the last measured pass and lasts until
  its latest measured failure. Its length is counted in calendar days (UTC) from the first to
  the latest measured failure, so gaps *inside* a streak are bridged (no pass was seen), but
  nights after the latest failure without a measurement never lengthen it.
* A streak carries across a referee change (a run under another harness version than the
  streak's latest failure): SEP-1730's clock does not restart because the referee moved. It
  restarts, at the first failure under the new harness, only when the failing scenario itself
  changed there: added, or its definition (the checks the harness can emit for it) differs
  from the one recorded by the streak's latest failure (`comparison.referee_change`). A
  definition either run did not record is no evidence of a change: the streak carries.
* "Relegation due" needs a measured failure on or after the date four weeks (28 days) after
  the streak began; "at risk" holds from the streak's first day, with that date.
* `changes` between two runs are the newly failing and fixed scenarios of the one rule of
  `tiercheck.comparison`, which the diff, the claim and the matrix follow too.
* The relegation clock reads the *stable series* alone: SEP-1730 relegates on "existing
  conformance tests on the latest stable release" failing for four weeks, and only runs of the
  ref `stable` measured that release. The same rules over the *branch series* (the default
  branch, nightly) are an early warning: what will reach the next release unless it is fixed,
  never the verdict. A history without a stable run has no clock reading (`no-stable-run`).
  Streaks, changes and flakiness are read within one series, never across the two.
* The Tier 2 → 3 rule ("more than 20% fail") judges a run at a revision only when every leg it
  planned at that revision was measured (skipped legs aside): a fraction of half the legs is a
  gap, not a verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Literal

from tiercheck.comparison import RefereeChange, comparable, compare, leg_measured
from tiercheck.history.record import RunRecord, ScenarioRow, Series
from tiercheck.history.regression import referee_of, run_scenarios
from tiercheck.scorecard.model import HistoryTrendPoint

__all__ = [
    "RELEGATION_DAYS",
    "TIER2_FAIL_SHARE",
    "Flaky",
    "Relegation",
    "RelegationReadings",
    "Streak",
    "changes",
    "current_streaks",
    "flaky_scenarios",
    "of_series",
    "relegation",
    "relegation_readings",
    "series",
]

#: SEP-1730: a streak of four weeks relegates.
RELEGATION_DAYS = 28
#: SEP-1730: Tier 2 → 3 when more than this share of required tests fail.
TIER2_FAIL_SHARE = 0.20

ScenarioKey = tuple[str, str, str]  # (revision, leg, scenario)
RuleName = Literal["tier1-to-tier2", "tier2-to-tier3"]
_RULES: tuple[RuleName, ...] = ("tier1-to-tier2", "tier2-to-tier3")
#: no-stable-run: the clock has no run to judge by (no run of the ref `stable` yet: no stable
#: release was assessed); unmeasured: runs were tried and not measured (a document written
#: before `no-stable-run` existed says it for no stable run, and still reads).
Status = Literal["clear", "at-risk", "relegation-due", "no-stable-run", "unmeasured"]


@dataclass(frozen=True)
class Streak:
    """A run of measured failures with no measured pass between them."""

    revision: str
    leg: str
    scenario: str
    first: RunRecord
    last: RunRecord
    runs: int
    check: str | None
    flaky: bool = False

    @property
    def days(self) -> float:
        """First to latest measured failure, in days."""
        return (self.last.timestamp - self.first.timestamp).total_seconds() / 86400


@dataclass(frozen=True)
class Relegation:
    """One SEP-1730 relegation rule at one claimed revision."""

    revision: str
    rule: RuleName
    status: Status
    first: RunRecord | None = None
    due_on: date | None = None
    scenarios: tuple[str, ...] = field(default=())
    #: The series judged: `stable` is SEP-1730's clock, `branch` an early warning.
    series: Series = "stable"


@dataclass(frozen=True)
class Flaky:
    """A scenario whose verdict changed between runs of one commit and configuration."""

    revision: str
    leg: str
    scenario: str
    commit: str | None
    flips: int


def _verdicts(run: RunRecord, *, scored_only: bool) -> dict[ScenarioKey, ScenarioRow]:
    """The scenarios of `run` with a verdict (measured legs, measured answers); with
    `scored_only`, those SEP-1730 counts that day (scored, no open dispute)."""
    measured = {(x.revision, x.leg) for x in run.legs if leg_measured(x.state)}
    return {
        (s.revision, s.leg, s.scenario): s
        for s in run.scenarios
        if (s.revision, s.leg) in measured
        and not s.unmeasured
        and (s.counts if scored_only else True)
    }


def _upto(runs: Iterable[RunRecord], as_of: datetime | None) -> list[RunRecord]:
    ordered = sorted(runs, key=lambda r: (r.timestamp, r.run_id))
    return [r for r in ordered if as_of is None or r.timestamp <= as_of]


def due_date(first: RunRecord) -> date:
    """The day a streak that began with `first` reaches four weeks."""
    return first.timestamp.date() + timedelta(days=RELEGATION_DAYS)


def current_streaks(
    runs: Iterable[RunRecord],
    as_of: datetime | None = None,
    *,
    flaky: Iterable[Flaky] | None = None,
) -> list[Streak]:
    """Every scored scenario whose latest measured verdict (up to `as_of`) is a failure, with
    the streak it is in; oldest streak first. `flaky` is `flaky_scenarios` of the same runs
    when the caller has it already (it is the costly part over a long history)."""
    open_streaks: dict[ScenarioKey, Streak] = {}
    ordered = _upto(runs, as_of)
    referees: dict[tuple[int, int], RefereeChange | None] = {}

    def restarts(before: RunRecord, run: RunRecord, scenario: str) -> bool:
        """The referee changed `scenario` between the two runs."""
        if comparable(before.harness_version, run.harness_version):
            return False
        pair = (id(before), id(run))
        if pair not in referees:
            referees[pair] = referee_of(before, run)
        change = referees[pair]
        return change is not None and change.restarts(scenario)

    for run in ordered:
        for row in run.scenarios:
            if row.scored and row.disputed:
                # Left out while its dispute is open: no streak runs through a dispute.
                open_streaks.pop((row.revision, row.leg, row.scenario), None)
        for key, row in _verdicts(run, scored_only=True).items():
            if row.passed:
                open_streaks.pop(key, None)
                continue
            before = open_streaks.get(key)
            if before is not None and restarts(before.last, run, row.scenario):
                before = None  # the referee changed the scenario: its clock starts again
            open_streaks[key] = Streak(
                *key,
                first=before.first if before else run,
                last=run,
                runs=(before.runs if before else 0) + 1,
                check=row.check,
            )
    flips = {
        (f.revision, f.leg, f.scenario)
        for f in (flaky_scenarios(ordered) if flaky is None else flaky)
    }
    streaks = [Streak(**{**s.__dict__, "flaky": key in flips}) for key, s in open_streaks.items()]
    return sorted(streaks, key=lambda s: (s.first.timestamp, s.revision, s.leg, s.scenario))


def _judge(
    revision: str,
    rule: RuleName,
    first: RunRecord | None,
    last: RunRecord | None,
    scenarios: Sequence[str],
) -> Relegation:
    if first is None or last is None:
        return Relegation(revision, rule, "clear")
    due = due_date(first)
    status: Status = "relegation-due" if last.timestamp.date() >= due else "at-risk"
    return Relegation(revision, rule, status, first, due, tuple(scenarios))


def _share_failing(
    run: RunRecord, revision: str, verdicts: Mapping[ScenarioKey, ScenarioRow]
) -> tuple[float, tuple[str, ...]] | None:
    """The share of scored scenarios failing at `revision`, or None when it is a gap;
    `verdicts` are the run's (`_verdicts(run, scored_only=True)`)."""
    legs = [x for x in run.legs if x.revision == revision and x.state != "skipped"]
    if not legs or any(x.state != "measured" for x in legs):
        return None
    rows = [r for k, r in verdicts.items() if k[0] == revision]
    if not rows:
        return None
    failing = tuple(sorted(f"{r.leg}/{r.scenario}" for r in rows if not r.passed))
    return len(failing) / len(rows), failing


def relegation(
    runs: Iterable[RunRecord],
    revisions: Sequence[str],
    as_of: datetime | None = None,
    *,
    streaks: Sequence[Streak] | None = None,
) -> list[Relegation]:
    """Both SEP-1730 relegation rules at each claimed revision, judged up to `as_of`.
    `streaks` is `current_streaks` of the same runs when the caller has it already."""
    ordered = _upto(runs, as_of)
    if streaks is None:
        streaks = current_streaks(ordered)
    out: list[Relegation] = []
    # Each run's counted verdicts, read once for every revision.
    counted = [(run, _verdicts(run, scored_only=True)) for run in ordered]
    for revision in revisions:
        mine = [s for s in streaks if s.revision == revision]
        if mine:
            # The rule fires on the oldest streak, judged by that streak's own latest failure.
            oldest = min(mine, key=lambda s: s.first.timestamp)
            names = [f"{s.leg}/{s.scenario}" for s in mine if s.first is oldest.first]
            out.append(_judge(revision, "tier1-to-tier2", oldest.first, oldest.last, names))
        else:
            out.append(_judge(revision, "tier1-to-tier2", None, None, ()))
        first: RunRecord | None = None
        latest: RunRecord | None = None
        failing: tuple[str, ...] = ()
        for run, verdicts in counted:
            share = _share_failing(run, revision, verdicts)
            if share is None:
                continue  # a gap: neither breaks nor extends
            if share[0] > TIER2_FAIL_SHARE:
                first = first or run
                latest, failing = run, share[1]
            else:
                first = latest = None
                failing = ()
        out.append(_judge(revision, "tier2-to-tier3", first, latest, failing))
    return out


def of_series(runs: Iterable[RunRecord], wanted: Series) -> list[RunRecord]:
    """The runs of one series (`RunRecord.series`), in the order given."""
    return [r for r in runs if r.series == wanted]


@dataclass(frozen=True)
class RelegationReadings:
    """SEP-1730's relegation clock (the stable series) and the early warning (the branch
    series), each rule at each revision."""

    verdict: tuple[Relegation, ...]
    early_warning: tuple[Relegation, ...]


def relegation_readings(
    runs: Iterable[RunRecord],
    revisions: Sequence[str],
    as_of: datetime | None = None,
    *,
    streaks: Mapping[Series, Sequence[Streak]] | None = None,
) -> RelegationReadings:
    """Both relegation rules over each series of one line's `runs`, judged up to `as_of`.

    The verdict reads the stable series only; when it holds no run up to `as_of` every rule is
    `no-stable-run` (no stable release was assessed, so the clock cannot be read: never clear,
    and not `unmeasured`, which is for runs tried and not measured). The early warning reads
    the branch series the same way, and is empty when that series is.
    """
    upto = _upto(runs, as_of)
    stable, branch = of_series(upto, "stable"), of_series(upto, "branch")
    known = streaks or {}
    # `streaks` holds a series' `current_streaks` of the same runs when the caller has them.
    if stable:
        verdict = tuple(relegation(stable, revisions, streaks=known.get("stable")))
    else:
        verdict = tuple(
            Relegation(revision, rule, "no-stable-run") for revision in revisions for rule in _RULES
        )
    warning = (
        tuple(
            replace(r, series="branch")
            for r in relegation(branch, revisions, streaks=known.get("branch"))
        )
        if branch
        else ()
    )
    return RelegationReadings(verdict, warning)


def flaky_scenarios(runs: Iterable[RunRecord]) -> list[Flaky]:
    """Scenarios whose measured verdict changed between runs of one commit and configuration,
    or within one run (it failed beside other work and passed by itself: one flip), with the
    number of changes (flips)."""
    seen: dict[tuple[str | None, str, ScenarioKey], tuple[bool, int]] = {}
    for run in _upto(runs, None):
        if run.commit is None:
            continue  # without a commit "the same code" cannot be established
        for key, row in _verdicts(run, scored_only=False).items():
            group = (run.commit, run.config_digest, key)
            before = seen.get(group)
            flips = 0 if before is None else before[1] + (before[0] != row.passed)
            seen[group] = (row.passed, flips + bool(row.flaky))
    return sorted(
        (
            Flaky(*key, commit=commit, flips=flips)
            for (commit, _, key), (_, flips) in seen.items()
            if flips > 0
        ),
        key=lambda f: (f.revision, f.leg, f.scenario, f.commit or ""),
    )


def changes(previous: RunRecord, current: RunRecord) -> list[tuple[ScenarioKey, bool, bool]]:
    """Scenarios newly failing or fixed from `previous` to `current`, by the rule of
    `tiercheck.comparison` (scored in both, legs measured in both, the same harness version):
    (key, passed before, passed now)."""
    found = compare(run_scenarios(previous), run_scenarios(current))
    return [
        ((c.revision, c.leg, c.scenario), c.was == "passed", c.now == "passed")
        for c in found.of("newly-failing", "fixed")
    ]


def series(runs: Iterable[RunRecord]) -> list[HistoryTrendPoint]:
    """The score series: per run, the tier (and whether it changed from the last run that had
    one; None for a run that measured nothing) and the scored pass rate per revision and leg
    (None where the leg was not measured)."""
    out: list[HistoryTrendPoint] = []
    previous_tier: int | None = None
    for run in _upto(runs, None):
        tier = run.assessed_tier
        rates: dict[str, dict[str, float | None]] = {}
        for x in run.legs:
            rates.setdefault(x.revision, {})[x.leg] = x.pass_rate if x.state == "measured" else None
        out.append(
            HistoryTrendPoint(
                run_id=run.run_id,
                timestamp=run.timestamp.isoformat().replace("+00:00", "Z"),
                commit=run.commit,
                tier=tier,
                tier_changed=None not in (previous_tier, tier) and previous_tier != tier,
                pass_rate=rates,
            )
        )
        previous_tier = tier if tier is not None else previous_tier
    return out
