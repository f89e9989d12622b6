"""`tier-check history`: the report of one SDK line's history, as data and as text (pure).

`history_report` gathers the runs into one typed document; `render_terminal`, `render_markdown`
and `to_json` write it. `trend_svg` draws the scored pass rate per revision and leg over time,
with tier changes marked, as a self-contained inline SVG (no script, nothing fetched).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

from tiercheck.history.analysis import current_streaks, flaky_scenarios, relegation, series
from tiercheck.history.record import RunRecord
from tiercheck.history.section import relegation_entry, streak_entry
from tiercheck.model import to_json
from tiercheck.report.history import relegation_line, short_commit, streak_line
from tiercheck.scorecard.model import (
    HistoryFlaky,
    HistoryRelegation,
    HistoryStreak,
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
    series: tuple[dict[str, Any], ...]
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


def _columns(report: HistoryReport) -> list[tuple[str, str]]:
    return [(rev, leg) for rev in report.revisions for leg in ("server", "client")]


def render_terminal(report: HistoryReport) -> str:
    """Plain text: the runs table, the failing streaks, relegation, flaky scenarios."""
    cols = _columns(report)
    lines = [f"history of {report.sdk}: {report.runs} run(s) up to {report.as_of} "]
    if report.since:
        lines[0] += f", since {report.since}"
    header = ["time", "commit", "tier", *(f"{rev} {leg}" for rev, leg in cols)]
    rows = []
    for point in report.series:
        rates = point["pass_rate"]
        mark = " *" if point["tier_changed"] else ""
        rows.append(
            [
                str(point["timestamp"]),
                short_commit(point["commit"]),
                f"{point['tier']}{mark}",
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
    cols = _columns(report)
    out = [f"# History of {report.sdk}", "", f"{report.runs} run(s) up to {report.as_of}.", ""]
    out.append("| time | commit | tier | " + " | ".join(f"{r} {leg}" for r, leg in cols) + " |")
    out.append("|" + "---|" * (3 + len(cols)))
    for point in report.series:
        rates = point["pass_rate"]
        tier = f"**{point['tier']}** (changed)" if point["tier_changed"] else str(point["tier"])
        out.append(
            f"| {point['timestamp']} | `{short_commit(point['commit'])}` | {tier} | "
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


_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def trend_svg(report: HistoryReport, *, width: int = 480, height: int = 160) -> str:
    """The scored pass rate per revision and leg over the runs, one line each (a gap where a
    leg was not measured), with a dashed vertical mark at each tier change."""
    points = report.series
    pad = 24
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    n = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return pad + inner_w * i / n

    def y(rate: float) -> float:
        return pad + inner_h * (1 - rate)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="scored pass rate of {escape(report.sdk)} over time">',
        f'<rect x="{pad}" y="{pad}" width="{inner_w}" height="{inner_h}" fill="none" '
        'stroke="#ccc"/>',
        f'<text x="2" y="{pad + 4}" font-size="9">100%</text>',
        f'<text x="2" y="{pad + inner_h}" font-size="9">0%</text>',
    ]
    for i, point in enumerate(points):
        if point["tier_changed"]:
            parts.append(
                f'<line x1="{x(i):.1f}" y1="{pad}" x2="{x(i):.1f}" y2="{pad + inner_h}" '
                f'stroke="#999" stroke-dasharray="3,3"><title>tier {point["tier"]} from '
                f"{escape(str(point['timestamp']))}</title></line>"
            )
    for k, (rev, leg) in enumerate(_columns(report)):
        colour = _PALETTE[k % len(_PALETTE)]
        segment: list[str] = []
        segments: list[list[str]] = []
        for i, point in enumerate(points):
            rate = point["pass_rate"].get(rev, {}).get(leg)
            if rate is None:
                if segment:
                    segments.append(segment)
                segment = []
                continue
            segment.append(f"{x(i):.1f},{y(float(rate)):.1f}")
        if segment:
            segments.append(segment)
        for seg in segments:
            if len(seg) == 1:
                cx, cy = seg[0].split(",")
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="2" fill="{colour}"/>')
            else:
                parts.append(
                    f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" '
                    f'points="{" ".join(seg)}"/>'
                )
        parts.append(
            f'<text x="{pad + 4 + 110 * k}" y="{height - 6}" font-size="9" fill="{colour}">'
            f"{escape(rev)} {leg}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
