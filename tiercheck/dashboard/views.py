"""The grid's drill-down views (pure): per status, as of each night, and two lines side by side.

Every view reads what the grid (`grid.Grid`) and the line histories already hold — the states
the runs recorded, the disputes they recorded, the flaky scenarios the history found, the
triage file's links — and decides nothing again:

* a *status view* (`grid-<status>.html`) is the grid's tables with only the rows that have a
  cell in that status: ``failing`` (a line fails it), ``flaky`` (a line's history found it
  flaky, `LineHistory.flaky`), ``disputed`` (a line's latest run recorded its dispute open),
  ``triaged`` (a failing cell the triage file links to an issue);
* a *night's grid* (`timegrid`, `nights/<night>/grid.html`);
* a *comparison* (`compare/<a>/<b>.html`) of two lines: for each revision × leg, the rows
  where their cells differ. Static pages cannot take a choice, so each pair has its page, and
  the pairs are bounded (`compare_pairs`): two lines of one series (two branch series, or two
  stable series), or the two series of one SDK — never a branch against another SDK's stable
  release, which mixes two questions. n lines of one series make n(n-1)/2 pages, each holding
  only the rows that differ.

`api/v1/views.json` (`ViewIndex`) lists every such page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

from tiercheck.dashboard.grid import Grid, GridCell, GridRow, GridTable
from tiercheck.dashboard.model import API_VERSION, LineHistory
from tiercheck.dashboard.triage import Triage
from tiercheck.history.datafile import line_slug
from tiercheck.model import doc_field
from tiercheck.target import STABLE_REF

__all__ = [
    "COMPARE_RULE",
    "STATUSES",
    "CompareEntry",
    "ComparedTable",
    "Comparison",
    "NightGridEntry",
    "Status",
    "StatusEntry",
    "ViewIndex",
    "column_text",
    "compare_links",
    "compare_page",
    "compare_pairs",
    "comparison",
    "status_grid",
    "status_page",
    "view_index",
]

Status = Literal["failing", "flaky", "disputed", "triaged"]
#: The status views, in the order pages list them.
STATUSES: tuple[Status, ...] = ("failing", "flaky", "disputed", "triaged")
COMPARE_RULE = (
    "a page for each pair of lines of one series (two branch series, or two stable series) "
    "and for the two series of one SDK; each holds the rows where the two lines' cells differ"
)


def status_page(status: Status) -> str:
    """A status view's page in the site."""
    return f"grid-{status}.html"


def compare_page(a: str, b: str) -> str:
    """The page comparing lines `a` and `b` (in either order: one page a pair)."""
    first, second = sorted((a, b))
    return f"compare/{line_slug(first)}/{line_slug(second)}.html"


@dataclass(frozen=True, kw_only=True)
class StatusEntry:
    """One status view."""

    status: str = doc_field(doc="failing, flaky, disputed or triaged")
    page: str
    rows: int = doc_field(doc="scenario rows (revision × leg × scenario) it lists")
    cells: int = doc_field(doc="cells (line × scenario row) in that status")


@dataclass(frozen=True, kw_only=True)
class NightGridEntry:
    """The grid as of one night."""

    night: str
    page: str


@dataclass(frozen=True, kw_only=True)
class CompareEntry:
    """The page comparing two lines."""

    a: str = doc_field(doc="the first line, by name (the pair in name order)")
    b: str
    page: str
    differ: int = doc_field(doc="scenario rows where their cells differ")


@dataclass(frozen=True, kw_only=True)
class ViewIndex:
    """Every drill-down page of the site (`api/v1/views.json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-views")

    api_version: int
    statuses: tuple[StatusEntry, ...] = doc_field(doc="the grid per status")
    nights: tuple[NightGridEntry, ...] = doc_field(doc="the grid as of each night, newest first")
    compare_rule: str = doc_field(doc="which pairs of lines have a comparison page")
    compare: tuple[CompareEntry, ...]


# --- per status -----------------------------------------------------------------------------


def _flaky(histories: Iterable[LineHistory]) -> set[tuple[str, str, str, str]]:
    """(line, revision, leg, scenario) of every flaky scenario the lines' histories found."""
    return {(h.line, f.revision, f.leg, f.scenario) for h in histories for f in h.flaky}


def _matches(
    status: Status,
    table: GridTable,
    row: GridRow,
    *,
    flaky: set[tuple[str, str, str, str]],
    triage: Triage,
) -> list[GridCell]:
    """The cells of `row` in `status`."""
    if status == "failing":
        return [c for c in row.cells if c.state == "fail"]
    if status == "disputed":
        return [c for c in row.cells if c.disputed]
    if status == "flaky":
        return [c for c in row.cells if (c.line, table.revision, table.leg, row.scenario) in flaky]
    return [
        c
        for c in row.cells
        if c.state == "fail"
        and triage.lookup(c.line, table.revision, table.leg, row.scenario) is not None
    ]


