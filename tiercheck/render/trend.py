"""The trend charts of the kit (pure): a pass rate per column over runs, as inline SVG.

`trend_svg` draws one line per (revision, leg) column with a dashed mark at every tier change,
for `tier-check history`, the scorecard's HTML page, the matrix page and the dashboard alike;
`sparkline_svg` one small line. No script, nothing fetched. A point is anything with the
fields of `TrendPoint` (the scorecard's `HistoryTrendPoint` is one); the columns come from
the document (`scorecard.readings.trend_columns`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from tiercheck.render.svg import Svg, el, join, svg

__all__ = ["TrendPoint", "sparkline_svg", "trend_svg"]

#: Horizontal room for one legend entry ("2026-07-28 server" at 9 px), and a legend line's height.
_LEGEND_STEP = 110
_LEGEND_LINE = 11
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


class TrendPoint(Protocol):
    """One run on the chart: when, its tier, whether the tier changed, and its pass rates."""

    @property
    def timestamp(self) -> str: ...
    @property
    def tier(self) -> int | None:
        """None: the run measured nothing."""
        ...

    @property
    def tier_changed(self) -> bool: ...
    @property
    def pass_rate(self) -> Mapping[str, Mapping[str, float | None]]:
        """revision → leg → pass rate, None where the leg was not measured."""
        ...


def trend_svg(
    label: str,
    points: Sequence[TrendPoint],
    columns: Sequence[tuple[str, str]],
    *,
    width: int = 480,
    height: int = 160,
    gaps: bool = False,
) -> Svg:
    """The chart of `points` (oldest first), a line per (revision, leg) of `columns`: a gap
    where a leg was not measured, a dashed vertical line where the tier changed, a legend of
    the lines along the bottom. With `gaps`,
    an amber tick under the chart marks each run where a leg was not measured (a gap in one
    line is hidden when another line runs over it)."""
    pad = 24
    # The legend runs along the bottom, wrapping onto more lines when the chart is narrow.
    per_line = max(1, (width - 8) // _LEGEND_STEP)
    legend_lines = max(1, -(-len(columns) // per_line))
    bottom = pad + _LEGEND_LINE * (legend_lines - 1)
    inner_w, inner_h = width - 2 * pad, height - pad - bottom
    n = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return pad + inner_w * i / n

    def y(rate: float) -> float:
        return pad + inner_h * (1 - rate)

    parts: list[Svg] = [
        el("rect", x=pad, y=pad, width=inner_w, height=inner_h, fill="none", stroke="#ccc"),
        el("text", "100%", x="2", y=pad + 4, font_size="9"),
        el("text", "0%", x="2", y=pad + inner_h, font_size="9"),
    ]
    for i, point in enumerate(points):
        if point.tier_changed:
            parts.append(
                el(
                    "line",
                    el("title", f"tier {point.tier or '—'} from {point.timestamp}"),
                    x1=f"{x(i):.1f}",
                    y1=pad,
                    x2=f"{x(i):.1f}",
                    y2=pad + inner_h,
                    stroke="#999",
                    stroke_dasharray="3,3",
                )
            )
    for i, point in enumerate(points):
        missing = [
            f"{rev} {leg}"
            for rev, leg in columns
            if rev in point.pass_rate and point.pass_rate[rev].get(leg, 0.0) is None
        ]
        if gaps and missing:
            parts.append(
                el(
                    "rect",
                    el("title", f"{point.timestamp[:10]}: {', '.join(missing)} not measured"),
                    x=f"{x(i) - 1.5:.1f}",
                    y=pad + inner_h + 1,
                    width="3",
                    height="5",
                    fill="#bf8700",
                )
            )
    for k, (rev, leg) in enumerate(columns):
        colour = _PALETTE[k % len(_PALETTE)]
        segments: list[list[str]] = [[]]
        for i, point in enumerate(points):
            rate = point.pass_rate.get(rev, {}).get(leg)
            if rate is None:
                segments.append([])  # a gap: the line stops and starts again after it
                continue
            segments[-1].append(f"{x(i):.1f},{y(rate):.1f}")
        parts += [_segment(seg, colour, "2", "1.5") for seg in filter(None, segments)]
        line, place = divmod(k, per_line)
        y_text = height - 6 - _LEGEND_LINE * (legend_lines - 1 - line)
        parts.append(
            el(
                "text",
                f"{rev} {leg}",
                x=pad + 4 + _LEGEND_STEP * place,
                y=y_text,
                font_size="9",
                fill=colour,
            )
        )
    return svg(
        join(parts),
        width=width,
        height=height,
        viewBox=f"0 0 {width} {height}",
        role="img",
        aria_label=f"scored pass rate of {label} over time",
    )


def _segment(seg: Sequence[str], colour: str, radius: str, stroke_width: str) -> Svg:
    """One stretch of a line: a dot when it is one point, else a polyline through them."""
    if len(seg) == 1:
        cx, cy = seg[0].split(",")
        return el("circle", cx=cx, cy=cy, r=radius, fill=colour)
    return el(
        "polyline", fill="none", stroke=colour, stroke_width=stroke_width, points=" ".join(seg)
    )


def sparkline_svg(
    label: str,
    points: Sequence[tuple[str, float | None]],
    *,
    width: int = 150,
    height: int = 26,
) -> Svg:
    """A small line of one pass rate over runs (oldest first): `points` are (time, rate), rate
    None where the leg was not measured — a gap in the line and an amber tick below it. Each
    fall of the rate and each gap carries a `<title>` with its night, so the chart can be
    read without colour (and by a screen reader)."""
    pad = 3
    n = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * i / n

    def y(rate: float) -> float:
        return pad + (height - 2 * pad - 4) * (1 - rate)

    segments: list[list[str]] = [[]]
    marks: list[Svg] = []
    previous: float | None = None
    for i, (moment, rate) in enumerate(points):
        day = moment[:10]
        if rate is None:
            segments.append([])
            marks.append(
                el(
                    "rect",
                    el("title", f"{day}: unmeasured"),
                    x=f"{x(i) - 1:.1f}",
                    y=height - 4,
                    width="2",
                    height="4",
                    fill="#bf8700",
                )
            )
            continue
        segments[-1].append(f"{x(i):.1f},{y(rate):.1f}")
        if previous is not None and rate < previous:
            marks.append(
                el(
                    "circle",
                    el("title", f"{day}: {rate:.0%}"),
                    cx=f"{x(i):.1f}",
                    cy=f"{y(rate):.1f}",
                    r="2",
                    fill="#cf222e",
                )
            )
        previous = rate
    lines = [_segment(seg, "#0969da", "1.5", "1.2") for seg in filter(None, segments)]
    return svg(
        join([*lines, *marks]),
        class_="spark",
        width=width,
        height=height,
        viewBox=f"0 0 {width} {height}",
        role="img",
        aria_label=label,
    )
