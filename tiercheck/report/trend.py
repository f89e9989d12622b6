"""The trend chart (pure): the scored pass rate per revision and leg over stored runs, one line
each, with a dashed mark at every tier change, as one inline SVG (no script, nothing fetched).

Drawn for `tier-check history`, the scorecard's HTML page and the matrix page alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tiercheck.revisions import LEGS
from tiercheck.scorecard.model import HistoryTrendPoint

__all__ = ["sparkline_svg", "trend_columns", "trend_svg"]

#: Horizontal room for one legend entry ("2026-07-28 server" at 9 px), and a legend line's height.
_LEGEND_STEP = 110
_LEGEND_LINE = 11
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


def trend_columns(revisions: Sequence[str]) -> list[tuple[str, str]]:
    """(revision, leg) for every line of the chart, in report order."""
    return [(rev, leg) for rev in revisions for leg in LEGS]


def trend_svg(
    label: str,
    points: Sequence[HistoryTrendPoint],
    revisions: Sequence[str],
    *,
    width: int = 480,
    height: int = 160,
    gaps: bool = False,
) -> str:
    """The chart of `points` (oldest first): a gap where a leg was not measured, a dashed
    vertical line where the tier changed, a legend of the lines along the bottom. With `gaps`,
    an amber tick under the chart marks each run where a leg was not measured (a gap in one
    line is hidden when another line runs over it)."""
    pad = 24
    columns = trend_columns(revisions)
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

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="scored pass rate of {escape(label)} over time">',
        f'<rect x="{pad}" y="{pad}" width="{inner_w}" height="{inner_h}" fill="none" '
        'stroke="#ccc"/>',
        f'<text x="2" y="{pad + 4}" font-size="9">100%</text>',
        f'<text x="2" y="{pad + inner_h}" font-size="9">0%</text>',
    ]
    for i, point in enumerate(points):
        if point.tier_changed:
            parts.append(
                f'<line x1="{x(i):.1f}" y1="{pad}" x2="{x(i):.1f}" y2="{pad + inner_h}" '
                f'stroke="#999" stroke-dasharray="3,3"><title>tier {point.tier} from '
                f"{escape(point.timestamp)}</title></line>"
            )
    for i, point in enumerate(points):
        missing = [
            f"{rev} {leg}"
            for rev, leg in columns
            if rev in point.pass_rate and point.pass_rate[rev].get(leg, 0.0) is None
        ]
        if gaps and missing:
            parts.append(
                f'<rect x="{x(i) - 1.5:.1f}" y="{pad + inner_h + 1}" width="3" height="5" '
                f'fill="#bf8700"><title>{escape(point.timestamp[:10])}: '
                f"{escape(', '.join(missing))} not measured</title></rect>"
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
        for seg in filter(None, segments):
            if len(seg) == 1:
                cx, cy = seg[0].split(",")
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="2" fill="{colour}"/>')
            else:
                parts.append(
                    f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" '
                    f'points="{" ".join(seg)}"/>'
                )
        line, place = divmod(k, per_line)
        y_text = height - 6 - _LEGEND_LINE * (legend_lines - 1 - line)
        parts.append(
            f'<text x="{pad + 4 + _LEGEND_STEP * place}" y="{y_text}" font-size="9" '
            f'fill="{colour}">{escape(rev)} {leg}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def sparkline_svg(
    label: str,
    points: Sequence[tuple[str, float | None]],
    *,
    width: int = 150,
    height: int = 26,
) -> str:
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

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="spark" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(label)}">',
    ]
    segments: list[list[str]] = [[]]
    marks: list[str] = []
    previous: float | None = None
    for i, (moment, rate) in enumerate(points):
        day = escape(moment[:10])
        if rate is None:
            segments.append([])
            marks.append(
                f'<rect x="{x(i) - 1:.1f}" y="{height - 4}" width="2" height="4" '
                f'fill="#bf8700"><title>{day}: unmeasured</title></rect>'
            )
            continue
        segments[-1].append(f"{x(i):.1f},{y(rate):.1f}")
        if previous is not None and rate < previous:
            marks.append(
                f'<circle cx="{x(i):.1f}" cy="{y(rate):.1f}" r="2" fill="#cf222e">'
                f"<title>{day}: {rate:.0%}</title></circle>"
            )
        previous = rate
    for seg in filter(None, segments):
        if len(seg) == 1:
            cx, cy = seg[0].split(",")
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="1.5" fill="#0969da"/>')
        else:
            parts.append(
                f'<polyline fill="none" stroke="#0969da" stroke-width="1.2" '
                f'points="{" ".join(seg)}"/>'
            )
    parts += marks
    parts.append("</svg>")
    return "".join(parts)
