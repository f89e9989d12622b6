"""The published dashboard's pages and badges (pure): the API documents → HTML and SVG.

Three kinds of page, each one self-contained file (inline styles and SVG, no script, nothing
fetched: the Content-Security-Policy of every tiercheck page) linked to the others by relative
paths, so the site reads the same from `file://` and from GitHub Pages:

* `index.html` — what changed last night, then every line × revision × leg with its tier badge,
  status and a sparkline of its pass rate;
* `lines/<line>.html` — a line's open regressions, trend chart, tier over time, SEP-1730 clock,
  failing streaks, regression history, unmeasured nights, harness changes, flaky scenarios and
  recent runs, with links to its latest scorecard and claim pages;
* `scenarios/<scenario>.html` — which lines fail it now and since when, and every stretch of
  failures in the history.

Every number and name comes from the API documents the site publishes beside the pages
(`tiercheck.dashboard`), and every string is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tiercheck.dashboard.build import scenario_slug, trend_points
from tiercheck.dashboard.model import (
    DashboardIndex,
    LegSummary,
    LineHistory,
    LineSummary,
    RegressionEntry,
    RunEntry,
    ScenarioPage,
)
from tiercheck.report.badge import LABEL, TIER_COLORS, badge_json, badge_svg
from tiercheck.report.html import chip, esc, page
from tiercheck.report.trend import sparkline_svg, trend_svg
from tiercheck.scorecard.view import short_sha

__all__ = [
    "SPARK_RUNS",
    "line_badge_json",
    "line_badge_svg",
    "render_index",
    "render_line",
    "render_scenario",
]

#: How many runs a sparkline on the index draws: two months of nights.
SPARK_RUNS = 60
#: How many runs a line's page lists, newest first.
RECENT_RUNS = 30

_CSS = """
main { max-width: 1280px; }
table.lines td { vertical-align: middle; }
td.score { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.measured-full { background: #dafbe1; } td.measured-partial { background: #ffcecb; }
td.unmeasured { background: #fff1b8; } td.skipped { background: #f6f8fa; color: var(--muted); }
ul.changes li { margin: 3px 0; }
nav.crumbs { font-size: 13px; margin: 8px 0 0; }
svg.spark { display: block; }
.badge svg { vertical-align: middle; }
details summary { cursor: pointer; }
"""

_STATUS_CHIP = {"regressed": "fail", "incomparable": "review", "ok": "pass"}
_STATUS_TEXT = {"regressed": "regressed", "incomparable": "harness changed", "ok": "ok"}
_STATE_CHIP = {"failing": "fail", "passing": "pass", "unmeasured": "unmeasured"}


def _status(status: str) -> str:
    return chip(_STATUS_CHIP.get(status, "info"), _STATUS_TEXT.get(status, status))


def _a(href: str, text: str) -> str:
    """A relative link inside the site (the href is ours, built from slugs)."""
    return f'<a href="{esc(href)}">{esc(text)}</a>'


def _day(stamp: str | None) -> str:
    return stamp[:10] if stamp else "—"


def _badge_parts(summary: LineSummary) -> tuple[str, str]:
    message = str(summary.tier) + (" · regressed" if summary.status == "regressed" else "")
    return message, TIER_COLORS.get(summary.tier, "#9f9f9f")


def line_badge_svg(summary: LineSummary) -> str:
    """`MCP tier | N` for the line's latest run (`· regressed` while a regression is open)."""
    return badge_svg(LABEL, *_badge_parts(summary))


def line_badge_json(summary: LineSummary) -> str:
    """The shields.io endpoint document of the same badge."""
    return badge_json(LABEL, *_badge_parts(summary))


def _score(leg: LegSummary | None) -> tuple[str, str]:
    """(css class, text) of a latest-score cell."""
    if leg is None:
        return "skipped", "—"
    if leg.state != "measured":
        return leg.state, leg.state
    full = "measured-full" if leg.passed == leg.total else "measured-partial"
    return full, f"{leg.passed}/{leg.total}"


def _spark(history: LineHistory, revision: str, leg: str) -> str:
    points: list[tuple[str, float | None]] = []
    for run in history.runs[-SPARK_RUNS:]:
        found = next((x for x in run.legs if x.revision == revision and x.leg == leg), None)
        if found is not None and found.state != "skipped":
            points.append((run.timestamp, found.pass_rate))
    if not points:
        return '<span class="msg">—</span>'
    return sparkline_svg(f"{history.line} {revision} {leg}: scored pass rate", points)


def _regression_item(r: RegressionEntry) -> str:
    return f"<li>{_kind(r.kind)} {esc(r.detail)}</li>"


def _kind(kind: str) -> str:
    return chip("fail", kind.replace("-", " "))


def _last_night_items(summary: LineSummary) -> list[str]:
    last = summary.last_night
    items = [f"{_kind(r.kind)} {esc(r.detail)}" for r in last.started]
    items += [f"{chip('pass', 'fixed')} {esc(r.detail)}" for r in last.ended]
    # A drop that opened a lower-tier regression is said once, by the regression.
    dropped = any(r.kind == "lower-tier" for r in last.started)
    if last.tier_before is not None and last.tier_before != last.tier_after and not dropped:
        items.append(esc(f"Tier {last.tier_before} → Tier {last.tier_after}"))
    reported = {r.key.split(":", 1)[1] for r in (*last.started, *last.ended) if ":" in r.key}
    items += [
        f"{chip('fail', 'newly failing')} <code>{esc(k)}</code>"
        for k in last.newly_failing
        if k not in reported
    ]
    items += [
        f"{chip('pass', 'fixed')} <code>{esc(k)}</code>" for k in last.fixed if k not in reported
    ]
    items += [
        f"{chip('unmeasured')} <code>{esc(k)}</code> "
        f'<span class="msg">{esc(_reason(summary.legs, k))}</span>'
        for k in last.newly_unmeasured
        if k not in reported
    ]
    items += [
        f"{chip('review', 'not compared')} {esc(change)}: a run under another harness or "
        "other requirement sets is marked, never called a regression"
        for change in last.basis_change
    ]
    return items


def _reason(legs: Sequence[LegSummary], where: str) -> str:
    revision, _, leg = where.partition("/")
    found = next((x for x in legs if x.revision == revision and x.leg == leg), None)
    return found.reason or "" if found else ""


def _last_night(index: DashboardIndex, root: str = "") -> str:
    night = index.latest_night
    if night is None:
        return "<h2>Last night</h2><p>No runs yet.</p>"
    blocks = []
    for summary in index.lines:
        link = _a(f"{root}{summary.links.page}", summary.line)
        if summary.night != night:
            blocks.append(
                f'<li id="night-{esc(summary.slug)}"><strong>{link}</strong>: no run on '
                f"{esc(night)} (latest {esc(summary.night)})</li>"
            )
            continue
        items = _last_night_items(summary)
        if items:
            inner = "".join(f"<li>{item}</li>" for item in items)
            blocks.append(
                f'<li id="night-{esc(summary.slug)}"><strong>{link}</strong>'
                f'<ul class="changes">{inner}</ul></li>'
            )
    body = (
        f'<ul class="changes" id="last-night">{"".join(blocks)}</ul>'
        if blocks
        else '<p id="last-night">Nothing changed.</p>'
    )
    return f"<h2>Last night: {esc(night)}</h2>{body}"


def _lines_table(index: DashboardIndex, histories: Mapping[str, LineHistory]) -> str:
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "SDK line",
            "Tier",
            "Status",
            "Revision",
            "Leg",
            "Latest",
            f"Trend (last {SPARK_RUNS} runs)",
        )
    )
    rows = []
    for summary in index.lines:
        history = histories[summary.slug]
        legs = [x for x in summary.legs if x.state != "skipped"] or list(summary.legs)
        span = max(len(legs), 1)
        regressions = "".join(_regression_item(r) for r in summary.regressions)
        name = (
            f'<td rowspan="{span}"><strong>{_a(summary.links.page, summary.line)}</strong>'
            f'<div class="msg">{esc(summary.repo)} · {esc(summary.night)} · '
            f"<code>{esc(short_sha(summary.commit))}</code></div>"
            + (f'<ul class="msg">{regressions}</ul>' if regressions else "")
            + "</td>"
        )
        tier = f'<td rowspan="{span}" class="badge">{line_badge_svg(summary)}</td>'
        status = (
            f'<td rowspan="{span}" id="status-{esc(summary.slug)}">{_status(summary.status)}</td>'
        )
        for i, leg in enumerate(legs or [None]):
            cls, text = _score(leg)
            cells = [name, tier, status] if i == 0 else []
            if leg is None:
                cells.append('<td colspan="4" class="msg">no legs</td>')
            else:
                ident = f"score-{summary.slug}-{leg.revision}-{leg.leg}"
                title = f' title="{esc(leg.reason)}"' if leg.reason else ""
                cells += [
                    f"<td>{esc(leg.revision)}</td>",
                    f"<td>{esc(leg.leg)}</td>",
                    f'<td class="score {cls}" id="{esc(ident)}"{title}>{esc(text)}</td>',
                    f"<td>{_spark(history, leg.revision, leg.leg)}</td>",
                ]
            row_id = f' id="line-{esc(summary.slug)}"' if i == 0 else ""
            rows.append(f"<tr{row_id}>{''.join(cells)}</tr>")
    return (
        "<h2>SDK lines</h2>"
        f'<table class="lines"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        '<p class="msg">Sparkline: scored pass rate per run; a red dot marks a fall, an amber '
        "tick a night the leg was not measured. A row measured under another harness version "
        "or other requirement sets is marked and never called a regression.</p>"
    )


def _scenarios_list(index: DashboardIndex) -> str:
    failing = [s for s in index.scenarios if s.failing_lines]
    items = "".join(
        f"<li>{_a(s.page, f'{s.leg} · {s.scenario}')} "
        f'<span class="msg">failing in {s.failing_lines} line(s)</span></li>'
        for s in failing
    )
    every = "".join(f"<li>{_a(s.page, f'{s.leg} · {s.scenario}')}</li>" for s in index.scenarios)
    return (
        "<h2>Scenarios failing now</h2>"
        + (f'<ul id="failing-scenarios">{items}</ul>' if items else "<p>None.</p>")
        + f"<details><summary>Every scenario ({len(index.scenarios)})</summary>"
        f"<ul>{every}</ul></details>"
    )


def render_index(index: DashboardIndex, histories: Mapping[str, LineHistory]) -> str:
    """`index.html`: last night's changes, every line × revision × leg, failing scenarios."""
    meta = esc(
        f"{len(index.lines)} SDK line(s) · latest night {index.latest_night or 'none'} · "
        f"revisions {', '.join(index.revisions) or 'none'}"
    )
    data = _a("api/v1/index.json", "API (JSON)")
    matrix = f" · {_a(index.matrix, 'latest matrix (JSON)')}" if index.matrix else ""
    body = "\n".join(
        (
            f'<p class="msg">{data}{matrix}</p>',
            _last_night(index),
            _lines_table(index, histories),
            _scenarios_list(index),
        )
    )
    return page("tiercheck dashboard", "<span>tiercheck dashboard</span>", meta, body, css=_CSS)


# --- a line's page ---------------------------------------------------------------------------


def _run_cells(run: RunEntry, columns: Sequence[tuple[str, str]]) -> list[str]:
    cells = []
    for revision, leg in columns:
        found = next((x for x in run.legs if x.revision == revision and x.leg == leg), None)
        cls, text = _score(found)
        title = f' title="{esc(found.reason)}"' if found is not None and found.reason else ""
        cells.append(f'<td class="score {cls}"{title}>{esc(text)}</td>')
    return cells


def _recent(history: LineHistory) -> str:
    columns = [(x.revision, x.leg) for x in history.runs[-1].legs] if history.runs else []
    head = "".join(
        f"<th>{esc(h)}</th>"
        for h in ("Night", "Commit", "Tier", *(f"{r} {leg}" for r, leg in columns), "State")
    )
    rows = []
    for run in reversed(history.runs[-RECENT_RUNS:]):
        marks = [_status(run.status)]
        marks += [chip("review", f"not compared: {c}") for c in run.basis_change]
        tier = f"Tier {run.tier}" + (" (changed)" if run.tier_changed else "")
        rows.append(
            f'<tr id="run-{esc(run.run_id)}"><td>{esc(_day(run.timestamp))}</td>'
            f"<td><code>{esc(short_sha(run.commit))}</code></td><td>{esc(tier)}</td>"
            + "".join(_run_cells(run, columns))
            + f"<td>{' '.join(marks)}</td></tr>"
        )
    return (
        f"<h2>Recent runs</h2><table><thead><tr>{head}</tr></thead>"
        f'<tbody id="recent-runs">{"".join(rows)}</tbody></table>'
    )


def _tier_over_time(history: LineHistory) -> str:
    first = history.runs[0] if history.runs else None
    start = f"<li>{esc(_day(first.timestamp))}: Tier {first.tier} (first run)</li>" if first else ""
    items = "".join(
        f"<li>{esc(_day(c.timestamp))}: Tier {c.before} → Tier {c.after} "
        f'<span class="msg">at <code>{esc(short_sha(c.commit))}</code></span></li>'
        for c in history.tier_changes
    )
    return f'<h2>Tier over time</h2><ul id="tier-changes">{start}{items}</ul>'


def _clock(history: LineHistory) -> str:
    rows = []
    for c in history.clock:
        left = (
            "due"
            if c.status == "relegation-due"
            else f"{c.days_left} day(s)"
            if c.days_left is not None
            else "—"
        )
        verdict = {"clear": "pass", "at-risk": "review", "relegation-due": "fail"}[c.status]
        rule = (
            "any required test failing (Tier 1 → 2)"
            if c.rule == "tier1-to-tier2"
            else ("more than 20% failing (Tier 2 → 3)")
        )
        rows.append(
            f"<tr><td>{esc(c.revision)}</td><td>{esc(rule)}</td>"
            f"<td>{chip(verdict, c.status.replace('-', ' '))}</td><td>{esc(_day(c.since))}</td>"
            f"<td>{esc(c.due_on or '—')}</td><td>{esc(left)}</td>"
            f"<td>{esc(', '.join(c.scenarios) or '—')}</td></tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("Revision", "Rule", "Status", "Since", "Due on", "Time left", "Scenarios")
    )
    return (
        '<h2>SEP-1730 clock</h2><p class="msg">A required test failing for four weeks costs '
        "Tier 1; more than 20% failing for four weeks costs Tier 2. Time left counts from the "
        "latest night.</p>"
        f'<table id="clock"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


def _streaks(history: LineHistory, root: str) -> str:
    if not history.streaks:
        return '<h2>Failing now</h2><p id="streaks">Nothing.</p>'
    rows = "".join(
        f"<tr><td>{esc(s.revision)}</td><td>{esc(s.leg)}</td>"
        f"<td>{_a(f'{root}scenarios/{scenario_slug(s.leg, s.scenario)}.html', s.scenario)}"
        + (f" {chip('review', 'flaky')}" if s.flaky else "")
        + f"</td><td>{esc(_day(s.since))}</td><td>{s.runs}</td>"
        f"<td><code>{esc(s.check or '')}</code></td></tr>"
        for s in history.streaks
    )
    return (
        "<h2>Failing now</h2><table><thead><tr><th>Revision</th><th>Leg</th><th>Scenario</th>"
        f'<th>Since</th><th>Runs</th><th>Check</th></tr></thead><tbody id="streaks">{rows}'
        "</tbody></table>"
    )


def _regression_history(history: LineHistory) -> str:
    began: dict[str, str] = {}
    periods: list[tuple[str, str, str | None]] = []
    for run in history.runs:
        for key in run.ended:
            if key in began:
                periods.append((key, began.pop(key), run.timestamp))
        for key in run.started:
            began[key] = run.timestamp
    periods += [(key, since, None) for key, since in began.items()]
    if not periods:
        return '<h2>Regression history</h2><p id="regression-history">None.</p>'
    items = "".join(
        f"<li><code>{esc(key)}</code>: {esc(_day(since))} → "
        + (esc(f"undone {_day(until)}") if until else chip("fail", "open"))
        + "</li>"
        for key, since, until in sorted(periods, key=lambda p: (p[1], p[0]), reverse=True)
    )
    return f'<h2>Regression history</h2><ul id="regression-history">{items}</ul>'


def _unmeasured(history: LineHistory) -> str:
    items = []
    for run in reversed(history.runs):
        legs = [x for x in run.legs if x.state == "unmeasured"]
        if legs:
            what = "; ".join(f"{x.revision} {x.leg}: {x.reason or 'no reason'}" for x in legs)
            items.append(f"<li>{esc(_day(run.timestamp))} — {esc(what)}</li>")
    if not items:
        return '<h2>Unmeasured nights</h2><p id="unmeasured">None.</p>'
    return f'<h2>Unmeasured nights</h2><ul id="unmeasured">{"".join(items)}</ul>'


def _basis_changes(history: LineHistory) -> str:
    items = "".join(
        f"<li>{esc(_day(run.timestamp))}: {esc('; '.join(run.basis_change))}</li>"
        for run in reversed(history.runs)
        if run.basis_change
    )
    if not items:
        return ""
    return (
        '<h2>Harness and requirement changes</h2><p class="msg">The run after a change is '
        "not compared with the runs before it: it is marked, never called a regression.</p>"
        f'<ul id="basis-changes">{items}</ul>'
    )


def _flaky(history: LineHistory) -> str:
    if not history.flaky:
        return '<h2>Flaky scenarios</h2><p id="flaky">None.</p>'
    items = "".join(
        f"<li>{esc(f.revision)} {esc(f.leg)} <code>{esc(f.scenario)}</code>: {f.flips} flip(s) "
        f"on <code>{esc(short_sha(f.commit))}</code></li>"
        for f in history.flaky
    )
    return f'<h2>Flaky scenarios</h2><ul id="flaky">{items}</ul>'


def render_line(summary: LineSummary, history: LineHistory, *, aliases: Sequence[str] = ()) -> str:
    """`lines/<line>.html`: everything the history says of one line."""
    root = "../"
    links = [_a(f"{root}index.html", "← all lines")]
    if summary.links.scorecard_html:
        links.append(_a(f"{root}{summary.links.scorecard_html}", "latest scorecard"))
    if summary.links.claim_html:
        links.append(_a(f"{root}{summary.links.claim_html}", "latest claim"))
    links += [
        _a(f"{root}{summary.links.runs}", "runs (JSON)"),
        _a(f"{root}{summary.links.badge_svg}", "badge"),
        _a(f"{root}{summary.links.badge_json}", "shields endpoint"),
    ]
    also = (
        f'<p class="msg">Also served at the old badge name(s): {esc(", ".join(aliases))}.</p>'
        if aliases
        else ""
    )
    regressions = "".join(_regression_item(r) for r in summary.regressions)
    open_now = (
        f'<ul id="regressions">{regressions}</ul>'
        if regressions
        else '<p id="regressions">None.</p>'
    )
    revisions = history.revisions
    chart = trend_svg(
        summary.line, trend_points(history), revisions, width=900, height=220, gaps=True
    )
    body = "\n".join(
        part
        for part in (
            f'<nav class="crumbs" id="links">{" · ".join(links)}</nav>{also}',
            f"<h2>Open regressions {_status(summary.status)}</h2>{open_now}",
            f'<h2>Trend</h2><figure class="trend">{chart}<figcaption class="msg">Scored pass '
            f"rate per revision and leg over {len(history.runs)} run(s); a gap (and an amber "
            "tick below) is a night a leg was not measured, a dashed line a tier change."
            "</figcaption></figure>",
            _tier_over_time(history),
            _clock(history),
            _streaks(history, root),
            _regression_history(history),
            _unmeasured(history),
            _basis_changes(history),
            _flaky(history),
            _recent(history),
        )
        if part
    )
    heading = (
        f'<span class="badge">{line_badge_svg(summary)}</span>'
        f"<span>{esc(summary.line)}: Tier {summary.tier}</span>"
    )
    meta = esc(
        f"{summary.repo} · {summary.ref or 'default ref'} at {short_sha(summary.commit)} · "
        f"latest night {summary.night} · {summary.runs} run(s) · harness "
        f"{summary.harness_version or 'unknown'}"
    )
    return page(f"{summary.line}: tiercheck dashboard", heading, meta, body, css=_CSS)


# --- a scenario's page -----------------------------------------------------------------------


def render_scenario(scenario: ScenarioPage, index: DashboardIndex) -> str:
    """`scenarios/<scenario>.html`: which lines fail it now and since when, and its history."""
    root = "../"
    pages = {s.line: s.links.page for s in index.lines}
    rows = "".join(
        f'<tr id="now-{esc(r.line)}-{esc(r.revision)}">'
        f"<td>{_a(root + pages[r.line], r.line) if r.line in pages else esc(r.line)}</td>"
        f"<td>{esc(r.revision)}</td>"
        f"<td>{chip(_STATE_CHIP[r.state], r.state)}"
        + (f" {chip('fail', 'regression')}" if r.regression else "")
        + ("" if r.scored else ' <span class="msg">(not scored)</span>')
        + f"</td><td>{esc(_day(r.since))}</td><td>{r.runs or ''}</td>"
        f"<td><code>{esc(r.check or '')}</code>"
        + (f'<div class="msg">{esc(r.message)}</div>' if r.message else "")
        + "</td></tr>"
        for r in sorted(scenario.lines, key=lambda r: (r.state != "failing", r.line, r.revision))
    )
    now = (
        "<h2>Now</h2><table><thead><tr><th>SDK line</th><th>Revision</th><th>State</th>"
        f'<th>Failing since</th><th>Runs</th><th>Check</th></tr></thead><tbody id="now">{rows}'
        "</tbody></table>"
    )
    items = "".join(
        f"<li>{esc(p.line)} {esc(p.revision)}: {esc(_day(p.first))} → "
        + (chip("fail", "still failing") if p.open else esc(_day(p.last)))
        + f' <span class="msg">({p.runs} failing run(s))</span></li>'
        for p in scenario.periods
    )
    periods = (
        f'<h2>Failures in the history</h2><ul id="periods">{items}</ul>'
        if items
        else '<h2>Failures in the history</h2><p id="periods">None.</p>'
    )
    failing = len({r.line for r in scenario.lines if r.state == "failing"})
    meta = esc(
        f"{scenario.leg} scenario · failing now in {failing} of "
        f"{len({r.line for r in scenario.lines})} line(s)"
    )
    body = f'<nav class="crumbs">{_a(f"{root}index.html", "← all lines")}</nav>{now}{periods}'
    heading = f"<span>{esc(scenario.leg)} · {esc(scenario.scenario)}</span>"
    return page(f"{scenario.scenario}: tiercheck dashboard", heading, meta, body, css=_CSS)
