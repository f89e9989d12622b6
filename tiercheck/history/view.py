"""`tier-check history`: the report of one SDK line's history, as data and as text (pure).

`history_report` gathers the runs into one typed document; `render_terminal`, `render_markdown`
and `to_json` write it. `trend_svg` draws the scored pass rate per revision and leg over time,
with tier changes marked, as a self-contained inline SVG (no script, nothing fetched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tiercheck.history.analysis import current_streaks, flaky_scenarios, relegation, series
from tiercheck.history.record import RunRecord
from tiercheck.history.section import relegation_entry, streak_entry
from tiercheck.model import to_json
from tiercheck.report.history import relegation_line, short_commit, streak_line
from tiercheck.report.trend import trend_columns
from tiercheck.report.trend import trend_svg as render_trend
from tiercheck.scorecard.model import (
    HistoryFlaky,
    HistoryRelegation,
    HistoryStreak,
    HistoryTrendPoint,
)

__all__ = ["HistoryReport", "history_report", "render_markdown", "render_terminal", "trend_svg"]


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
    before `since`); the series and the flaky list cover the window `since`..`as_of`.
    """
    upto = [r for r in runs if r.timestamp <= as_of]
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
        relegation=tuple(relegation_entry(r) for r in relegation(upto, revisions)),
        flaky=tuple(
            HistoryFlaky(
                revision=f.revision, leg=f.leg, scenario=f.scenario, commit=f.commit, flips=f.flips
            )
            for f in flaky_scenarios(window)
        ),
    )


def _rate(value: object) -> str:
    return "—" if value is None else f"{float(str(value)) * 100:.0f}%"


def render_terminal(report: HistoryReport) -> str:
    """Plain text: the runs table, the failing streaks, relegation, flaky scenarios."""
    cols = trend_columns(report.revisions)
    lines = [f"history of {report.sdk}: {report.runs} run(s) up to {report.as_of} "]
    if report.since:
        lines[0] += f", since {report.since}"
    header = ["time", "commit", "tier", *(f"{rev} {leg}" for rev, leg in cols)]
    rows = []
    for point in report.series:
        rates = point.pass_rate
        mark = " *" if point.tier_changed else ""
        rows.append(
            [
                point.timestamp,
                short_commit(point.commit),
                f"{point.tier}{mark}",
                *(_rate(rates.get(rev, {}).get(leg)) for rev, leg in cols),
            ]
        )
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)
    ]
    table = [header, *rows]
    lines += [""] + [
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in table
    ]
    lines += ["(* the tier changed)", "", "failing now:"]
    lines += [f"  {streak_line(s)}" for s in report.streaks] or ["  nothing"]
    lines += ["", "relegation (SEP-1730):"]
    lines += [f"  {relegation_line(r)}" for r in report.relegation] or ["  no claimed revision"]
    lines += ["", "flaky (verdict changed on one commit and configuration):"]
    lines += [
        f"  {f.revision} {f.leg} {f.scenario}: {f.flips} flip(s) at {short_commit(f.commit)}"
        for f in report.flaky
    ] or ["  none"]
    return "\n".join(lines) + "\n"


def render_markdown(report: HistoryReport) -> str:
    """Markdown: the same sections as the terminal text, as tables and lists."""
    cols = trend_columns(report.revisions)
    out = [f"# History of {report.sdk}", "", f"{report.runs} run(s) up to {report.as_of}.", ""]
    out.append("| time | commit | tier | " + " | ".join(f"{r} {leg}" for r, leg in cols) + " |")
    out.append("|" + "---|" * (3 + len(cols)))
    for point in report.series:
        rates = point.pass_rate
        tier = f"**{point.tier}** (changed)" if point.tier_changed else str(point.tier)
        out.append(
            f"| {point.timestamp} | `{short_commit(point.commit)}` | {tier} | "
            + " | ".join(_rate(rates.get(rev, {}).get(leg)) for rev, leg in cols)
            + " |"
        )
    out += ["", "## Failing now", ""]
    out += [f"- {streak_line(s)}" for s in report.streaks] or ["Nothing."]
    out += ["", "## Relegation (SEP-1730)", ""]
    out += [f"- {relegation_line(r)}" for r in report.relegation] or ["No claimed revision."]
    out += ["", "## Flaky scenarios", ""]
    out += [
        f"- {f.revision} {f.leg} `{f.scenario}`: {f.flips} flip(s) at `{short_commit(f.commit)}`"
        for f in report.flaky
    ] or ["None."]
    return "\n".join(out) + "\n"


def trend_svg(report: HistoryReport) -> str:
    """The report's series as the trend chart (see `report.trend`)."""
    return render_trend(report.sdk, report.series, report.revisions)
