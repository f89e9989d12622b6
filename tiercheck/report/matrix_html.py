"""The matrix as one self-contained HTML page (`matrix.html`), pure: `Matrix` → text.

What a reader scans first comes first: the summary grid (one row per SDK line: tiers, the
score of each revision × leg, advisory probe counts, blockers and the trend), then what changed
since the previous matrix, then one heatmap per revision × leg (scenario rows × SDK columns,
coloured by verdict), then every failing check's message.

No script: a cell's message shows on hover (`title`) and a click on a failed cell jumps to its
message in the list below (a fragment link, highlighted with `:target`), so the page works with
the Content-Security-Policy `default-src 'none'` that every tiercheck page carries, from disk,
with no network. Every number comes from the `Matrix` document, the same one `matrix.json`
holds, and every string from an SDK is escaped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tiercheck.matrix.model import LegCell, Matrix, MatrixRow, ScenarioCell, ScenarioChange
from tiercheck.report.html import chip, esc, page
from tiercheck.report.trend import trend_svg
from tiercheck.scorecard.view import short_sha

__all__ = ["render_matrix_html"]

#: Cell colours by verdict or state; the legend lists them in this order.
_CSS = """
main { max-width: none; }
table.heat { width: auto; }
table.summary ul.blockers { margin: 0; padding-left: 16px; font-size: 12px; }
table.heat td.v { text-align: center; width: 2.2em; padding: 2px; font-size: 12px; }
td.passed, span.passed { background: #dafbe1; } td.failed, span.failed { background: #ffcecb; }
td.not-scored, span.not-scored { background: #eaeef2; }
td.unmeasured, span.unmeasured { background: #fff1b8; }
td.not-claimed, span.not-claimed { background: repeating-linear-gradient(45deg, #fff, #fff 3px,
  #eaeef2 3px, #eaeef2 6px); color: var(--muted); }
td.skipped, span.skipped { background: #f6f8fa; color: var(--muted); }
td.v a { color: inherit; text-decoration: none; display: block; }
.legend span.key { display: inline-block; padding: 0 8px; margin-right: 6px; border: 1px solid
  var(--line); border-radius: 3px; font-size: 12px; }
ol.messages li:target { background: #fff8c5; }
ol.messages li { margin: 2px 0; }
td.score { white-space: nowrap; font-variant-numeric: tabular-nums; }
th.rot { writing-mode: vertical-rl; transform: rotate(180deg); font-size: 12px; }
"""

#: What a heatmap cell shows: a mark a reader can tell apart without colour as well.
_MARK = {
    "passed": "✓",
    "failed": "✗",
    "not-scored": "·",
    "unmeasured": "?",
    "not-claimed": "",
    "skipped": "–",
    "absent": "",
}
_LEGEND = (
    ("passed", "passed"),
    ("failed", "failed"),
    ("not-scored", "not scored"),
    ("unmeasured", "unmeasured"),
    ("not-claimed", "not claimed"),
)


@dataclass(frozen=True)
class _Failure:
    """A failed (or unmeasured-with-reason) scenario cell, numbered for its anchor."""

    anchor: str
    row: str
    revision: str
    leg: str
    scenario: str
    check: str | None
    message: str


def _cell(row: MatrixRow, revision: str, leg: str) -> LegCell | None:
    return next((c for c in row.legs if c.revision == revision and c.leg == leg), None)


def _score(cell: LegCell | None) -> tuple[str, str]:
    """(css class, text) of a summary cell: `passed/total`, or the state."""
    if cell is None:
        return "not-claimed", "—"
    if cell.state != "measured":
        return cell.state, cell.state.replace("-", " ")
    return ("passed" if cell.passed == cell.total else "failed"), f"{cell.passed}/{cell.total}"


def _tier(row: MatrixRow) -> str:
    if row.tier is None:
        return chip("unmeasured", row.state)
    official = chip("fail" if row.tier.below_claim else "info", f"Tier {row.tier.official}")
    sep = (
        f' <span class="msg">SEP-1730: Tier {row.tier.sep1730}</span>'
        if row.tier.sep1730 != row.tier.official
        else ""
    )
    claimed = (
        f'<div class="msg">claims Tier {row.tier.claimed}</div>'
        if row.tier.claimed is not None
        else ""
    )
    return official + sep + claimed


def _clipped(text: str, limit: int = 160) -> str:
    """`text` on one line, clipped to `limit` characters; the whole of it shows on hover."""
    flat = " ".join(text.split())
    shown = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return f'<span title="{esc(flat)}">{esc(shown)}</span>'


def _row_name(row: MatrixRow) -> str:
    commit = (
        f'<div class="msg"><code>{esc(short_sha(row.commit))}</code></div>' if row.commit else ""
    )
    reason = f'<div class="msg">{_clipped(row.reason)}</div>' if row.reason else ""
    return f"<strong>{esc(row.id)}</strong>{commit}{reason}"


def _probes(row: MatrixRow, revision: str) -> str:
    counts = next((p for p in row.probes if p.revision == revision), None)
    if counts is None:
        return '<span class="msg">—</span>'
    parts = [f"{counts.passed} pass"]
    if counts.warned:
        parts.append(f"{counts.warned} warn")
    if counts.failed:
        parts.append(chip("fail", f"{counts.failed} fail"))
    if counts.skipped:
        parts.append(f"{counts.skipped} skip")
    return ", ".join(parts)


def _blockers(row: MatrixRow) -> str:
    if not row.blockers:
        return '<span class="msg">none</span>'
    # The check and how it blocks, short; the official text (with its reason) on hover.
    items = "".join(
        f'<li title="{esc(b.text)}">Tier {b.tier}: {esc(b.check)}'
        + (f" ({esc(b.kind)})" if b.kind != "failed" else "")
        + (f" {esc(b.qualifier)}" if b.qualifier else "")
        + "</li>"
        for b in row.blockers
    )
    return f'<ul class="blockers">{items}</ul>'


def _trend(row: MatrixRow, revisions: Sequence[str]) -> str:
    if not row.trend:
        return '<span class="msg">—</span>'
    return trend_svg(row.id, row.trend, revisions, width=260, height=110)


def _summary(matrix: Matrix) -> str:
    columns = [(rev, leg) for rev in matrix.revisions for leg in ("server", "client")]
    header = [
        "SDK",
        "Tier",
        *(f"{rev} {leg}" for rev, leg in columns),
        *(f"probes {rev}" for rev in matrix.revisions),
        "Blockers",
        "Trend",
    ]
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = []
    for i, row in enumerate(matrix.rows):
        cells = [f"<td>{_row_name(row)}</td>", f'<td id="tier-{i}">{_tier(row)}</td>']
        for rev, leg in columns:
            cls, text = _score(_cell(row, rev, leg))
            cell = _cell(row, rev, leg)
            title = f' title="{esc(cell.reason)}"' if cell is not None and cell.reason else ""
            cells.append(
                f'<td class="score {cls}" id="score-{i}-{esc(rev)}-{leg}"{title}>{esc(text)}</td>'
            )
        cells += [f"<td>{_probes(row, rev)}</td>" for rev in matrix.revisions]
        cells += [f"<td>{_blockers(row)}</td>", f"<td>{_trend(row, matrix.revisions)}</td>"]
        body.append(f'<tr id="row-{i}">{"".join(cells)}</tr>')
    return (
        "<h2>Summary</h2>"
        f'<table class="summary"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
        "</table>"
    )


def _change_item(change: ScenarioChange) -> str:
    before = change.before or "absent"
    return (
        f"<li><strong>{esc(change.row)}</strong> {esc(change.revision)} {esc(change.leg)} "
        f"<code>{esc(change.scenario)}</code>: {esc(before)} → {esc(change.after)}</li>"
    )


def _changes(matrix: Matrix) -> str:
    changes = matrix.changes
    if changes is None:
        return ""
    parts = [
        "<h2>Since the previous matrix</h2>",
        f'<p class="msg">compared with run {esc(changes.previous_run_id)}</p>',
    ]
    groups = (
        ("New failures", changes.new_failures, "new-failures"),
        ("Fixes", changes.fixes, "fixes"),
    )
    for title, items, ident in groups:
        listed = "".join(_change_item(c) for c in items) or "<li>none</li>"
        parts.append(f'<h3>{title} ({len(items)})</h3><ul id="{ident}">{listed}</ul>')
    tiers = "".join(
        f"<li><strong>{esc(c.row)}</strong>: Tier {c.before if c.before is not None else '—'} "
        f"→ Tier {c.after if c.after is not None else '—'}</li>"
        for c in changes.tier_changes
    )
    count = len(changes.tier_changes)
    parts.append(
        f'<h3>Tier changes ({count})</h3><ul id="tier-changes">{tiers or "<li>none</li>"}</ul>'
    )
    return "\n".join(parts)


def _failures(matrix: Matrix) -> Iterator[tuple[tuple[str, str, str, str], _Failure]]:
    """Every failed scenario cell (and unmeasured one with a message), in page order."""
    n = 0
    for rev in matrix.revisions:
        for leg in ("server", "client"):
            for row in matrix.rows:
                cell = _cell(row, rev, leg)
                for s in cell.scenarios if cell else ():
                    if s.verdict not in ("failed", "unmeasured") or not (s.message or s.check):
                        continue
                    n += 1
                    yield (
                        (row.id, rev, leg, s.scenario),
                        _Failure(
                            anchor=f"m{n}",
                            row=row.id,
                            revision=rev,
                            leg=leg,
                            scenario=s.scenario,
                            check=s.check,
                            message=s.message or "",
                        ),
                    )


def _verdict(cell: LegCell | None, scenario: ScenarioCell | None) -> str:
    if cell is None or cell.state == "not-claimed":
        return "not-claimed"
    if cell.state != "measured":
        return "unmeasured" if cell.state == "unmeasured" else "skipped"
    return scenario.verdict if scenario else "absent"


def _heat_cell(
    verdict: str, scenario: ScenarioCell | None, cell: LegCell | None, failure: _Failure | None
) -> str:
    mark = _MARK[verdict]
    if scenario is not None and scenario.expected_failure and verdict == "failed":
        mark = "✗*"
    title_text = verdict.replace("-", " ")
    if failure is not None:
        title_text += f": {failure.check + ' — ' if failure.check else ''}{failure.message}"
    elif verdict in ("unmeasured", "skipped", "not-claimed") and cell is not None and cell.reason:
        title_text += f": {cell.reason}"
    content = f'<a href="#{failure.anchor}">{mark}</a>' if failure else mark
    return f'<td class="v {verdict}" title="{esc(title_text)}">{content}</td>'


def _heatmaps(matrix: Matrix, failures: dict[tuple[str, str, str, str], _Failure]) -> str:
    legend = "".join(f'<span class="key {cls}">{esc(text)}</span>' for cls, text in _LEGEND)
    parts = [
        "<h2>Scenarios</h2>",
        f'<p class="legend">{legend} <span class="msg">✗* an expected failure (baseline);'
        " hover a cell for its message, click a failed one to jump to it.</span></p>",
    ]
    for rev in matrix.revisions:
        for leg in ("server", "client"):
            cells = [_cell(row, rev, leg) for row in matrix.rows]
            names = sorted({s.scenario for c in cells if c for s in c.scenarios})
            parts.append(f"<h3>{esc(rev)} · {leg}</h3>")
            if not names:
                parts.append('<p class="msg">No row ran a scenario here.</p>')
                continue
            head = "<th>Scenario</th>" + "".join(
                f'<th class="rot">{esc(row.id)}</th>' for row in matrix.rows
            )
            body = []
            for name in names:
                tds = []
                for row, cell in zip(matrix.rows, cells, strict=True):
                    scenario = (
                        next((s for s in cell.scenarios if s.scenario == name), None)
                        if cell
                        else None
                    )
                    verdict = _verdict(cell, scenario)
                    tds.append(
                        _heat_cell(verdict, scenario, cell, failures.get((row.id, rev, leg, name)))
                    )
                body.append(f"<tr><td><code>{esc(name)}</code></td>{''.join(tds)}</tr>")
            parts.append(
                f'<table class="heat" id="heat-{esc(rev)}-{leg}"><thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(body)}</tbody></table>"
            )
    return "\n".join(parts)


def _messages(failures: Sequence[_Failure]) -> str:
    if not failures:
        return ""
    items = "".join(
        f'<li id="{f.anchor}"><strong>{esc(f.row)}</strong> {esc(f.revision)} {esc(f.leg)} '
        f"<code>{esc(f.scenario)}</code>"
        + (f" — <code>{esc(f.check)}</code>" if f.check else "")
        + f'<div class="msg">{esc(f.message)}</div></li>'
        for f in failures
    )
    return f'<h2>Failing checks</h2><ol class="messages">{items}</ol>'


def render_matrix_html(matrix: Matrix) -> str:
    """The matrix page: summary grid, changes, heatmaps, messages; self-contained."""
    failures = dict(_failures(matrix))
    measured = sum(1 for r in matrix.rows if r.state == "measured")
    state = " · interrupted: rows left unfinished say so" if matrix.interrupted else ""
    meta = esc(
        f"run {matrix.run_id} · {matrix.started_at} → {matrix.finished_at} · "
        f"{len(matrix.rows)} row(s), {measured} measured · revisions "
        f"{', '.join(matrix.revisions) or 'none'} · tiercheck {matrix.tiercheck.version}{state}"
    )
    body = "\n".join(
        part
        for part in (
            _summary(matrix),
            _changes(matrix),
            _heatmaps(matrix, failures),
            _messages(list(failures.values())),
        )
        if part
    )
    return page(
        f"tiercheck matrix {matrix.run_id}",
        f"<span>tiercheck matrix: {len(matrix.rows)} SDK line(s)</span>",
        meta,
        body,
        css=_CSS,
    )
