"""The drill-down pages (pure): the grid per status, the grid as of a night, two lines compared.

Self-contained like every dashboard page (inline styles, no script, relative links), composed
with the HTML kit, which escapes every string. A status view shows the grid's own tables
(`grid_html.grid_tables`), rows filtered. A night's grid is the grid's tables as that night's
runs left them, written leaner than `grid.html` (no id per cell: a year of nights is a year of
these pages): a cell's markup depends only on the cell, so it is made once for every night
that shows it, and a row's only on its scenario and its cells, so a night's row of the very
cells of a row made before is that row (`NightGridPages`). A comparison shows, per revision ×
leg, the rows where two lines' cells differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from tiercheck.dashboard.build import scenario_slug
from tiercheck.dashboard.grid import Grid, GridCell, GridRow, GridTable
from tiercheck.dashboard.grid_html import GRID_CSS, foot_row, grid_tables, state_html
from tiercheck.dashboard.nightdiff import NIGHTS_PAGE, night_page
from tiercheck.dashboard.triage import Triage
from tiercheck.dashboard.views import STATUSES, ComparedTable, Comparison, Status, status_page
from tiercheck.render.element import fragment, site
from tiercheck.render.html import Css, Html, a, el, join, page, scroll_region

__all__ = ["NightGridPages", "render_comparison", "render_status", "status_links"]

_CSS = Css("""
table.pair td { white-space: nowrap; font-size: 12px; }
ul.views li { margin: 3px 0; }
""")

_ABOUT: dict[Status, str] = {
    "failing": "the scenarios a line's latest run fails",
    "flaky": "the scenarios whose verdict a line's history found changing between runs of one "
    "commit and configuration (flaky)",
    "disputed": "the scenarios whose dispute a line's latest run recorded open",
    "triaged": "the failures the triage file links to the issue that tracks them",
}


def _a(href: str, text: str) -> Html:
    return a(text, site(href))


def _link(href: str | None, text: Html | str) -> Html:
    """`text` linked to `href` (its anchor dropped when the anchor is no plain name)."""
    if href is None:
        return Html.escape(text)
    target = site(href) or site(href.partition("#")[0])
    return a(text, target) if target else Html.escape(text)


def _crumbs(root: str, *more: Html) -> Html:
    parts = [
        _a(f"{root}index.html", "← all lines"),
        _a(f"{root}grid.html", "cross-SDK grid"),
        *more,
    ]
    return el("nav", join(parts, " · "), class_="crumbs")


def status_links(root: str = "") -> list[tuple[str, str]]:
    """(path, text) of each status view, for the pages that link them."""
    return [(f"{root}{status_page(s)}", f"only {s}") for s in STATUSES]


# --- per status -----------------------------------------------------------------------------


def render_status(
    grid: Grid,
    status: Status,
    cells: int,
    *,
    triage: Triage,
    flaky: Sequence[tuple[str, str, str, str, int]] = (),
) -> str:
    """`grid-<status>.html`: `grid` as `views.status_grid` left it (the rows with a cell in
    `status`, `cells` of them); for the flaky view, `flaky` names each (line, revision, leg,
    scenario, flips)."""
    others = [_a(path, text) for path, text in status_links() if path != status_page(status)]
    rows = sum(len(t.rows) for t in grid.tables)
    intro = el(
        "p",
        f"The grid's rows with a cell {status}: {_ABOUT[status]}. Each cell is the line's "
        "latest run, as on the grid (the counts under each table are of the whole frozen set); "
        "nothing here is scored again.",
        class_="msg",
    )
    parts: list[Html] = [_crumbs("", *others), intro]
    if not grid.tables:
        parts.append(el("p", f"No scenario is {status}.", id="none"))
    else:
        parts.append(grid_tables(grid, triage))
    if flaky:
        items = [
            el("li", f"{line}: {revision} {leg} ", el("code", scenario), f", {flips} flip(s)")
            for line, revision, leg, scenario, flips in flaky
        ]
        parts += [el("h2", "Flaky, by line"), el("ul", *items, class_="views", id="flaky")]
    body = join(parts, "\n")
    meta = f"{rows} scenario row(s) · {cells} cell(s) {status}"
    title = f"Cross-SDK grid, {status}"
    return str(page(f"{title}: tiercheck dashboard", el("span", title), meta, body, css=GRID_CSS))


# --- the grid as of a night -----------------------------------------------------------------


class NightGridPages:
    """Renders `nights/<night>/grid.html` pages, each cell's markup made once over them all."""

    _ROOT = "../../"

    def __init__(self) -> None:
        # A cell's markup, by the cell (kept here, so its id names no other): the nights'
        # grids share most of their cells, as `timegrid` makes a cell again only on a change.
        self._cells: dict[int, tuple[GridCell, Html]] = {}
        self._heads: dict[tuple[str, str, str, str | None], tuple[Html, str]] = {}
        self._counts: dict[tuple[int, int], Html] = {}
        # A row's markup, by its header and the cells it is made of (kept here, so their ids
        # name no others): most of a night's rows are the night before's, cell for cell.
        self._rows: dict[tuple[object, ...], tuple[tuple[GridCell, ...], Html]] = {}

    def _cell(self, cell: GridCell) -> Html:
        found = self._cells.get(id(cell))
        if found is not None and found[0] is cell:
            return found[1]
        words = state_html(cell.state)
        if cell.page:
            words = _link(self._ROOT + cell.page, words)
        quiet = cell.state in ("pass", "not-run")
        since = f" since {cell.since[:10]}" if cell.since else ""
        when = el("span", since, class_="vh" if quiet else "msg") if since else ""
        disputed = join((" ", el("strong", "(disputed)"))) if cell.disputed else ""
        made = el("td", words, disputed, when, class_=f"s-{cell.state}")
        self._cells[id(cell)] = (cell, made)
        return made

    def _head(self, table: GridTable, row: GridRow) -> tuple[Html, str]:
        """A row's header (the scenario, linked to its page) and the row's id."""
        key = (table.revision, table.leg, row.scenario, row.page)
        found = self._heads.get(key)
        if found is None:
            label = _link(self._ROOT + row.page if row.page else None, row.scenario)
            ident = f"g-{table.revision}-{scenario_slug(table.leg, row.scenario)}"
            found = (el("th", el("code", label), scope="row"), ident)
            self._heads[key] = found
        return found

    def _count(self, passes: int, lines: int) -> Html:
        key = (passes, lines)
        found = self._counts.get(key)
        if found is None:
            found = el("td", f"passes in {passes} of {lines} line(s)", class_="count")
            self._counts[key] = found
        return found

    def _row(self, table: GridTable, row: GridRow) -> Html:
        """A scenario's row, made of the markup of its header and cells (each made once); a
        row of the very cells of one made before is that row's markup."""
        key = (
            table.revision,
            table.leg,
            row.scenario,
            row.page,
            row.passes,
            len(table.columns),
            *(id(c) for c in row.cells),
        )
        found = self._rows.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], row.cells, strict=True)):
            return found[1]
        head, ident = self._head(table, row)
        made = el(
            "tr",
            head,
            join(self._cell(c) for c in row.cells),
            self._count(row.passes, len(table.columns)),
            id=ident,
        )
        self._rows[key] = (row.cells, made)
        return made

    def _table(self, grid: Grid, table: GridTable, night: str) -> Html:
        key = f"{table.revision}-{table.leg}"
        head = el(
            "tr",
            el("th", "Scenario", scope="col"),
            *(el("th", _a(self._ROOT + c.page, c.line), scope="col") for c in table.columns),
            el("th", "Passes in", scope="col"),
        )
        groups = []
        for name in grid.categories:
            rows = [r for r in table.rows if r.category == name]
            if rows:
                title = el(
                    "th", f"{name} ({len(rows)})", scope="rowgroup", colspan=len(table.columns) + 2
                )
                body = join(self._row(table, r) for r in rows)
                groups.append(el("tbody", el("tr", title), body))
        foot = foot_row(table, ids=False)
        caption = el(
            "caption",
            f"{table.revision} {table.leg}: the {table.scored} scored scenarios of the frozen "
            f"set × {len(table.columns)} SDK line(s), each line's latest run by the end of {night}",
        )
        outside = (
            el(
                "p",
                "Also scored by a line's latest run, outside this frozen set (not counted): ",
                join((el("code", s) for s in table.outside), ", "),
                class_="msg",
            )
            if table.outside
            else ""
        )
        return join(
            (
                el("h2", f"{table.revision} · {table.leg}", id=f"g-{key}"),
                scroll_region(
                    el(
                        "table",
                        caption,
                        el("thead", head),
                        *groups,
                        el("tfoot", foot),
                        class_="grid",
                        id=f"grid-{key}",
                    ),
                    f"{table.revision} {table.leg} grid",
                ),
                outside,
            )
        )

    def render(self, grid: Grid, night: str, previous: str | None) -> str:
        """The grid as of `night` (`timegrid.NightGrids.grid`); `previous` is the night before
        it on which a line ran (its page never changes, so neither does this one's link)."""
        root = self._ROOT
        crumbs = [
            _a(f"{root}{night_page(night)}", f"night {night} against the night before"),
            _a(f"{root}{NIGHTS_PAGE}", "all nights"),
        ]
        if previous:
            crumbs.append(_a(f"../{previous}/grid.html", f"← the grid as of {previous}"))
        toc = el(
            "ul",
            *(
                el("li", a(f"{t.revision} {t.leg}", fragment(f"g-{t.revision}-{t.leg}")))
                for t in grid.tables
            ),
        )
        legend = el(
            "p",
            f"The cross-SDK grid as it was published on {night}: each cell is the line's latest "
            f"run by the end of {night} (UTC), read from the verdicts the runs recorded and never "
            "scored again; later nights do not change this page. ✓ pass, ✗ fail (linked to the "
            "scenario's page), ? unmeasured (no verdict), ○ not scored, – not run; “disputed” "
            "marks a dispute the run recorded open. Since: the first run of the stretch. The "
            "triage links are the live grid's.",
            class_="msg",
        )
        tables = [self._table(grid, t, night) for t in grid.tables]
        body = join((_crumbs(root, *crumbs), legend, toc, *tables), "\n")
        meta = f"{len(grid.lines)} SDK line(s) · {len(grid.tables)} revision × leg table(s)"
        title = f"Cross-SDK grid as of {night}"
        return str(
            page(f"{title}: tiercheck dashboard", el("span", title), meta, body, css=GRID_CSS)
        )