def status_grid(
    grid: Grid, status: Status, histories: Iterable[LineHistory], triage: Triage
) -> tuple[Grid, int]:
    """`grid` with only the rows that have a cell in `status` (tables left without a row are
    left out; each table's columns and counts stay the whole set's), and how many cells are."""
    flaky = _flaky(histories) if status == "flaky" else set()
    tables: list[GridTable] = []
    cells = 0
    for table in grid.tables:
        rows = []
        for row in table.rows:
            found = _matches(status, table, row, flaky=flaky, triage=triage)
            if found:
                rows.append(row)
                cells += len(found)
        if rows:
            tables.append(replace(table, rows=tuple(rows)))
    return replace(grid, tables=tuple(tables)), cells


# --- two lines ------------------------------------------------------------------------------


def _sdk(line: str) -> tuple[str, bool]:
    """(the SDK's name, whether `line` is its stable series)."""
    suffix = f"@{STABLE_REF}"
    return (line.removesuffix(suffix), True) if line.endswith(suffix) else (line, False)


def compare_pairs(lines: Iterable[str]) -> list[tuple[str, str]]:
    """The pairs of lines with a comparison page (`COMPARE_RULE`), each in name order, sorted."""
    ordered = sorted(set(lines))
    pairs = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            (sdk_a, stable_a), (sdk_b, stable_b) = _sdk(a), _sdk(b)
            if stable_a == stable_b or sdk_a == sdk_b:
                pairs.append((a, b))
    return pairs


@dataclass(frozen=True)
class ComparedTable:
    """One revision × leg of two lines: their columns and the rows where their cells differ."""

    table: GridTable
    columns: tuple[int, int]
    differ: tuple[GridRow, ...]
    same: int


@dataclass(frozen=True)
class Comparison:
    """Two lines side by side (`compare/<a>/<b>.html`)."""

    a: str
    b: str
    tables: tuple[ComparedTable, ...]

    @property
    def differ(self) -> int:
        """Scenario rows where the two differ, over every table."""
        return sum(len(t.differ) for t in self.tables)


def _said(cell: GridCell) -> tuple[str, bool]:
    return (cell.state, cell.disputed)


def comparison(grid: Grid, a: str, b: str) -> Comparison:
    """Lines `a` and `b` (in name order) across every table of `grid` where one of them has
    a verdict or an unmeasured leg: the rows where their states (or disputes) differ."""
    first, second = sorted((a, b))
    tables = []
    for table in grid.tables:
        names = [c.line for c in table.columns]
        i, j = names.index(first), names.index(second)
        idle = all(r.cells[k].state == "not-run" for r in table.rows for k in (i, j))
        if idle:
            continue
        differ = tuple(r for r in table.rows if _said(r.cells[i]) != _said(r.cells[j]))
        tables.append(ComparedTable(table, (i, j), differ, len(table.rows) - len(differ)))
    return Comparison(first, second, tuple(tables))


def column_text(grid: Grid, line: str) -> str:
    """A text of everything `grid` says of `line` (its column of every table): a comparison's
    page is made again only when one of its lines' texts changes."""
    said = []
    for table in grid.tables:
        j = [c.line for c in table.columns].index(line)
        said.append([table.revision, table.leg, table.columns[j].passes, table.columns[j].fails])
        said += [
            [
                r.scenario,
                r.page,
                r.cells[j].state,
                r.cells[j].disputed,
                r.cells[j].since,
                r.cells[j].page,
            ]
            for r in table.rows
        ]
    return json.dumps(said, ensure_ascii=False)


def compare_links(line: str, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(the other line, the comparison's page) of each of `pairs` that `line` is in."""
    return [(b if a == line else a, compare_page(a, b)) for a, b in pairs if line in (a, b)]


def view_index(
    statuses: Sequence[StatusEntry],
    nights: Sequence[str],
    night_page: Mapping[str, str],
    compared: Sequence[Comparison],
) -> ViewIndex:
    """The list of every drill-down page."""
    return ViewIndex(
        api_version=API_VERSION,
        statuses=tuple(statuses),
        nights=tuple(NightGridEntry(night=n, page=night_page[n]) for n in reversed(nights)),
        compare_rule=COMPARE_RULE,
        compare=tuple(
            CompareEntry(a=c.a, b=c.b, page=compare_page(c.a, c.b), differ=c.differ)
            for c in compared
        ),
    )
