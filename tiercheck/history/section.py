"""The scorecard's `history` section: this run against the runs stored before it (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from tiercheck.comparison import starts_comparisons
from tiercheck.history.analysis import (
    Relegation,
    Streak,
    changes,
    current_streaks,
    flaky_scenarios,
    relegation_readings,
    series,
)
from tiercheck.history.record import RunRecord
from tiercheck.history.regression import run_scenarios
from tiercheck.history.unaddressed import unaddressed_ground
from tiercheck.scorecard.model import (
    HistoryBlock,
    HistoryChange,
    HistoryFlaky,
    HistoryRelegation,
    HistoryRun,
    HistoryStreak,
)

__all__ = ["TREND_RUNS", "history_block", "relegation_entry", "run_entry", "stamp", "streak_entry"]

#: How many runs the scorecard's trend keeps (this one included): two months of nightly runs,
#: enough to see a four-week streak begin, while the scorecard stays small.
TREND_RUNS = 60


def stamp(record: RunRecord) -> str:
    """A run's time as the scorecard writes times."""
    return record.timestamp.isoformat().replace("+00:00", "Z")


def run_entry(record: RunRecord) -> HistoryRun:
    """A stored run, as the section names it."""
    return HistoryRun(
        run_id=record.run_id, timestamp=stamp(record), commit=record.commit, tier=record.tier
    )


def streak_entry(s: Streak) -> HistoryStreak:
    """A failing streak, as the section writes it."""
    return HistoryStreak(
        revision=s.revision,
        leg=s.leg,
        scenario=s.scenario,
        since=stamp(s.first),
        since_run=s.first.run_id,
        since_commit=s.first.commit,
        runs=s.runs,
        days=round(s.days, 2),
        check=s.check,
        flaky=s.flaky,
    )


def relegation_entry(r: Relegation) -> HistoryRelegation:
    """A relegation rule's verdict, as the section writes it."""
    return HistoryRelegation(
        revision=r.revision,
        rule=r.rule,
        status=r.status,
        since=stamp(r.first) if r.first else None,
        since_commit=r.first.commit if r.first else None,
        due_on=r.due_on.isoformat() if r.due_on else None,
        scenarios=r.scenarios,
        series=r.series,
    )


def history_block(
    before: Sequence[RunRecord],
    current: RunRecord,
    *,
    database: str | None,
) -> HistoryBlock:
    """The section for `current`, given the same SDK line's runs stored `before` it.

    The previous run (the latest that measured something), changes, streaks, flakiness and
    trend are those of `current`'s series (`RunRecord.series`); the relegation clock reads the
    stable series and the early warning the branch series, whichever series `current` is in.
    The other relegation ground, issues unaddressed for two months, is `current`'s own
    judgement (it is the latest run).
    """
    # A run id is only its output folder's name (`report` for every run written to one): the
    # current run is told apart by its id *and* time, in case it is already stored.
    itself = (current.run_id, current.timestamp)
    every = [
        r for r in before if (r.run_id, r.timestamp) != itself and r.timestamp <= current.timestamp
    ]
    earlier = [r for r in every if r.series == current.series]
    runs = [*earlier, current]
    readings = relegation_readings([*every, current], current.revisions)
    # A run that measured nothing is never the one a comparison starts from.
    baselines = [r for r in earlier if starts_comparisons(run_scenarios(r))]
    previous = max(baselines, key=lambda r: (r.timestamp, r.run_id)) if baselines else None
    changed = (
        [
            HistoryChange(
                revision=rev,
                leg=leg,
                scenario=name,
                before="pass" if was else "fail",
                after="pass" if now else "fail",
            )
            for (rev, leg, name), was, now in changes(previous, current)
        ]
        if previous
        else []
    )
    same_code = [
        r for r in runs if r.commit == current.commit and r.config_digest == current.config_digest
    ]
    return HistoryBlock(
        database=database,
        previous=run_entry(previous) if previous else None,
        changes=tuple(changed),
        streaks=tuple(streak_entry(s) for s in current_streaks(runs)),
        relegation=tuple(relegation_entry(r) for r in readings.verdict),
        early_warning=tuple(relegation_entry(r) for r in readings.early_warning),
        unaddressed=unaddressed_ground(current),
        flaky=tuple(
            HistoryFlaky(
                revision=f.revision, leg=f.leg, scenario=f.scenario, commit=f.commit, flips=f.flips
            )
            for f in flaky_scenarios(same_code)
        ),
        trend=tuple(series(runs)[-TREND_RUNS:]),
    )
