"""`tier-check history`'s report: one SDK line's history as a typed document, before any
format (pure).

`history_report` gathers the runs into one typed document; its formats (terminal, Markdown,
JSON, the trend SVG) are rendered by `history.render` through `document_formats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tiercheck.history.analysis import (
    current_streaks,
    flaky_scenarios,
    of_series,
    relegation_readings,
    series,
)
from tiercheck.history.record import RunRecord
from tiercheck.history.section import relegation_entry, streak_entry
from tiercheck.history.unaddressed import latest_ground
from tiercheck.model import to_json
from tiercheck.scorecard.model import (
    HistoryFlaky,
    HistoryRelegation,
    HistoryStreak,
    HistoryTrendPoint,
    HistoryUnaddressed,
)

__all__ = ["HistoryReport", "history_report"]


@dataclass(frozen=True, kw_only=True)
class HistoryReport:
    """One SDK line's history up to `as_of`."""

    sdk: str
    database: str
    as_of: str
    since: str | None
    revisions: tuple[str, ...]
    runs: int
    series: tuple[HistoryTrendPoint, ...]
    streaks: tuple[HistoryStreak, ...]
    relegation: tuple[HistoryRelegation, ...]
    #: The same rules over the branch series: an early warning, never the verdict.
    early_warning: tuple[HistoryRelegation, ...]
    #: SEP-1730's other relegation ground (issues unaddressed for two months), as the latest
    #: run up to `as_of` judged it: one reviewers may weigh, never the four-week clock.
    unaddressed: HistoryUnaddressed
    flaky: tuple[HistoryFlaky, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data (`--output json`)."""
        data: dict[str, Any] = to_json(self)
        return data


def history_report(
    runs: Sequence[RunRecord],
    *,
    sdk: str,
    database: str,
    as_of: datetime,
    since: datetime | None,
) -> HistoryReport:
    """The history report of `runs` (one SDK line's, oldest first).

    Streaks and relegation are judged over every run up to `as_of` (a streak may have begun
    before `since`); the series and the flaky list cover the window `since`..`as_of`. The
    relegation clock reads the stable series (runs of the ref `stable`), the early warning the
    branch series; the trend, streaks and flaky list are the branch series' (the stable
    series' when the line has no other). Issues unaddressed for two months are read from the
    latest run up to `as_of`, of either series (they are the repository's).
    """
    every = [r for r in runs if r.timestamp <= as_of]
    readings = relegation_readings(every, every[-1].revisions if every else ())
    upto = of_series(every, "branch") or of_series(every, "stable")
    window = [r for r in upto if since is None or r.timestamp >= since]
    revisions = upto[-1].revisions if upto else ()
    return HistoryReport(
        sdk=sdk,
        database=database,
        as_of=as_of.replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        since=since.isoformat().replace("+00:00", "Z") if since else None,
        revisions=revisions,
        runs=len(window),
        series=tuple(series(window)),
        streaks=tuple(streak_entry(s) for s in current_streaks(upto)),
        relegation=tuple(relegation_entry(r) for r in readings.verdict),
        early_warning=tuple(relegation_entry(r) for r in readings.early_warning),
        unaddressed=latest_ground(every),
        flaky=tuple(
            HistoryFlaky(
                revision=f.revision, leg=f.leg, scenario=f.scenario, commit=f.commit, flips=f.flips
            )
            for f in flaky_scenarios(window)
        ),
    )