# --- two lines ------------------------------------------------------------------------------


def _pair_cell(cell: GridCell, root: str) -> Html:
    words = state_html(cell.state)
    if cell.page:
        words = _link(root + cell.page, words)
    since = el("span", f" since {cell.since[:10]}", class_="msg") if cell.since else ""
    disputed = join((" ", el("strong", "(disputed)"))) if cell.disputed else ""
    return el("td", words, disputed, since, class_=f"s-{cell.state}")


def render_comparison(compared: Comparison, pages: tuple[str, str]) -> str:
    """`compare/<a>/<b>.html`: where two lines' latest runs differ, per revision × leg;
    `pages` are the two lines' pages (from the site's root)."""
    root = "../../"
    a_page, b_page = pages
    parts: list[Html] = [
        _crumbs(root, _a(f"{root}{a_page}", compared.a), _a(f"{root}{b_page}", compared.b)),
        el(
            "p",
            "The rows of the cross-SDK grid where the two lines' latest runs differ (in state, "
            "or in a dispute recorded open), per revision and leg; the grid's cells, never "
            "scored again. A revision × leg neither line has a verdict in is left out.",
            class_="msg",
        ),
    ]
    if not compared.tables:
        parts.append(el("p", "Neither line has a verdict in any table of the grid.", id="none"))
    for t in compared.tables:
        parts.extend(_compared_table(compared, t, root))
    body = join(parts, "\n")
    meta = f"{compared.differ} scenario row(s) differ"
    title = el("span", f"{compared.a} and {compared.b}")
    css = Css(GRID_CSS.text + _CSS.text)
    head = f"{compared.a} and {compared.b}: tiercheck dashboard"
    return str(page(head, title, meta, body, css=css))


