"""The trend charts of the kit (pure): a pass rate per column over runs, as inline SVG.

`trend_svg` draws one line per (revision, leg) column with a dashed mark at every tier change,
for `tier-check history`, the scorecard's HTML page, the matrix page and the dashboard alike.
A line is told from the others by more than its colour: its own dash pattern and marker shape
(also drawn in its legend entry), a marker with a `<title>` (night, column, rate) at every run,
and, with `end_labels`, its name and last rate written at its end;
`sparkline_svg` one small line. No script, nothing fetched. A point is anything with the
fields of `TrendPoint` (the scorecard's `HistoryTrendPoint` is one); the columns come from
the document (`scorecard.readings.trend_columns`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from tiercheck.render.svg import Svg, el, join, svg

__all__ = ["TrendPoint", "sparkline_svg", "trend_svg"]

#: Horizontal room for one legend entry ("2026-07-28 server" at 9 px), and a legend line's height.
_LEGEND_STEP = 110
_LEGEND_LINE = 11
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
#: Each line's dash pattern (None: solid) and marker shape, by its place, as its colour is.
_DASHES = (None, "6,3", "2,2", "8,3,2,3")
_MARKERS = ("circle", "square", "triangle", "diamond")
#: Room right of the plot for the end labels ("2026-07-28 server 100%" at 9 px), and their
#: least distance apart.
_LABEL_ROOM = 124
_LABEL_GAP = 10


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


@dataclass(frozen=True)
class _Plot:
    """Where a trend chart draws: run `i` of `runs` at `x(i)` and a pass rate at `y(rate)` in
    the area inside `pad`, and legend entry `k` at `legend_at(k)`, `per_line` entries to a
    line on `legend_lines` lines along the bottom of a chart `height` high."""

    pad: int
    inner_w: int
    inner_h: int
    runs: int
    height: int
    per_line: int
    legend_lines: int

    @classmethod
    def of(cls, width: int, height: int, runs: int, columns: int, right: int = 0) -> _Plot:
        """The layout of a chart of `runs` runs and `columns` lines, `right` more room right
        of the plot: the legend wraps onto more lines when the chart is narrow, and the
        plotting area gives it the room."""
        pad = 24
        per_line = max(1, (width - 8) // _LEGEND_STEP)
        legend_lines = max(1, -(-columns // per_line))
        bottom = pad + _LEGEND_LINE * (legend_lines - 1)
        return cls(
            pad,
            width - 2 * pad - right,
            height - pad - bottom,
            runs,
            height,
            per_line,
            legend_lines,
        )

    def x(self, i: int) -> float:
        return self.pad + self.inner_w * i / max(self.runs - 1, 1)

    def y(self, rate: float) -> float:
        return self.pad + self.inner_h * (1 - rate)

    def legend_at(self, k: int) -> tuple[int, int]:
        line, place = divmod(k, self.per_line)
        x = self.pad + 4 + _LEGEND_STEP * place
        return x, self.height - 6 - _LEGEND_LINE * (self.legend_lines - 1 - line)


def _frame(plot: _Plot) -> list[Svg]:
    """The plotting area's border and its 100% and 0% marks."""
    pad, inner_w, inner_h = plot.pad, plot.inner_w, plot.inner_h
    return [
        el("rect", x=pad, y=pad, width=inner_w, height=inner_h, fill="none", stroke="#ccc"),
        el("text", "100%", x="2", y=pad + 4, font_size="9"),
        el("text", "0%", x="2", y=pad + inner_h, font_size="9"),
    ]


def _tier_changes(points: Sequence[TrendPoint], plot: _Plot) -> list[Svg]:
    """A dashed vertical line at each run whose tier changed, titled with the new tier."""
    return [
        el(
            "line",
            el("title", f"tier {point.tier or '—'} from {point.timestamp}"),
            x1=f"{plot.x(i):.1f}",
            y1=plot.pad,
            x2=f"{plot.x(i):.1f}",
            y2=plot.pad + plot.inner_h,
            stroke="#999",
            stroke_dasharray="3,3",
        )
        for i, point in enumerate(points)
        if point.tier_changed
    ]


def _unmeasured_ticks(
    points: Sequence[TrendPoint], columns: Sequence[tuple[str, str]], plot: _Plot
) -> list[Svg]:
    """An amber tick under each run where a leg of `columns` was not measured, titled with the
    legs."""
    ticks: list[Svg] = []
    for i, point in enumerate(points):
        missing = [
            f"{rev} {leg}"
            for rev, leg in columns
            if rev in point.pass_rate and point.pass_rate[rev].get(leg, 0.0) is None
        ]
        if missing:
            ticks.append(
                el(
                    "rect",
                    el("title", f"{point.timestamp[:10]}: {', '.join(missing)} not measured"),
                    x=f"{plot.x(i) - 1.5:.1f}",
                    y=plot.pad + plot.inner_h + 1,
                    width="3",
                    height="5",
                    fill="#bf8700",
                )
            )
    return ticks


