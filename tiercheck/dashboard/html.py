"""The published dashboard's pages and badges (pure): the API documents → HTML and SVG.

Three kinds of page, each one self-contained file (inline styles and SVG, no script, nothing
fetched: the Content-Security-Policy of every tiercheck page) linked to the others by relative
paths, so the site reads the same from `file://` and from GitHub Pages:

* `index.html` — what changed last night, then every line × revision × leg with its tier badge,
  status and a sparkline of its pass rate;
* `lines/<line>.html` — a line's open regressions, trend chart, tier over time, SEP-1730 clock,
  failing streaks, regression history, unmeasured nights, harness changes, flaky scenarios and
  recent runs, with links to its latest scorecard and claim pages, its triage entries and its
  badge panel (`tiercheck.dashboard.panel`);
* `scenarios/<scenario>.html` — which lines fail it now and since when, and every stretch of
  failures in the history.

A triage link (`tiercheck.dashboard.triage`) stands beside each failure it covers; the index
lists stale entries and links the Atom feed (`feed.atom`) in its head.

Every number and name comes from the API documents the site publishes beside the pages
(`tiercheck.dashboard`), and every string is escaped: the pages are composed with the HTML kit
(`tiercheck.render.html`), whose links take only relative paths inside the site.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tiercheck.config.disputes import CONFORMANCE_REPO
from tiercheck.dashboard.build import scenario_slug, trend_points
from tiercheck.dashboard.feed import FEED
from tiercheck.dashboard.model import (
    ClockEntry,
    DashboardIndex,
    LegSummary,
    LineHistory,
    LineSummary,
    RegressionEntry,
    RunEntry,
    ScenarioFailing,
    ScenarioPage,
    ScenarioRef,
)
from tiercheck.dashboard.nightdiff import NIGHTS_PAGE
from tiercheck.dashboard.panel import badge_panel
from tiercheck.dashboard.triage import Triage, TriageEntry, TriageStatus
from tiercheck.history.datafile import line_slug
from tiercheck.plaintext import one_line
from tiercheck.render.badge import (
    LABEL,
    NOT_ASSESSED,
    TIER_COLORS,
    badge_json,
    badge_svg,
    tier_text,
)
from tiercheck.render.element import ISSUE_PAGES, Child, site
from tiercheck.render.html import (
    Css,
    Html,
    a,
    chip,
    el,
    github_link,
    join,
    page,
    scroll_region,
    table,
    td,
    tr,
    void,
)
from tiercheck.render.svg import Svg
from tiercheck.render.trend import sparkline_svg, trend_svg
from tiercheck.scorecard.history_text import NO_STABLE_RUN, TITLE_CHARS, no_stable_hint
from tiercheck.scorecard.model import HistoryTrendPoint, HistoryUnaddressed
from tiercheck.scorecard.readings import short_sha, trend_columns

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

_CSS = Css("""
main { max-width: 1280px; }
table.lines td { vertical-align: middle; }
td.score { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.measured-full { background: #dafbe1; } td.measured-partial { background: #ffcecb; }
td.unmeasured { background: #fff1b8; } td.skipped { background: #f6f8fa; color: var(--muted); }
ul.changes li { margin: 3px 0; }
nav.crumbs { font-size: 13px; margin: 8px 0 0; }
svg.spark { display: block; }
figure.trend { margin: 8px 0; }
.nowrap, .scroll td:first-child:not(.line) { white-space: nowrap; }
svg.trend { display: block; max-width: 900px; height: auto; }
td.line .badge { margin: 4px 0 2px; }
.badge svg { vertical-align: middle; }
details summary { cursor: pointer; }
pre.snippet { background: var(--bg); border: 1px solid var(--line); padding: 6px 8px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.triage { font-size: 12px; }
""")

_STATUS_CHIP = {"regressed": "fail", "incomparable": "review", "ok": "pass"}
_STATUS_TEXT = {"regressed": "regressed", "incomparable": "harness changed", "ok": "ok"}
_STATE_CHIP = {"failing": "fail", "passing": "pass", "unmeasured": "unmeasured"}


def _status(status: str) -> Html:
    return chip(_STATUS_CHIP.get(status, "info"), _STATUS_TEXT.get(status, status), symbol=True)


def _a(href: str, text: str) -> Html:
    """A relative link inside the site (the href is ours, built from slugs; anything else is
    left as text)."""
    return a(text, site(href))


def _day(stamp: str | None) -> str:
    return stamp[:10] if stamp else "—"


def _badge_parts(summary: LineSummary) -> tuple[str, str]:
    shown = NOT_ASSESSED if summary.tier is None else str(summary.tier)
    message = shown + (" · regressed" if summary.status == "regressed" else "")
    return message, TIER_COLORS.get(summary.tier or 0, "#9f9f9f")


def _line_badge(summary: LineSummary, *, inline: bool = True) -> Svg:
    # Inline, a badge's ids carry its line's slug: the index holds one badge per line.
    ids = f"badge-{summary.slug}-" if inline else ""
    return badge_svg(LABEL, *_badge_parts(summary), ids=ids)


def line_badge_svg(summary: LineSummary) -> str:
    """`MCP tier | N` for the line's latest run (`· regressed` while a regression is open)."""
    return str(_line_badge(summary, inline=False))


def line_badge_json(summary: LineSummary) -> str:
    """The shields.io endpoint document of the same badge."""
    return badge_json(LABEL, *_badge_parts(summary))


#: A score cell's symbol by its class: the cell says it in a symbol and words, never colour alone.
_SCORE_SYMBOL = {"measured-full": "✓", "measured-partial": "✗", "unmeasured": "?", "skipped": "–"}


def _score(leg: LegSummary | None) -> tuple[str, Html]:
    """(css class, symbol and words) of a latest-score cell: `✓ 4/4 pass`, `✗ 3/4 · 1 fail`,
    `? unmeasured`, `– skipped`."""
    if leg is None:
        return "skipped", Html.escape("—")
    if leg.state != "measured":
        cls, words = leg.state, leg.state
    elif leg.passed == leg.total:
        cls, words = "measured-full", f"{leg.passed}/{leg.total} pass"
    else:
        cls, words = "measured-partial", f"{leg.passed}/{leg.total} · {leg.total - leg.passed} fail"
    symbol = _SCORE_SYMBOL.get(cls)
    if symbol is None:
        return cls, Html.escape(words)
    return cls, join((el("span", symbol, class_="sym", aria_hidden="true"), " ", words))


def _spark(history: LineHistory, revision: str, leg: str) -> Html:
    points: list[tuple[str, float | None]] = []
    for run in history.runs[-SPARK_RUNS:]:
        found = next((x for x in run.legs if x.revision == revision and x.leg == leg), None)
        if found is not None and found.state != "skipped":
            points.append((run.timestamp, found.pass_rate))
    if not points:
        return el("span", "—", class_="msg")
    return Html(sparkline_svg(f"{history.line} {revision} {leg}: scored pass rate", points))


def _regression_item(r: RegressionEntry) -> Html:
    return el("li", _kind(r.kind), " ", r.detail)


def _kind(kind: str) -> Html:
    return chip("fail", kind.replace("-", " "))


def _last_night_items(summary: LineSummary) -> list[Html]:
    last = summary.last_night
    items = [join((_kind(r.kind), " ", r.detail)) for r in last.started]
    items += [join((chip("pass", "fixed"), " ", r.detail)) for r in last.ended]
    # A drop that opened a lower-tier regression is said once, by the regression.
    dropped = any(r.kind == "lower-tier" for r in last.started)
    if last.tier_before is not None and last.tier_before != last.tier_after and not dropped:
        items.append(Html.escape(f"{tier_text(last.tier_before)} → {tier_text(last.tier_after)}"))
    reported = {r.key.split(":", 1)[1] for r in (*last.started, *last.ended) if ":" in r.key}
    items += [
        join((chip("fail", "newly failing"), " ", el("code", k)))
        for k in last.newly_failing
        if k not in reported
    ]
    items += [
        join((chip("pass", "fixed"), " ", el("code", k))) for k in last.fixed if k not in reported
    ]
    items += [
        join(
            (
                chip("unmeasured"),
                " ",
                el("code", k),
                " ",
                el("span", _reason(summary.legs, k), class_="msg"),
            )
        )
        for k in last.newly_unmeasured
        if k not in reported
    ]
    items += [
        join(
            (
                chip("review", "not compared"),
                f" {change}: a run under another harness or other requirement sets is marked, "
                "never called a regression",
            )
        )
        for change in last.basis_change
    ]
    return items


def _reason(legs: Sequence[LegSummary], where: str) -> str:
    revision, _, leg = where.partition("/")
    found = next((x for x in legs if x.revision == revision and x.leg == leg), None)
    return found.reason or "" if found else ""


def _last_night(index: DashboardIndex, root: str = "") -> Html:
    night = index.latest_night
    if night is None:
        return join((el("h2", "Last night"), el("p", "No runs yet.")))
    blocks = []
    for summary in index.lines:
        link = el("strong", _a(f"{root}{summary.links.page}", summary.line))
        ident = f"night-{summary.slug}"
        if summary.night != night:
            blocks.append(el("li", link, f": no run on {night} (latest {summary.night})", id=ident))
            continue
        items = _last_night_items(summary)
        if items:
            inner = el("ul", *(el("li", item) for item in items), class_="changes")
            blocks.append(el("li", link, inner, id=ident))
    body = (
        el("ul", *blocks, class_="changes", id="last-night")
        if blocks
        else el("p", "Nothing changed.", id="last-night")
    )
    return join((el("h2", f"Last night: {night}"), body))


def _lines_table(index: DashboardIndex, histories: Mapping[str, LineHistory]) -> Html:
    # The key columns first (the line and its tier, its status, each leg's latest score), so
    # a narrow screen shows them before the table scrolls.
    header = (
        "SDK line and tier",
        "Status",
        "Revision and leg",
        "Latest",
        f"Trend (last {SPARK_RUNS} runs)",
    )
    rows = []
    for summary in index.lines:
        history = histories[summary.slug]
        legs = [x for x in summary.legs if x.state != "skipped"] or list(summary.legs)
        span = max(len(legs), 1)
        regressions = [_regression_item(r) for r in summary.regressions]
        name = td(
            el("strong", _a(summary.links.page, summary.line)),
            el(
                "div",
                f"{summary.repo} · {summary.night} · ",
                el("code", short_sha(summary.commit)),
                class_="msg",
            ),
            el("div", _line_badge(summary), class_="badge"),
            el("ul", *regressions, class_="msg") if regressions else "",
            rowspan=span,
            class_="line",
        )
        status = td(_status(summary.status), rowspan=span, id=f"status-{summary.slug}")
        for i, leg in enumerate(legs or [None]):
            cls, text = _score(leg)
            cells = [name, status] if i == 0 else []
            if leg is None:
                cells.append(td("no legs", colspan="3", class_="msg"))
            else:
                cells += [
                    td(el("span", leg.revision, class_="nowrap"), " ", leg.leg),
                    td(
                        text,
                        class_=f"score {cls}",
                        id=f"score-{summary.slug}-{leg.revision}-{leg.leg}",
                        title=leg.reason or None,
                    ),
                    td(_spark(history, leg.revision, leg.leg)),
                ]
            rows.append(tr(*cells, id=f"line-{summary.slug}" if i == 0 else None))
    return join(
        (
            el("h2", "SDK lines"),
            scroll_region(table(header, rows, class_="lines"), "SDK lines"),
            el(
                "p",
                "Latest: scored scenarios passed of those run (✓ all pass, ✗ some fail, "
                "? unmeasured). Sparkline: scored pass rate per run; a red dot marks a fall, an "
                "amber tick a "
                "night the leg was not measured. A row measured under another harness version "
                "or other requirement sets is marked and never called a regression.",
                class_="msg",
            ),
        )
    )


def _failing_item(s: ScenarioRef, f: ScenarioFailing, note: str, *marks: Html) -> Html:
    link = _a(s.page, f"{f.revision} · {s.leg} · {s.scenario}")
    return el("li", link, *(join((" ", m)) for m in marks), " ", el("span", note, class_="msg"))


def _scenarios_list(index: DashboardIndex) -> Html:
    """The scenarios failing now, one entry per revision × leg × scenario (a scenario failing
    at one revision in one line and at another in another is two entries, each counting its
    own lines): those a requirement set scores first (open regressions at the top, marked),
    then, apart and labelled, those failing only where nothing scores them."""
    failing = [(s, f) for s in index.scenarios for f in s.failing if f.failing_lines]
    scored = sorted(
        ((s, f) for s, f in failing if f.scored_failing_lines),
        key=lambda sf: (-sf[1].regression_lines, -sf[1].scored_failing_lines),
    )
    scored_items = []
    for s, f in scored:
        note = f"failing in {f.scored_failing_lines} line(s) where scored"
        if f.failing_lines > f.scored_failing_lines:
            note += f", {f.failing_lines - f.scored_failing_lines} more where not scored"
        marks = [chip("fail", "regression")] if f.regression_lines else []
        scored_items.append(_failing_item(s, f, note, *marks))
    unscored = [
        _failing_item(s, f, f"failing in {f.failing_lines} line(s); not scored")
        for s, f in failing
        if not f.scored_failing_lines
    ]
    every = [el("li", _a(s.page, f"{s.leg} · {s.scenario}")) for s in index.scenarios]
    parts = [
        el("h2", "Scenarios failing now"),
        el("ul", *scored_items, id="failing-scenarios") if scored_items else el("p", "None."),
    ]
    if unscored:
        parts += [
            el("h3", f"Failing, not scored ({len(unscored)})"),
            el(
                "p",
                "Not counted by the requirement set of the revision that reports them "
                "(pending, informational or not yet scored): they change no tier.",
                class_="msg",
            ),
            el("ul", *unscored, id="failing-unscored"),
        ]
    parts.append(
        el(
            "details",
            el("summary", f"Every scenario ({len(index.scenarios)})"),
            el("ul", *every),
        )
    )
    return join(parts)


def _triage_link(entry: TriageEntry | None) -> Html:
    """The reviewed issue beside a failure (its note as text), or nothing."""
    if entry is None:
        return Html()
    return el(
        "span",
        " ",
        chip("info", "triaged"),
        " ",
        github_link(entry.issue_label, entry.issue, kinds=ISSUE_PAGES),
        ": ",
        entry.note,
        class_="triage",
    )


def _stale_item(status: TriageStatus) -> Html:
    e = status.entry
    return el(
        "li",
        chip("warn", "stale"),
        " ",
        el("code", e.subject),
        " → ",
        github_link(e.issue_label, e.issue, kinds=ISSUE_PAGES),
        f": {status.reason} ({e.place})",
    )


def _stale_triage(statuses: Sequence[TriageStatus]) -> Html:
    stale = [s for s in statuses if s.stale]
    if not stale:
        return Html()
    return join(
        (
            el("h2", "Stale triage entries"),
            el(
                "p",
                "The failure these entries link to an issue is gone: remove them from the "
                "triage file (or close their issues).",
                class_="msg",
            ),
            el("ul", *(_stale_item(s) for s in stale), id="stale-triage"),
        )
    )


def _triage_section(statuses: Sequence[TriageStatus]) -> Html:
    if not statuses:
        return Html()
    label = {
        "met": ("fail", "failing"),
        "stale": ("warn", "stale"),
        "not-measured": ("unmeasured", "not measured"),
    }
    items = [
        el(
            "li",
            chip(*label[s.state]),
            " ",
            el("code", s.entry.subject),
            " → ",
            github_link(s.entry.issue_label, s.entry.issue, kinds=ISSUE_PAGES),
            ": ",
            s.entry.note,
            el("div", s.reason, class_="msg"),
        )
        for s in statuses
    ]
    return join((el("h2", "Triage"), el("ul", *items, id="triage")))


def render_index(
    index: DashboardIndex,
    histories: Mapping[str, LineHistory],
    *,
    grid: str | None = None,
    night: tuple[str, str] | None = None,
    feed: bool = False,
    triage: Sequence[TriageStatus] = (),
    more: Sequence[tuple[str, str]] = (),
) -> str:
    """`index.html`: last night's changes, every line × revision × leg, failing scenarios;
    with links to the cross-SDK grid page `grid` and the latest night's page `night` (night,
    path) when the site has them, and to the grid's views `more` (path, text); with `feed`, a link
    to the Atom feed (`feed.atom`); stale `triage` entries listed."""
    meta = (
        f"{len(index.lines)} SDK line(s) · latest night {index.latest_night or 'none'} · "
        f"revisions {', '.join(index.revisions) or 'none'}"
    )
    data = _a("api/v1/index.json", "API (JSON)")
    matrix = join((" · ", _a(index.matrix, "latest matrix (JSON)"))) if index.matrix else ""
    views = join((" · ", _a(grid, "cross-SDK grid"))) if grid else ""
    for path, text in more:
        views = join((views, " · ", _a(path, text)))
    if night:
        latest = _a(night[1], f"night {night[0]} against the night before")
        views = join((views, " · ", latest, " · ", _a(NIGHTS_PAGE, "all nights")))
    atom = join((" · ", _a(FEED, "regressions and recoveries (Atom feed)"))) if feed else ""
    body = join(
        (
            el("p", data, matrix, views, atom, class_="msg", id="views"),
            _last_night(index),
            _lines_table(index, histories),
            _scenarios_list(index),
            _stale_triage(triage),
        ),
        "\n",
    )
    heading = el("span", "tiercheck dashboard")
    head = (
        void(
            "link",
            rel="alternate",
            type="application/atom+xml",
            title="tiercheck: regressions and recoveries",
            href=site(FEED),
        )
        if feed
        else None
    )
    source = site("api/v1/index.json")
    return str(page("tiercheck dashboard", heading, meta, body, css=_CSS, head=head, data=source))


# --- a line's page ---------------------------------------------------------------------------


def _run_cells(run: RunEntry, columns: Sequence[tuple[str, str]]) -> list[Html]:
    cells: list[Html] = []
    for revision, leg in columns:
        found = next((x for x in run.legs if x.revision == revision and x.leg == leg), None)
        cls, text = _score(found)
        title = found.reason if found is not None and found.reason else None
        cells.append(td(text, class_=f"score {cls}", title=title))
    return cells


def _run_anchors(runs: Sequence[RunEntry]) -> list[str]:
    """Each run's row id: `run-` and its time (`20261030T031500Z`), then its run id when that
    says something else (a matrix row's run id is its row name, the same every night); a run
    that would still repeat an id takes `-2`, `-3`, … so every id on the page is its own."""
    anchors: list[str] = []
    seen: set[str] = set()
    for run in runs:
        stamp = "".join(c for c in run.timestamp if c.isalnum())
        anchor = f"run-{stamp}" if run.run_id == stamp else f"run-{stamp}-{run.run_id}"
        n, unique = 1, anchor
        while unique in seen:
            n += 1
            unique = f"{anchor}-{n}"
        seen.add(unique)
        anchors.append(unique)
    return anchors


def _recent(history: LineHistory) -> Html:
    columns = [(x.revision, x.leg) for x in history.runs[-1].legs] if history.runs else []
    header = ("Night", "Commit", "Tier", *(f"{r} {leg}" for r, leg in columns), "State")
    rows = []
    shown = history.runs[-RECENT_RUNS:]
    for run, anchor in reversed(list(zip(shown, _run_anchors(shown), strict=True))):
        marks = [_status(run.status)]
        marks += [chip("review", f"not compared: {c}") for c in run.basis_change]
        tier = (
            "not assessed: nothing was measured"
            if run.tier is None
            else f"Tier {run.tier}" + (" (changed)" if run.tier_changed else "")
        )
        rows.append(
            tr(
                td(_day(run.timestamp)),
                td(el("code", short_sha(run.commit))),
                td(tier),
                *_run_cells(run, columns),
                td(join(marks, " ")),
                id=anchor,
            )
        )
    recent = scroll_region(table(header, rows, body_id="recent-runs"), "Recent runs")
    return join((el("h2", "Recent runs"), recent))


def _tier_over_time(history: LineHistory) -> Html:
    first = history.runs[0] if history.runs else None
    start = (
        el("li", f"{_day(first.timestamp)}: {tier_text(first.tier)} (first run)") if first else ""
    )
    items = [
        el(
            "li",
            f"{_day(c.timestamp)}: Tier {c.before} → Tier {c.after} ",
            el("span", "at ", el("code", short_sha(c.commit)), class_="msg"),
        )
        for c in history.tier_changes
    ]
    return join((el("h2", "Tier over time"), el("ul", start, *items, id="tier-changes")))


#: A clock status → its chip (class, words).
_CLOCK_CHIP = {
    "clear": ("pass", "clear"),
    "at-risk": ("review", "at risk"),
    "relegation-due": ("fail", "relegation due"),
    "no-stable-run": ("unmeasured", NO_STABLE_RUN),
    "unmeasured": ("unmeasured", "unmeasured"),
}


def _clock_rows(entries: tuple[ClockEntry, ...]) -> list[list[Child]]:
    rows: list[list[Child]] = []
    for c in entries:
        left = (
            "due"
            if c.status == "relegation-due"
            else f"{c.days_left} day(s)"
            if c.days_left is not None
            else "—"
        )
        verdict, label = _CLOCK_CHIP[c.status]
        rule = (
            "any required test failing (Tier 1 → 2)"
            if c.rule == "tier1-to-tier2"
            else ("more than 20% failing (Tier 2 → 3)")
        )
        rows.append(
            [
                c.revision,
                rule,
                chip(verdict, label, symbol=True),
                _day(c.since),
                c.due_on or "—",
                left,
                ", ".join(c.scenarios) or "—",
            ]
        )
    return rows


def _clock(history: LineHistory) -> Html:
    header = ("Revision", "Rule", "Status", "Since", "Due on", "Time left", "Scenarios")
    parts: list[Html] = [
        el("h2", "SEP-1730 clock"),
        el(
            "p",
            "Read from the latest stable release (runs of @stable), as the rule says: a "
            "required test failing for four weeks costs Tier 1; more than 20% failing for "
            "four weeks costs Tier 2. Time left counts from the latest night.",
            class_="msg",
        ),
        scroll_region(table(header, _clock_rows(history.clock), id="clock"), "SEP-1730 clock"),
    ]
    if any(c.status == "no-stable-run" for c in history.clock):
        sdk = history.line.removesuffix("@stable") if history.series == "stable" else history.line
        parts.append(
            el(
                "p",
                f"No stable release of {sdk} assessed yet: the clock starts with its first run "
                "at its latest stable release tag, ",
                el("code", no_stable_hint(sdk)),
                " (the nightly: ",
                el("code", "tier-check matrix plan --all --stable"),
                ").",
                class_="msg",
                id="clock-no-stable-run",
            )
        )
    if history.early_warning:
        parts += [
            el("h2", "Early warning: the default branch"),
            el(
                "p",
                "The same rules over the default branch's runs: what the next release would "
                "carry. Never the relegation verdict.",
                class_="msg",
            ),
            scroll_region(
                table(header, _clock_rows(history.early_warning), id="early-warning"),
                "Early warning",
            ),
        ]
    return join(parts)


_GROUND_CHIP = {
    "none": ("pass", "none"),
    "unaddressed": ("review", "issues unaddressed"),
    "inconclusive": ("unmeasured", "inconclusive"),
    "skipped": ("unmeasured", "skipped"),
    "not-recorded": ("unmeasured", "not recorded"),
}


def _ground_row(u: HistoryUnaddressed) -> list[Child]:
    verdict, label = _GROUND_CHIP[u.status]
    if u.status == "unaddressed":
        title = one_line(u.oldest_title, TITLE_CHARS) if u.oldest_title else ""
        oldest: Child = join((f"#{u.oldest_number} ", el("span", title, class_="msg")))
        status = chip(verdict, label, symbol=True)
        return [status, _day(u.timestamp), u.issues, oldest, u.oldest_age_days]
    why = one_line(u.reason, TITLE_CHARS) if u.reason else "—"
    if u.status == "not-recorded":
        why = "the latest run predates this record" if u.run_id else "no run"
    status = chip(verdict, label, symbol=True)
    return [status, _day(u.timestamp), "—" if u.status != "none" else 0, why, "—"]


def _unaddressed(history: LineHistory) -> Html:
    ground = history.unaddressed
    if ground is None:
        return Html()
    header = ("Status", "As of", "Issues", "Oldest issue", "Age (days)")
    return join(
        (
            el("h2", "Issues unaddressed for two months"),
            el(
                "p",
                "SEP-1730: “An SDK may also be relegated if issues remain unaddressed for two "
                "months.” A ground the reviewers may weigh, at their discretion, not the "
                f"four-week clock above: nothing here becomes due. An issue counts once open "
                f"{ground.days} days with no label or answer from anyone but its author; read "
                "from the SDK's latest run, of either series.",
                class_="msg",
            ),
            scroll_region(
                table(header, [_ground_row(ground)], id="unaddressed"), "Issues unaddressed"
            ),
        )
    )


def _streaks(history: LineHistory, root: str, triage: Triage) -> Html:
    if not history.streaks:
        return join((el("h2", "Failing now"), el("p", "Nothing.", id="streaks")))
    rows: list[list[Child]] = [
        [
            s.revision,
            s.leg,
            join(
                (
                    _a(f"{root}scenarios/{scenario_slug(s.leg, s.scenario)}.html", s.scenario),
                    join((" ", chip("review", "flaky"))) if s.flaky else "",
                    _triage_link(triage.lookup(history.line, s.revision, s.leg, s.scenario)),
                )
            ),
            _day(s.since),
            s.runs,
            el("code", s.check or ""),
        ]
        for s in history.streaks
    ]
    header = ("Revision", "Leg", "Scenario", "Since", "Runs", "Check")
    failing = scroll_region(table(header, rows, body_id="streaks"), "Failing now")
    return join((el("h2", "Failing now"), failing))


def _regression_history(history: LineHistory) -> Html:
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
        return join((el("h2", "Regression history"), el("p", "None.", id="regression-history")))
    items = [
        el(
            "li",
            el("code", key),
            f": {_day(since)} → ",
            f"undone {_day(until)}" if until else chip("fail", "open"),
        )
        for key, since, until in sorted(periods, key=lambda p: (p[1], p[0]), reverse=True)
    ]
    return join((el("h2", "Regression history"), el("ul", *items, id="regression-history")))


def _unmeasured(history: LineHistory) -> Html:
    items = []
    for run in reversed(history.runs):
        legs = [x for x in run.legs if x.state == "unmeasured"]
        what = "; ".join(f"{x.revision} {x.leg}: {x.reason or 'no reason'}" for x in legs)
        if run.tier is None:  # the run measured nothing: a night with no tier at all
            what = f"nothing was measured (not assessed){': ' + what if what else ''}"
        if what:
            items.append(el("li", f"{_day(run.timestamp)} — {what}"))
    if not items:
        return join((el("h2", "Unmeasured nights"), el("p", "None.", id="unmeasured")))
    return join((el("h2", "Unmeasured nights"), el("ul", *items, id="unmeasured")))


def _basis_changes(history: LineHistory) -> Html:
    items = [
        el("li", f"{_day(run.timestamp)}: {'; '.join(run.basis_change)}")
        for run in reversed(history.runs)
        if run.basis_change
    ]
    if not items:
        return Html()
    return join(
        (
            el("h2", "Harness and requirement changes"),
            el(
                "p",
                "The run after a change is not compared with the runs before it: it is marked, "
                "never called a regression.",
                class_="msg",
            ),
            el("ul", *items, id="basis-changes"),
        )
    )


def _flaky(history: LineHistory) -> Html:
    if not history.flaky:
        return join((el("h2", "Flaky scenarios"), el("p", "None.", id="flaky")))
    items = [
        el(
            "li",
            f"{f.revision} {f.leg} ",
            el("code", f.scenario),
            f": {f.flips} flip(s) on ",
            el("code", short_sha(f.commit)),
        )
        for f in history.flaky
    ]
    return join((el("h2", "Flaky scenarios"), el("ul", *items, id="flaky")))


def _line_links(summary: LineSummary, aliases: Sequence[str], root: str) -> Html:
    """The line's links (the index, its latest scorecard and claim when the site has them, its
    runs and badge), and the old badge names it is also served at."""
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
        el("p", f"Also served at the old badge name(s): {', '.join(aliases)}.", class_="msg")
        if aliases
        else ""
    )
    return join((el("nav", join(links, " · "), class_="crumbs", id="links"), also))


def _compare(compare: Sequence[tuple[str, str]], root: str) -> Html:
    """Links to the pages comparing the line with each other line it is paired with."""
    if not compare:
        return Html()
    links = join((_a(f"{root}{path}", other) for other, path in compare), " · ")
    return el("p", "Compare with: ", links, class_="msg", id="compare")


def _open_regressions(summary: LineSummary) -> Html:
    """The line's open regressions, under a heading with its status ("None." when none is)."""
    regressions = [_regression_item(r) for r in summary.regressions]
    open_now = (
        el("ul", *regressions, id="regressions")
        if regressions
        else el("p", "None.", id="regressions")
    )
    return join((el("h2", "Open regressions ", _status(summary.status)), open_now))


def _trend_table(points: Sequence[HistoryTrendPoint], columns: Sequence[tuple[str, str]]) -> Html:
    """The trend chart's numbers as a table, run by run in the chart's order: each column's
    scored pass rate ("unmeasured" where the chart has a gap, "—" where the leg did not run)
    and the tier."""
    rows = []
    for point in points:
        cells: list[Child] = [_day(point.timestamp), tier_text(point.tier)]
        for rev, leg in columns:
            rates = point.pass_rate.get(rev, {})
            rate = rates.get(leg)
            cells.append(
                f"{rate:.0%}" if rate is not None else "unmeasured" if leg in rates else "—"
            )
        if point.tier_changed:
            cells[1] = f"{cells[1]} (changed)"
        rows.append(cells)
    header = ("Night", "Tier", *(f"{rev} {leg}" for rev, leg in columns))
    numeric = range(2, 2 + len(columns))
    chart = table(header, rows, numeric, class_="trend-table")
    return el(
        "details",
        el("summary", f"The chart's numbers: a table of the {len(points)} run(s)"),
        scroll_region(chart, "The trend chart's numbers"),
        id="trend-table",
    )


def _trend(summary: LineSummary, history: LineHistory) -> Html:
    """The trend chart of every run (as wide as the page allows), with gaps where a leg was not
    measured, its caption, and its numbers as a table."""
    points = trend_points(history)
    columns = trend_columns(history.revisions)
    chart = trend_svg(
        summary.line,
        points,
        columns,
        width=640,
        height=240,
        gaps=True,
        end_labels=True,
        fluid=True,
    )
    caption = el(
        "figcaption",
        f"Scored pass rate per revision and leg over {len(history.runs)} run(s): each line has "
        "its own dash pattern and marker (named in the legend below the chart and at its end; "
        "a marker's title gives its night and rate); a gap (and an amber tick below) is a "
        "night a leg was not measured, a dashed grey line a tier change.",
        class_="msg",
    )
    figure = el("figure", chart, caption, class_="trend")
    return join((el("h2", "Trend"), figure, _trend_table(points, columns)))


def _line_heading(summary: LineSummary) -> tuple[Html, str]:
    """The page's heading (the line's badge, name and tier) and the line under it (where and
    when the latest run measured, and how many runs there are)."""
    heading = join(
        (
            el("span", _line_badge(summary), class_="badge"),
            el("span", f"{summary.line}: {tier_text(summary.tier)}"),
        )
    )
    meta = (
        f"{summary.repo} · {summary.ref or 'default ref'} at {short_sha(summary.commit)} · "
        f"latest night {summary.night} · {summary.runs} run(s) · harness "
        f"{summary.harness_version or 'unknown'}"
    )
    return heading, meta


def render_line(
    summary: LineSummary,
    history: LineHistory,
    *,
    aliases: Sequence[str] = (),
    base_url: str | None = None,
    triage: Triage | None = None,
    statuses: Sequence[TriageStatus] = (),
    compare: Sequence[tuple[str, str]] = (),
) -> str:
    """`lines/<line>.html`: everything the history says of one line; `triage` links beside its
    failures and its entries judged (`statuses`); links to its comparison with each of
    `compare` (the other line, the page from the site's root); the badge panel (URLs under
    `base_url`, else relative)."""
    triage = triage or Triage()
    root = "../"
    body = join(
        (
            part
            for part in (
                _line_links(summary, aliases, root),
                _compare(compare, root),
                _open_regressions(summary),
                _trend(summary, history),
                _tier_over_time(history),
                _clock(history),
                _unaddressed(history),
                _streaks(history, root, triage),
                _triage_section(statuses),
                _regression_history(history),
                _unmeasured(history),
                _basis_changes(history),
                _flaky(history),
                _recent(history),
                badge_panel(summary, base_url),
            )
            if part
        ),
        "\n",
    )
    heading, meta = _line_heading(summary)
    title, source = f"{summary.line}: tiercheck dashboard", site(f"{root}{summary.links.runs}")
    return str(page(title, heading, meta, body, css=_CSS, data=source))


# --- a scenario's page -----------------------------------------------------------------------


def _dispute_mark(issue: str) -> Html:
    """A scenario disputed as the run read it: left out of SEP-1730's counts, linked to its
    issue in the conformance repository (anything else stays plain text)."""
    return join(
        (
            chip("review", "disputed"),
            " ",
            el(
                "span",
                "(not counted: ",
                github_link(None, issue, repo=CONFORMANCE_REPO, kinds=ISSUE_PAGES),
                ")",
                class_="msg",
            ),
        )
    )


def render_scenario(
    scenario: ScenarioPage, index: DashboardIndex, *, triage: Triage | None = None
) -> str:
    """`scenarios/<scenario>.html`: which lines fail it now and since when (a `triage` link
    beside a failure), and its history."""
    root = "../"
    triage = triage or Triage()
    pages = {s.line: s.links.page for s in index.lines}
    rows = [
        tr(
            td(_a(root + pages[r.line], r.line) if r.line in pages else r.line),
            td(r.revision),
            td(
                chip(_STATE_CHIP[r.state], r.state, symbol=True),
                join((" ", chip("fail", "regression"))) if r.regression else "",
                "" if r.scored else join((" ", el("span", "(not scored)", class_="msg"))),
                join((" ", _dispute_mark(r.dispute))) if r.dispute else "",
            ),
            td(_day(r.since)),
            td(r.runs or ""),
            td(
                el("code", r.check or ""),
                el("div", r.message, class_="msg") if r.message else "",
                _triage_link(triage.lookup(r.line, r.revision, scenario.leg, scenario.scenario))
                if r.state == "failing"
                else "",
            ),
            id=f"now-{line_slug(r.line)}-{r.revision}",
        )
        for r in sorted(scenario.lines, key=lambda r: (r.state != "failing", r.line, r.revision))
    ]
    header = ("SDK line", "Revision", "State", "Failing since", "Runs", "Check")
    now = join((el("h2", "Now"), scroll_region(table(header, rows, body_id="now"), "Now")))
    items = [
        el(
            "li",
            f"{p.line} {p.revision}: {_day(p.first)} → ",
            chip("fail", "still failing") if p.open else _day(p.last),
            " ",
            el("span", f"({p.runs} failing run(s))", class_="msg"),
        )
        for p in scenario.periods
    ]
    periods = join(
        (
            el("h2", "Failures in the history"),
            el("ul", *items, id="periods") if items else el("p", "None.", id="periods"),
        )
    )
    failing = len({r.line for r in scenario.lines if r.state == "failing"})
    meta = (
        f"{scenario.leg} scenario · failing now in {failing} of "
        f"{len({r.line for r in scenario.lines})} line(s)"
    )
    crumbs = el("nav", _a(f"{root}index.html", "← all lines"), class_="crumbs")
    body = join((crumbs, now, periods))
    heading = el("span", f"{scenario.leg} · {scenario.scenario}")
    title, source = (
        f"{scenario.scenario}: tiercheck dashboard",
        site(f"{root}api/v1/scenarios.json"),
    )
    return str(page(title, heading, meta, body, css=_CSS, data=source))