def _compared_table(compared: Comparison, t: ComparedTable, root: str) -> list[Html]:
    """One revision × leg of two lines compared: its heading, its counts, and the rows where
    they differ (none when they differ nowhere)."""
    parts: list[Html] = []
    key = f"{t.table.revision}-{t.table.leg}"
    i, j = t.columns
    ca, cb = t.table.columns[i], t.table.columns[j]
    parts.append(el("h2", f"{t.table.revision} · {t.table.leg}", id=f"c-{key}"))
    parts.append(
        el(
            "p",
            f"Same in {t.same} of {len(t.table.rows)} scenario(s), different in "
            f"{len(t.differ)}. Passes: {compared.a} {ca.passes}, {compared.b} {cb.passes} "
            f"of {t.table.scored}.",
            id=f"c-{key}-counts",
        )
    )
    if not t.differ:
        return parts
    rows = [
        el(
            "tr",
            el(
                "th",
                el("code", _link(root + r.page if r.page else None, r.scenario)),
                scope="row",
            ),
            _pair_cell(r.cells[i], root),
            _pair_cell(r.cells[j], root),
            id=f"c-{t.table.revision}-{scenario_slug(t.table.leg, r.scenario)}",
        )
        for r in t.differ
    ]
    parts.append(
        scroll_region(
            el(
                "table",
                el("caption", f"{t.table.revision} {t.table.leg}: where they differ"),
                el(
                    "thead",
                    el(
                        "tr",
                        el("th", "Scenario", scope="col"),
                        el("th", compared.a, scope="col"),
                        el("th", compared.b, scope="col"),
                    ),
                ),
                el("tbody", *rows),
                class_="grid pair",
                id=f"compare-{key}",
            ),
            f"{t.table.revision} {t.table.leg}: where they differ",
        )
    )
    return parts