def _marker(k: int, x: float, y: float, colour: str | None, *children: Svg) -> Svg:
    """Column `k`'s marker (a circle, square, triangle or diamond) centred at (x, y), filled
    with `colour` (None: its group's)."""
    shape = _MARKERS[k % len(_MARKERS)]
    if shape == "circle":
        return el("circle", *children, cx=f"{x:.1f}", cy=f"{y:.1f}", r="2.5", fill=colour)
    if shape == "square":
        return el(
            "rect",
            *children,
            x=f"{x - 2.2:.1f}",
            y=f"{y - 2.2:.1f}",
            width="4.4",
            height="4.4",
            fill=colour,
        )
    if shape == "triangle":
        d = f"M{x:.1f},{y - 3:.1f}L{x + 3:.1f},{y + 2.2:.1f}L{x - 3:.1f},{y + 2.2:.1f}Z"
    else:
        top, right = f"{x:.1f},{y - 3.2:.1f}", f"{x + 3.2:.1f},{y:.1f}"
        d = f"M{top}L{right}L{x:.1f},{y + 3.2:.1f}L{x - 3.2:.1f},{y:.1f}Z"
    return el("path", *children, d=d, fill=colour)


def _sample(k: int, x: float, y: float) -> list[Svg]:
    """A short stretch of column `k`'s line with its marker, for its legend entry or label."""
    colour = _PALETTE[k % len(_PALETTE)]
    return [
        el(
            "line",
            x1=f"{x:.1f}",
            y1=f"{y:.1f}",
            x2=f"{x + 14:.1f}",
            y2=f"{y:.1f}",
            stroke=colour,
            stroke_width="1.5",
            stroke_dasharray=_DASHES[k % len(_DASHES)],
        ),
        _marker(k, x + 7, y, colour),
    ]


def _column(
    points: Sequence[TrendPoint], column: tuple[str, str], k: int, plot: _Plot
) -> list[Svg]:
    """Column `k`'s line in its colour and dash pattern, broken where its leg was not
    measured, a marker titled with the night and the rate at each run, and its legend
    entry (a sample of the line, then its name)."""
    rev, leg = column
    colour = _PALETTE[k % len(_PALETTE)]
    dash = _DASHES[k % len(_DASHES)]
    segments: list[list[str]] = [[]]
    markers: list[Svg] = []
    for i, point in enumerate(points):
        rate = point.pass_rate.get(rev, {}).get(leg)
        if rate is None:
            segments.append([])  # a gap: the line stops and starts again after it
            continue
        segments[-1].append(f"{plot.x(i):.1f},{plot.y(rate):.1f}")
        title = el("title", f"{point.timestamp[:10]} {rev} {leg}: {rate:.0%}")
        markers.append(_marker(k, plot.x(i), plot.y(rate), None, title))
    x, y = plot.legend_at(k)
    lines = [
        el(
            "polyline",
            fill="none",
            stroke=colour,
            stroke_width="1.5",
            points=" ".join(seg),
            stroke_dasharray=dash,
        )
        for seg in segments
        if len(seg) > 1
    ]
    return [
        *lines,
        *([el("g", *markers, fill=colour)] if markers else []),
        *_sample(k, x, y - 3),
        el("text", f"{rev} {leg}", x=x + 18, y=y, font_size="9", fill=colour),
    ]


def _end_labels(
    points: Sequence[TrendPoint], columns: Sequence[tuple[str, str]], plot: _Plot
) -> list[Svg]:
    """Each column's name and last rate right of the plot, at the height of its last point
    (moved apart just enough to be read when lines end together), after a sample of its
    line."""
    ends: list[tuple[float, int, str]] = []
    for k, (rev, leg) in enumerate(columns):
        rates = [p.pass_rate.get(rev, {}).get(leg) for p in points]
        last = next((r for r in reversed(rates) if r is not None), None)
        if last is not None:
            ends.append((plot.y(last), k, f"{rev} {leg} {last:.0%}"))
    ends.sort()
    placed: list[float] = []
    for want, _, _ in ends:
        placed.append(max(want, placed[-1] + _LABEL_GAP) if placed else want)
    # Pushed past the plot's bottom: move the stack up as a whole.
    over = (placed[-1] - (plot.pad + plot.inner_h)) if placed else 0
    if over > 0:
        placed = [y - over for y in placed]
    x = plot.pad + plot.inner_w + 6
    parts: list[Svg] = []
    for (_, k, text), y in zip(ends, placed, strict=True):
        parts += _sample(k, x, y)
        parts.append(el("text", text, x=f"{x + 18:.0f}", y=f"{y + 3:.1f}", font_size="9"))
    return parts


def trend_svg(
    label: str,
    points: Sequence[TrendPoint],
    columns: Sequence[tuple[str, str]],
    *,
    width: int = 480,
    height: int = 160,
    gaps: bool = False,
    end_labels: bool = False,
    fluid: bool = False,
) -> Svg:
    """The chart of `points` (oldest first), a line per (revision, leg) of `columns`: a gap
    where a leg was not measured, a dashed vertical line where the tier changed, a legend of
    the lines along the bottom. With `gaps`,
    an amber tick under the chart marks each run where a leg was not measured (a gap in one
    line is hidden when another line runs over it). With `end_labels`, each line's name and
    last rate are written at its end, right of the plot. With `fluid`, the chart is as wide
    as its box (`width="100%"`, its height following from the `viewBox`), not `width` px."""
    plot = _Plot.of(width, height, len(points), len(columns), _LABEL_ROOM if end_labels else 0)
    parts = [*_frame(plot), *_tier_changes(points, plot)]
    if gaps:
        parts += _unmeasured_ticks(points, columns, plot)
    for k, column in enumerate(columns):
        parts += _column(points, column, k, plot)
    if end_labels:
        parts += _end_labels(points, columns, plot)
    return svg(
        join(parts),
        class_="trend" if fluid else None,
        width="100%" if fluid else width,
        height=None if fluid else height,
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
