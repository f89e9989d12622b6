"""The grid's and the nights' pages (pure): `grid.html` and `nights/<night>.html`.

Both are self-contained like every dashboard page (inline styles, no script, relative links),
composed with the HTML kit (`tiercheck.render.html`), which escapes every string.

The grid is one table per revision × leg: a caption, a column header per SDK line
(`th scope="col"`), a row header per scenario (`th scope="row"`), the rows grouped by category
in their own `tbody` under a `th scope="rowgroup"`, and a footer row of each line's counts.
A cell says its state in words beside a symbol (colour is never the only signal) and its
since-when as text; a failing cell links to the scenario's page, at the line's row, where the
failing check's message is.

Every table scrolls sideways in a region of its own (`scroll_region`) when the screen is
narrower than it, its row headers (the scenario, the night) held at its left edge as it does,
so a row reads at both ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from tiercheck.dashboard.build import scenario_slug
from tiercheck.dashboard.grid import Grid, GridCell, GridRow, GridTable
from tiercheck.dashboard.nightdiff import (
    KINDS,
    NIGHTS_PAGE,
    DiffEntry,
    LineNightDiff,
    NightDiff,
    NightList,
    night_page,
)
from tiercheck.dashboard.triage import Triage
from tiercheck.history.datafile import line_slug
from tiercheck.render.element import ISSUE_PAGES, fragment, site
from tiercheck.render.html import Css, Html, a, el, github_link, join, page, scroll_region

__all__ = [
    "GRID_CSS",
    "foot_row",
    "grid_tables",
    "render_grid",
    "render_night",
    "render_nights",
    "state_html",
]

_CSS = Css("""
main { max-width: none; }
.vh { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
table.grid { width: auto; }
table.grid caption { text-align: left; font-weight: 600; margin: 4px 0; position: sticky;
  left: 0; max-width: calc(100vw - 24px); }
table.grid td { white-space: nowrap; font-size: 12px; }
table.grid th[scope=rowgroup] { background: #eaeef2; }
table.grid td.count, table.grid tfoot td { font-variant-numeric: tabular-nums; }
td.s-pass { background: #e6f6ea; } td.s-fail { background: #ffebe9; }
td.s-unmeasured { background: #fff8c5; } td.s-not-run, td.s-not-scored { background: #f6f8fa; }
.sym { font-weight: 700; }
nav.crumbs { font-size: 13px; margin: 8px 0 0; }
ul.changes li { margin: 3px 0; }
table.grid th[scope=row], table.grid thead th:first-child { position: sticky; left: 0;
  z-index: 1; box-shadow: 1px 0 0 var(--line); }
table.grid tbody th[scope=row] { white-space: nowrap; }
@media (max-width: 640px) {
  table.grid tbody th[scope=row] { white-space: normal; min-width: 8em; max-width: 11em;
    overflow-wrap: anywhere; }
}
""")

_SYMBOL = {"pass": "✓", "fail": "✗", "unmeasured": "?", "not-scored": "○", "not-run": "–"}
_WORDS = {
    "pass": "pass",
    "fail": "fail",
    "unmeasured": "unmeasured",
    "not-scored": "not scored",
    "not-run": "not run",
}


#: The grid's own styles, for the pages that show its tables.
GRID_CSS = _CSS


def _a(href: str, text: str) -> Html:
    return a(text, site(href))


def _day(stamp: str | None) -> str:
    return stamp[:10] if stamp else "—"


def _state(state: str) -> Html:
    return join((el("span", _SYMBOL[state], class_="sym", aria_hidden="true"), " ", _WORDS[state]))


#: A cell's state as the grid says it: its symbol (hidden from screen readers) and its word.
state_html = _state


def _triaged(triage: Triage, table: GridTable, row: GridRow, cell: GridCell) -> Html:
    """The reviewed issue a failing cell is linked to in the triage file, or nothing."""
    if cell.state != "fail":
        return Html()
    entry = triage.lookup(cell.line, table.revision, table.leg, row.scenario)
    if entry is None:
        return Html()
    return join((" ", github_link(entry.issue_label, entry.issue, kinds=ISSUE_PAGES)))


def _cell(table: GridTable, row: GridRow, cell: GridCell, triage: Triage) -> Html:
    ident = f"g-{table.revision}-{scenario_slug(table.leg, row.scenario)}-{line_slug(cell.line)}"
    words = _state(cell.state)
    if cell.page:
        href = site(cell.page) or site(cell.page.partition("#")[0])
        words = a(words, href)
    since = f" since {_day(cell.since)}" if cell.since else ""
    # A pass or a scenario never run is the quiet case: its date is for screen readers.
    quiet = cell.state in ("pass", "not-run")
    when = el("span", since, class_="vh" if quiet else "msg") if since else ""
    disputed = join((" ", el("strong", "(disputed)"))) if cell.disputed else ""
    issue = _triaged(triage, table, row, cell)
    return el("td", words, disputed, when, issue, class_=f"s-{cell.state}", id=ident)


def _head(table: GridTable) -> Html:
    """The header row: a column per line, linked to its page."""
    return el(
        "tr",
        el("th", "Scenario", scope="col"),
        *(el("th", _a(c.page, c.line), scope="col") for c in table.columns),
        el("th", "Passes in", scope="col"),
    )


def _row(table: GridTable, row: GridRow, triage: Triage) -> Html:
    """A scenario's row: its name (linked to its page), a cell per line and how many pass."""
    ident = f"g-{table.revision}-{scenario_slug(table.leg, row.scenario)}"
    label = _a(row.page, row.scenario) if row.page else Html.escape(row.scenario)
    return el(
        "tr",
        el("th", el("code", label), scope="row"),
        *(_cell(table, row, c, triage) for c in row.cells),
        el(
            "td",
            f"passes in {row.passes} of {len(table.columns)} line(s)",
            class_="count",
            id=f"{ident}-count",
        ),
        id=ident,
    )


def _groups(grid: Grid, table: GridTable, triage: Triage) -> list[Html]:
    """A `tbody` per category that has rows, in the grid's order of categories, under a row
    header naming it and its count."""
    groups = []
    for name in grid.categories:
        rows = [r for r in table.rows if r.category == name]
        if not rows:
            continue
        title = el(
            "tr",
            el("th", f"{name} ({len(rows)})", scope="rowgroup", colspan=len(table.columns) + 2),
        )
        groups.append(el("tbody", title, *(_row(table, row, triage) for row in rows)))
    return groups


def foot_row(table: GridTable, *, ids: bool = True) -> Html:
    """The footer row: each line's passes of the scored scenarios, and its other counts; each
    total with an id of its own unless `ids` is False (the nights' grids, kept lean)."""
    key = f"{table.revision}-{table.leg}"
    return el(
        "tr",
        el("th", "Passes", scope="row"),
        *(
            el(
                "td",
                f"{c.passes} of {table.scored}",
                el(
                    "div",
                    f"{c.fails} fail · {c.unmeasured} unmeasured · {c.not_run} not run",
                    class_="msg",
                ),
                id=f"g-{key}-total-{c.slug}" if ids else None,
            )
            for c in table.columns
        ),
        el("td", ""),
    )


def _outside(table: GridTable) -> Html | str:
    """The note naming what the lines scored outside the frozen set, when there is any."""
    if not table.outside:
        return ""
    return el(
        "p",
        "Also scored by a line's latest run, outside this frozen set (not counted): ",
        join((el("code", s) for s in table.outside), ", "),
        class_="msg",
    )


def _table(grid: Grid, table: GridTable, triage: Triage) -> Html:
    """A revision × leg's heading, table and note of scenarios outside its set."""
    key = f"{table.revision}-{table.leg}"
    caption = el(
        "caption",
        f"{table.revision} {table.leg}: the {table.scored} scored scenarios of the frozen set "
        f"× {len(table.columns)} SDK line(s), each line's latest run",
    )
    return join(
        (
            el("h2", f"{table.revision} · {table.leg}", id=f"g-{key}"),
            scroll_region(
                el(
                    "table",
                    caption,
                    el("thead", _head(table)),
                    *_groups(grid, table, triage),
                    el("tfoot", foot_row(table)),
                    class_="grid",
                    id=f"grid-{key}",
                ),
                f"{table.revision} {table.leg} grid",
            ),
            _outside(table),
        )
    )


def grid_tables(grid: Grid, triage: Triage | None = None) -> Html:
    """The grid's list of tables and its tables (each a heading, the table and its note)."""
    triage = triage or Triage()
    toc = el(
        "ul",
        *(
            el(
                "li",
                a(f"{t.revision} {t.leg}", fragment(f"g-{t.revision}-{t.leg}")),
            )
            for t in grid.tables
        ),
    )
    return join((toc, *(_table(grid, t, triage) for t in grid.tables)), "\n")


def render_grid(
    grid: Grid,
    *,
    night: str | None = None,
    triage: Triage | None = None,
    links: Sequence[tuple[str, str]] = (),
) -> str:
    """`grid.html`: every scored scenario × every line, per revision and leg; a failing cell
    the `triage` file links to an issue shows that link; `links` (path, text) are more pages
    to name beside the index's and the nights' (the views of the grid)."""
    legend = el(
        "p",
        "Each cell is the line's latest run: ✓ pass, ✗ fail (linked to the failing check's "
        "message), ? unmeasured (the leg was not measured: no verdict), ○ not scored, – not run "
        "(the leg was skipped or not planned, or the scenario was not listed); “disputed” marks "
        "a scenario whose reviewed dispute is open. Since: the first run of the current "
        "stretch (an unmeasured night does not break a verdict's). Rows are every scored "
        f"scenario of the revision's frozen set, so each count keeps its denominator. "
        f"Categories are {grid.category_rule}.",
        class_="msg",
    )
    crumbs = [_a("index.html", "← all lines"), _a("api/v1/grid.json", "grid (JSON)")]
    if night:
        crumbs.append(_a(night_page(night), f"night {night} against the night before"))
        crumbs.append(_a(NIGHTS_PAGE, "all nights"))
    crumbs += [_a(path, text) for path, text in links]
    body = join(
        (
            el("nav", join(crumbs, " · "), class_="crumbs"),
            legend,
            grid_tables(grid, triage),
        ),
        "\n",
    )
    meta = f"{len(grid.lines)} SDK line(s) · {len(grid.tables)} revision × leg table(s)"
    heading = el("span", "Cross-SDK grid")
    source = site("api/v1/grid.json")
    return str(
        page("Cross-SDK grid: tiercheck dashboard", heading, meta, body, css=_CSS, data=source)
    )


# --- a night's page -------------------------------------------------------------------------

_KIND_TEXT = {
    "newly_failing": "Newly failing",
    "fixed": "Fixed",
    "newly_unmeasured": "Newly unmeasured",
    "measured_again": "Measured again",
    "added": "Added",
    "removed": "Removed",
    "newly_scored": "Newly scored",
    "no_longer_scored": "No longer scored",
    "newly_disputed": "Newly disputed (left out of SEP-1730's reading)",
    "dispute_resolved": "Dispute resolved (counted again)",
}


def _entry(e: DiffEntry, line: str, root: str) -> Html:
    """One change; the scenario links to its page, at the line's row (where a failure's check
    and message are)."""
    target = f"{root}scenarios/{scenario_slug(e.leg, e.scenario)}.html"
    href = site(f"{target}#now-{line_slug(line)}-{e.revision}") or site(target)
    return el(
        "li",
        f"{e.revision} {e.leg} ",
        el("code", a(e.scenario, href)),
        f": {e.before} → {e.after}",
        el("div", e.message, class_="msg") if e.message else "",
    )


def _line(diff: LineNightDiff, root: str) -> Html:
    parts: list[Html] = [el("h2", _a(root + diff.page, diff.line), id=f"line-{diff.slug}")]
    if diff.previous_night is None:
        parts.append(el("p", "Its first night: nothing to compare with."))
    else:
        parts.append(
            el("p", f"Against its night of {diff.previous_night} (run {diff.previous_run}).")
        )
    if diff.basis_change:
        word = "not compared" if not diff.comparable else "compared across"
        parts.append(
            el(
                "p",
                el("strong", word),
                ": ",
                "; ".join(diff.basis_change),
                " — under another harness no scenario is compared; across other requirement "
                "sets only those scored by both.",
            )
        )
    for kind in KINDS:
        entries: tuple[DiffEntry, ...] = getattr(diff, kind)
        if entries:
            parts.append(el("h3", f"{_KIND_TEXT[kind]} ({len(entries)})"))
            parts.append(
                el(
                    "ul",
                    *(_entry(e, diff.line, root) for e in entries),
                    class_="changes",
                    id=f"{kind.replace('_', '-')}-{diff.slug}",
                )
            )
    for what, legs in (
        ("Legs newly unmeasured", diff.legs_newly_unmeasured),
        ("Legs measured again", diff.legs_measured_again),
    ):
        if legs:
            parts.append(el("h3", f"{what} ({len(legs)})"))
            ident = "legs-unmeasured" if what.endswith("unmeasured") else "legs-again"
            parts.append(
                el(
                    "ul",
                    *(
                        el(
                            "li",
                            f"{x.revision} {x.leg}: {x.before} → {x.after}",
                            el("span", f" {x.reason}", class_="msg") if x.reason else "",
                        )
                        for x in legs
                    ),
                    class_="changes",
                    id=f"{ident}-{diff.slug}",
                )
            )
    if diff.previous_night is not None and not diff.changes:
        said = "Nothing changed." if diff.comparable else "No scenario compared."
        parts.append(el("p", said, id=f"unchanged-{diff.slug}"))
    return el("section", *parts, aria_labelledby=f"line-{diff.slug}")


def render_night(diff: NightDiff) -> str:
    """`nights/<night>.html`: each line's changes since its night before."""
    root = "../"
    crumbs = [
        _a(f"{root}index.html", "← all lines"),
        _a(f"{root}grid.html", "grid"),
        _a(f"{root}{NIGHTS_PAGE}", "all nights"),
    ]
    if diff.previous:
        crumbs.append(_a(f"{diff.previous}.html", f"← {diff.previous}"))
    if diff.next:
        crumbs.append(_a(f"{diff.next}.html", f"{diff.next} →"))
    crumbs.append(_a(f"{diff.night}/grid.html", f"the grid as of {diff.night}"))
    crumbs.append(_a(f"{root}api/v1/nights/{diff.night}.json", "this night (JSON)"))
    absent = (
        el("p", f"No run this night: {', '.join(diff.absent)}.", class_="msg", id="absent")
        if diff.absent
        else ""
    )
    body = join(
        (
            el("nav", join(crumbs, " · "), class_="crumbs"),
            el(
                "p",
                "Each line's latest run of the night against its latest run of the night "
                "before it ran, by the comparison rule every report of tiercheck follows: "
                "a scenario is compared only in legs measured both nights and under one "
                "harness version.",
                class_="msg",
            ),
            absent,
            *(_line(x, root) for x in diff.lines),
        ),
        "\n",
    )
    heading = el("span", f"Night {diff.night}")
    meta = f"{len(diff.lines)} line(s) ran · the night before: {diff.previous or 'none'}"
    title, source = (
        f"Night {diff.night}: tiercheck dashboard",
        site(f"{root}api/v1/nights/{diff.night}.json"),
    )
    return str(page(title, heading, meta, body, css=_CSS, data=source))


def render_nights(listing: NightList) -> str:
    """`nights/index.html`: every night, newest first, with how much changed."""
    root = "../"
    header = (
        "Night",
        "Lines",
        "Newly failing",
        "Fixed",
        "Newly unmeasured",
        "Added",
        "Removed",
        "Not compared",
        "Grid that night",
    )
    rows = [
        el(
            "tr",
            el("th", _a(f"{root}{n.page}", n.night), scope="row"),
            *(
                el("td", value, class_="num")
                for value in (
                    n.lines,
                    n.newly_failing,
                    n.fixed,
                    n.newly_unmeasured,
                    n.added,
                    n.removed,
                    n.incomparable,
                )
            ),
            el("td", _a(f"{n.night}/grid.html", "grid")),
            id=f"night-{n.night}",
        )
        for n in listing.nights
    ]
    table = el(
        "table",
        el("caption", "Every night against the night before, newest first"),
        el("thead", el("tr", *(el("th", h, scope="col") for h in header))),
        el("tbody", *rows),
        class_="grid",
        id="nights",
    )
    crumbs = el(
        "nav",
        join(
            (
                _a(f"{root}index.html", "← all lines"),
                _a(f"{root}grid.html", "grid"),
                _a(f"{root}api/v1/nights.json", "nights (JSON)"),
            ),
            " · ",
        ),
        class_="crumbs",
    )
    body = join((crumbs, scroll_region(table, "Every night")), "\n")
    meta = f"{len(listing.nights)} night(s) · latest {listing.latest or 'none'}"
    heading = el("span", "Night against night")
    source = site(f"{root}api/v1/nights.json")
    return str(page("Nights: tiercheck dashboard", heading, meta, body, css=_CSS, data=source))
