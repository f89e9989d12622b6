"""The matrix as one self-contained HTML page (`matrix.html`), pure: `Matrix` → text.

What a reader scans first comes first: the summary grid (one row per SDK line: tiers, the
score of each revision × leg, advisory probe counts, blockers and the trend), then what changed
since the previous matrix, then one heatmap per revision × leg (scenario rows × SDK columns,
coloured by verdict), then every failing check's message.

No script: a cell's message shows on hover (`title`) and a click on a failed cell jumps to its
message in the list below (a fragment link, highlighted with `:target`), so the page works with
the Content-Security-Policy `default-src 'none'` that every tiercheck page carries, from disk,
with no network. Every number comes from the `Matrix` document, the same one `matrix.json`
holds, and every string from an SDK is escaped: the page is composed with the HTML kit
(`tiercheck.render.html`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tiercheck.matrix.model import LegCell, Matrix, MatrixRow, ScenarioCell, ScenarioChange
from tiercheck.matrix.text import cell_text
from tiercheck.render.badge import tier_text
from tiercheck.render.element import fragment
from tiercheck.render.html import (
    Css,
    Html,
    a,
    chip,
    el,
    join,
    page,
    scroll_region,
    table,
    td,
    th,
    tr,
)
from tiercheck.render.trend import trend_svg
from tiercheck.scorecard.readings import short_sha, trend_columns

__all__ = ["render_matrix_html"]

#: Cell colours by verdict or state; the legend lists them in this order.
_CSS = Css("""
main { max-width: none; }
table.heat { width: auto; }
table.summary ul.blockers { margin: 0; padding-left: 16px; font-size: 12px; }
table.heat td.v { text-align: center; width: 2.2em; padding: 2px; font-size: 12px; }
td.passed, span.passed { background: #dafbe1; } td.failed, span.failed { background: #ffcecb; }
td.flaky, span.flaky { background: #fff8c5; }
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
""")

#: What a heatmap cell shows: a mark a reader can tell apart without colour as well.
_MARK = {
    "passed": "✓",
    "flaky": "~",
    "failed": "✗",
    "not-scored": "·",
    "unmeasured": "?",
    "not-claimed": "",
    "skipped": "–",
    "absent": "",
}
_LEGEND = (
    ("passed", "passed"),
    ("flaky", "~ flaky (counted as passed)"),
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
    return ("passed" if cell.passed == cell.total else "failed"), cell_text(cell)


def _tier(row: MatrixRow) -> Html:
    if row.tier is None:
        return chip("unmeasured", row.state)
    official = chip("fail" if row.tier.below_claim else "info", f"Tier {row.tier.official}")
    sep = (
        " " + el("span", f"SEP-1730: Tier {row.tier.sep1730}", class_="msg")
        if row.tier.sep1730 != row.tier.official
        else ""
    )
    claimed = (
        el("div", f"claims Tier {row.tier.claimed}", class_="msg")
        if row.tier.claimed is not None
        else ""
    )
    return join((official, sep, claimed))


def _clipped(text: str, limit: int = 160) -> Html:
    """`text` on one line, clipped to `limit` characters; the whole of it shows on hover."""
    flat = " ".join(text.split())
    shown = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return el("span", shown, title=flat)


def _row_name(row: MatrixRow) -> Html:
    commit = el("div", el("code", short_sha(row.commit)), class_="msg") if row.commit else ""
    reason = el("div", _clipped(row.reason), class_="msg") if row.reason else ""
    return join((el("strong", row.id), commit, reason))


def _probes(row: MatrixRow, revision: str) -> Html:
    counts = next((p for p in row.probes if p.revision == revision), None)
    if counts is None:
        return el("span", "—", class_="msg")
    parts: list[Html | str] = [f"{counts.passed} pass"]
    if counts.warned:
        parts.append(f"{counts.warned} warn")
    if counts.failed:
        parts.append(chip("fail", f"{counts.failed} fail"))
    if counts.skipped:
        parts.append(f"{counts.skipped} skip")
    return join(parts, ", ")


def _blockers(row: MatrixRow) -> Html:
    if not row.blockers:
        return el("span", "none", class_="msg")
    # The check and how it blocks, short; the official text (with its reason) on hover.
    items = [
        el(
            "li",
            f"Tier {b.tier}: {b.check}"
            + (f" ({b.kind})" if b.kind != "failed" else "")
            + (f" {b.qualifier}" if b.qualifier else ""),
            title=b.text,
        )
        for b in row.blockers
    ]
    return el("ul", *items, class_="blockers")


def _trend(row: MatrixRow, revisions: Sequence[str]) -> Html:
    if not row.trend:
        return el("span", "—", class_="msg")
    return Html(trend_svg(row.id, row.trend, trend_columns(revisions), width=260, height=110))


def _summary(matrix: Matrix) -> Html:
    columns = [(rev, leg) for rev in matrix.revisions for leg in ("server", "client")]
    header = [
        "SDK",
        "Tier",
        *(f"{rev} {leg}" for rev, leg in columns),
        *(f"probes {rev}" for rev in matrix.revisions),
        "Blockers",
        "Trend",
    ]
    body = []
    for i, row in enumerate(matrix.rows):
        cells = [td(_row_name(row)), td(_tier(row), id=f"tier-{i}")]
        for rev, leg in columns:
            cell = _cell(row, rev, leg)
            cls, text = _score(cell)
            cells.append(
                td(
                    text,
                    class_=f"score {cls}",
                    id=f"score-{i}-{rev}-{leg}",
                    title=cell.reason if cell is not None and cell.reason else None,
                )
            )
        cells += [td(_probes(row, rev)) for rev in matrix.revisions]
        cells += [td(_blockers(row)), td(_trend(row, matrix.revisions))]
        body.append(tr(*cells, id=f"row-{i}"))
    summary = scroll_region(table(header, body, class_="summary"), "Summary")
    return join((el("h2", "Summary"), summary))


def _change_item(change: ScenarioChange) -> Html:
    before = change.before or "absent"
    return el(
        "li",
        el("strong", change.row),
        f" {change.revision} {change.leg} ",
        el("code", change.scenario),
        f": {before} → {change.after}",
    )


def _changes(matrix: Matrix) -> Html:
    changes = matrix.changes
    if changes is None:
        return Html()
    parts = [
        el("h2", "Since the previous matrix"),
        el("p", f"compared with run {changes.previous_run_id}", class_="msg"),
    ]
    groups = (
        ("New failures", changes.new_failures, "new-failures"),
        ("Fixes", changes.fixes, "fixes"),
    )
    none = el("li", "none")
    for title, items, ident in groups:
        listed = [_change_item(c) for c in items] or [none]
        parts.append(join((el("h3", f"{title} ({len(items)})"), el("ul", *listed, id=ident))))
    tiers = [
        el(
            "li",
            el("strong", c.row),
            f": {tier_text(c.before)} → {tier_text(c.after)}",
            " (dropped: a regression)" if c.dropped else "",
        )
        for c in changes.tier_changes
    ] or [none]
    count = len(changes.tier_changes)
    parts.append(join((el("h3", f"Tier changes ({count})"), el("ul", *tiers, id="tier-changes"))))
    if changes.newly_unmeasured:
        gaps = [el("li", where) for where in changes.newly_unmeasured]
        title = f"Newly unmeasured legs, each a regression ({len(gaps)})"
        parts.append(join((el("h3", title), el("ul", *gaps, id="newly-unmeasured"))))
    if changes.incomparable:
        others = [
            el("li", el("strong", row), ": another harness version, no scenario compared")
            for row in changes.incomparable
        ]
        title = f"Under another harness ({len(others)})"
        parts.append(join((el("h3", title), el("ul", *others, id="incomparable"))))
    return join(parts, "\n")


def _failures(matrix: Matrix) -> Iterator[tuple[tuple[str, str, str, str], _Failure]]:
    """Every failed scenario cell (and unmeasured or flaky one with a message), in page order."""
    n = 0
    for rev in matrix.revisions:
        for leg in ("server", "client"):
            for row in matrix.rows:
                cell = _cell(row, rev, leg)
                for s in cell.scenarios if cell else ():
                    if s.verdict not in ("failed", "flaky", "unmeasured") or not (
                        s.message or s.check
                    ):
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
) -> Html:
    mark = _MARK[verdict]
    if scenario is not None and scenario.expected_failure and verdict == "failed":
        mark = "✗*"
    title_text = verdict.replace("-", " ")
    if failure is not None:
        title_text += f": {failure.check + ' — ' if failure.check else ''}{failure.message}"
    elif verdict in ("unmeasured", "skipped", "not-claimed") and cell is not None and cell.reason:
        title_text += f": {cell.reason}"
    content = a(mark, fragment(failure.anchor)) if failure else mark
    return td(content, class_=f"v {verdict}", title=title_text)


def _heatmaps(matrix: Matrix, failures: dict[tuple[str, str, str, str], _Failure]) -> Html:
    legend = [el("span", text, class_=f"key {cls}") for cls, text in _LEGEND]
    parts = [
        el("h2", "Scenarios"),
        el(
            "p",
            *legend,
            " ",
            el(
                "span",
                "✗* an expected failure (baseline); hover a cell for its message, click a failed "
                "one to jump to it.",
                class_="msg",
            ),
            class_="legend",
        ),
    ]
    for rev in matrix.revisions:
        for leg in ("server", "client"):
            cells = [_cell(row, rev, leg) for row in matrix.rows]
            names = sorted({s.scenario for c in cells if c for s in c.scenarios})
            parts.append(el("h3", f"{rev} · {leg}"))
            if not names:
                parts.append(el("p", "No row ran a scenario here.", class_="msg"))
                continue
            head = ["Scenario", *(th(row.id, class_="rot") for row in matrix.rows)]
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
                body.append(tr(td(el("code", name)), *tds))
            heat = table(head, body, class_="heat", id=f"heat-{rev}-{leg}")
            parts.append(scroll_region(heat, f"Scenarios, {rev} · {leg}"))
    return join(parts, "\n")


def _messages(failures: Sequence[_Failure]) -> Html:
    if not failures:
        return Html()
    items = [
        el(
            "li",
            el("strong", f.row),
            f" {f.revision} {f.leg} ",
            el("code", f.scenario),
            join((" — ", el("code", f.check))) if f.check else "",
            el("div", f.message, class_="msg"),
            id=f.anchor,
        )
        for f in failures
    ]
    return join((el("h2", "Failing checks"), el("ol", *items, class_="messages")))


def render_matrix_html(matrix: Matrix) -> str:
    """The matrix page: summary grid, changes, heatmaps, messages; self-contained."""
    failures = dict(_failures(matrix))
    measured = sum(1 for r in matrix.rows if r.state == "measured")
    state = " · interrupted: rows left unfinished say so" if matrix.interrupted else ""
    meta = (
        f"run {matrix.run_id} · {matrix.started_at} → {matrix.finished_at} · "
        f"{len(matrix.rows)} row(s), {measured} measured · revisions "
        f"{', '.join(matrix.revisions) or 'none'} · tiercheck {matrix.tiercheck.version}{state}"
    )
    body = join(
        (
            part
            for part in (
                _summary(matrix),
                _changes(matrix),
                _heatmaps(matrix, failures),
                _messages(list(failures.values())),
            )
            if part
        ),
        "\n",
    )
    return str(
        page(
            f"tiercheck matrix {matrix.run_id}",
            el("span", f"tiercheck matrix: {len(matrix.rows)} SDK line(s)"),
            meta,
            body,
            css=_CSS,
        )
    )
