"""The renderings of `tier-check history`'s report (`history.report.HistoryReport`): terminal
text, Markdown, the trend SVG and the JSON data with the chart in it.

Pure: one SDK line's `HistoryReport` in, text out. `trend_svg` draws the scored pass rate per
revision and leg over time, with tier changes marked, as a self-contained inline SVG (no
script, nothing fetched).
"""

from __future__ import annotations

from typing import Any

from tiercheck.history.report import HistoryReport
from tiercheck.plaintext import one_line
from tiercheck.render import markdown as md
from tiercheck.render.markdown import BLANK, Inline, Md, bullet, code, fmt
from tiercheck.render.trend import trend_svg as render_trend
from tiercheck.scorecard.history_text import (
    relegation_line,
    short_commit,
    streak_line,
    unaddressed_line,
)
from tiercheck.scorecard.readings import trend_columns

__all__ = ["json_data", "render_markdown", "render_terminal", "trend_svg"]


def _rate(value: object) -> str:
    return "—" if value is None else f"{float(str(value)) * 100:.0f}%"


def render_terminal(report: HistoryReport) -> str:
    """Plain text: the runs table, the failing streaks, relegation (the clock, the early
    warning, then issues unaddressed for two months), flaky scenarios."""
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
                f"{'—' if point.tier is None else point.tier}{mark}",
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
    lines += [f"  {relegation_line(r, sdk=report.sdk)}" for r in report.relegation] or [
        "  no claimed revision"
    ]
    lines += [f"  {relegation_line(r, sdk=report.sdk)}" for r in report.early_warning]
    lines += [f"  {unaddressed_line(report.unaddressed)}"]
    lines += ["", "flaky (verdict changed on one commit and configuration):"]
    lines += [
        f"  {f.revision} {f.leg} {one_line(f.scenario)}: {f.flips} flip(s) at "
        f"{short_commit(f.commit)}"
        for f in report.flaky
    ] or ["  none"]
    return "\n".join(lines) + "\n"


def render_markdown(report: HistoryReport) -> str:
    """Markdown: the same sections as the terminal text, as tables and lists."""
    cols = trend_columns(report.revisions)
    out: list[Md] = [
        md.heading(1, fmt("History of {}", report.sdk)),
        BLANK,
        fmt("{} run(s) up to {}.", report.runs, report.as_of),
        BLANK,
    ]
    rows: list[list[Inline]] = []
    for point in report.series:
        rates = point.pass_rate
        shown = "not assessed" if point.tier is None else str(point.tier)
        tier = f"**{shown}** (changed)" if point.tier_changed else shown
        rows.append(
            [
                point.timestamp,
                code(short_commit(point.commit)),
                tier,
                *(_rate(rates.get(rev, {}).get(leg)) for rev, leg in cols),
            ]
        )
    out += md.table(["time", "commit", "tier", *(f"{r} {leg}" for r, leg in cols)], rows)
    out += [BLANK, md.heading(2, "Failing now"), BLANK]
    out += [bullet(streak_line(s)) for s in report.streaks] or [md.own("Nothing.")]
    out += [BLANK, md.heading(2, "Relegation (SEP-1730)"), BLANK]
    out += [bullet(relegation_line(r, sdk=report.sdk)) for r in report.relegation] or [
        md.own("No claimed revision.")
    ]
    out += [bullet(relegation_line(r, sdk=report.sdk)) for r in report.early_warning]
    out += [bullet(unaddressed_line(report.unaddressed))]
    out += [BLANK, md.heading(2, "Flaky scenarios"), BLANK]
    out += [
        bullet(
            fmt(
                "{} {} {}: {} flip(s) at {}",
                f.revision,
                f.leg,
                code(f.scenario),
                f.flips,
                code(short_commit(f.commit)),
            )
        )
        for f in report.flaky
    ] or [md.own("None.")]
    return md.document(out)


def trend_svg(report: HistoryReport) -> str:
    """The report's series as the trend chart (see `render.trend`)."""
    return render_trend(report.sdk, report.series, trend_columns(report.revisions))


def json_data(report: HistoryReport) -> dict[str, Any]:
    """The report as `--output json` prints it: its JSON form and, beside it, the trend chart."""
    return {**report.to_json(), "trend_svg": trend_svg(report)}
