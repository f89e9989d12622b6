"""The cross-SDK grid (pure): every scored scenario of a revision's frozen set × every SDK line.

`api/v1/grid.json` (`Grid`) holds one table per revision × leg. Its rows are the scored
scenarios of the revision's frozen requirement set as this tiercheck ships it — every one of
them, whether or not a line ran it — so a table's denominator is fixed for the set and a count
("passes in 2 of 3 lines", "passes 28 of 30") means the same on every night. Its columns are
every SDK line of the site (a line's stable series, `NAME@stable`, is a line of its own).

A cell is the line's latest run's word on the scenario:

* ``pass`` / ``fail`` — the leg was measured and the scenario scored (passed / failed);
* ``unmeasured`` — the leg was tried and not (wholly) measured: no verdict, never a failure;
* ``not-scored`` — the run reported it but its requirement set does not count it;
* ``not-run`` — no verdict at all: the leg was skipped or not planned at this revision, or the
  run did not list the scenario.

``disputed`` is said beside the state, not instead of it: the line's latest run recorded the
scenario's dispute open on its governance day (`ScenarioRow.dispute`, as its scorecard judged
it: SEP-1730 leaves it out of the score while it lasts; the official reading does not). The
grid reads what the run recorded, never the disputes file of the day it is published.

`since` is the time of the first run of the line's current stretch in that state; for a verdict
(pass, fail, not scored, not run), a night the leg was unmeasured bridges the stretch, as in
streaks, and an unmeasured stretch is dated from its own first run.

The frozen sets carry no category, so a row's category is derived from its scenario's name
(`category`): the family its first word names, with `sep-NNNN-` dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from tiercheck.comparison import leg_measured, leg_unmeasured
from tiercheck.dashboard.model import API_VERSION
from tiercheck.history.datafile import line_slug
from tiercheck.history.record import RunRecord, ScenarioRow, line_of, run_key
from tiercheck.history.section import stamp
from tiercheck.model import doc_field

__all__ = [
    "CATEGORIES",
    "CATEGORY_RULE",
    "CellFound",
    "Grid",
    "GridCell",
    "GridColumn",
    "GridRow",
    "GridState",
    "GridTable",
    "build_grid",
    "category",
    "grid_cell",
    "grid_keys",
    "line_cells",
    "line_grid_cells",
    "runs_by_line",
]

GridState = Literal["pass", "fail", "unmeasured", "not-scored", "not-run"]

#: The categories, in the order the grid lists them.
CATEGORIES = (
    "core",
    "tools",
    "resources",
    "prompts",
    "elicitation",
    "input-required",
    "utilities",
    "auth",
)
_FAMILY = {
    "tools": "tools",
    "tool": "tools",
    "resources": "resources",
    "resource": "resources",
    "prompts": "prompts",
    "prompt": "prompts",
    "elicitation": "elicitation",
    "input": "input-required",
    "logging": "utilities",
    "completion": "utilities",
    "auth": "auth",
}
CATEGORY_RULE = (
    "derived from the scenario's name (the frozen sets carry no category): its first word, "
    "with a leading sep-NNNN- dropped — tools, resources, prompts, elicitation, input "
    "(input-required), logging and completion (utilities), auth; any other is core"
)
_SEP = re.compile(r"^sep-[0-9]+-")


def category(scenario: str) -> str:
    """The category of a scenario, from its name: `tools-call-image` → tools,
    `auth/scope-step-up` → auth, `sep-2164-resource-not-found` → resources, `ping` → core."""
    first = re.split(r"[-_/]", _SEP.sub("", scenario), maxsplit=1)[0]
    return _FAMILY.get(first, "core")


@dataclass(frozen=True, kw_only=True)
class GridCell:
    """One scenario in one line's latest run."""

    line: str
    state: GridState = doc_field(
        doc="pass, fail (measured and scored), unmeasured (the leg was not measured), "
        "not-scored (reported, not counted), not-run (no verdict: the leg was skipped or not "
        "planned, or the run did not list the scenario)"
    )
    disputed: bool = doc_field(
        doc="the line's latest run recorded its dispute open that day (SEP-1730 leaves it out of "
        "the score while it lasts)"
    )
    since: str | None = doc_field(
        doc="time of the first run of the current stretch in this state (unmeasured nights "
        "bridge a verdict's stretch); null when the line has no run"
    )
    since_run: str | None
    check: str | None = doc_field(doc="fail: the first failing check")
    message: str | None = doc_field(doc="fail: its message")
    page: str | None = doc_field(
        doc="fail: where the message is shown (the scenario's page, at the line's row)"
    )


@dataclass(frozen=True, kw_only=True)
class GridRow:
    """One scored scenario of the frozen set across every line."""

    scenario: str
    category: str
    page: str | None = doc_field(doc="the scenario's page, when the site has one")
    passes: int = doc_field(doc="lines whose cell is pass")
    fails: int = doc_field(doc="lines whose cell is fail")
    cells: tuple[GridCell, ...] = doc_field(doc="one per line, in the columns' order")


@dataclass(frozen=True, kw_only=True)
class GridColumn:
    """One SDK line's column: its latest run and its counts over the table's rows."""

    line: str
    slug: str
    page: str = doc_field(doc="the line's page")
    night: str | None = doc_field(doc="its latest run's UTC date")
    passes: int = doc_field(doc="rows whose cell is pass (of the table's `scored`)")
    fails: int
    unmeasured: int
    not_run: int = doc_field(doc="rows with no verdict (not-run or not-scored)")


@dataclass(frozen=True, kw_only=True)
class GridTable:
    """One revision × leg."""

    revision: str
    leg: str
    scored: int = doc_field(doc="scored scenarios of the frozen set: every count's denominator")
    columns: tuple[GridColumn, ...]
    rows: tuple[GridRow, ...] = doc_field(doc="the frozen set's scored scenarios, by category")
    outside: tuple[str, ...] = doc_field(
        doc="scenarios a line's latest run scored that the frozen set does not (not rows)"
    )


@dataclass(frozen=True, kw_only=True)
class Grid:
    """The cross-SDK grid (`api/v1/grid.json`)."""

    json_tag: ClassVar[tuple[str, str]] = ("format", "tiercheck-dashboard-grid")

    api_version: int
    categories: tuple[str, ...] = doc_field(doc="every category, in the order rows are listed")
    category_rule: str = doc_field(doc="how a scenario's category is found")
    lines: tuple[str, ...] = doc_field(doc="every line (the columns), by name")
    tables: tuple[GridTable, ...] = doc_field(doc="one per revision × leg of a frozen set")


def runs_by_line(runs: Iterable[RunRecord]) -> dict[str, list[RunRecord]]:
    """Every line's runs, oldest first (the order the dashboard reads them in)."""
    by_line: dict[str, list[RunRecord]] = {}
    for run in sorted(runs, key=lambda r: (r.timestamp, r.run_id, run_key(r))):
        by_line.setdefault(line_of(run), []).append(run)
    return dict(sorted(by_line.items()))


_Key = tuple[str, str, str]


def _state(
    legs: Mapping[tuple[str, str], str], key: _Key, rows: Mapping[_Key, ScenarioRow]
) -> tuple[GridState, ScenarioRow | None]:
    leg = legs.get(key[:2])
    if leg is None or not (leg_measured(leg) or leg_unmeasured(leg)):
        return "not-run", None
    if leg_unmeasured(leg):
        return "unmeasured", None
    row = rows.get(key)
    if row is None:
        return "not-run", None
    if row.unmeasured:
        return "unmeasured", None
    if not row.scored:
        return "not-scored", row
    return ("pass" if row.passed else "fail"), row


@dataclass
class _Track:
    """One key's current stretch while a line's runs are read in order, and what its cell
    showed after the last run (`_Shown`)."""

    verdict: GridState | None = None
    verdict_since: RunRecord | None = None
    unmeasured_since: RunRecord | None = None
    shown: _Shown | None = None


#: What a cell shows: its state, the first run of its stretch, whether disputed, and a
#: failure's check and message.
_Shown = tuple[GridState, RunRecord | None, bool, tuple[str | None, str | None] | None]
#: A key's state as of a run: its state, the first run of its stretch, the run's row.
CellFound = tuple[GridState, RunRecord | None, ScenarioRow | None]


def line_cells(
    runs: Sequence[RunRecord], keys: Sequence[_Key]
) -> Iterator[tuple[RunRecord, dict[_Key, CellFound]]]:
    """After each of a line's runs (oldest first): that run, and each key (revision, leg,
    scenario) whose cell changed with it — its state, the first run of its stretch, its
    dispute, a failure's check and message — → (state, the first run of its stretch, the
    run's row), as the grid of the runs up to it reads them (after the first run: every key).
    A key's cell after a run is the one its last change gave."""
    tracks = {key: _Track() for key in keys}
    for run in runs:
        rows = {(s.revision, s.leg, s.scenario): s for s in run.scenarios}
        legs = {(x.revision, x.leg): x.state for x in run.legs}
        changed: dict[_Key, CellFound] = {}
        for key, track in tracks.items():
            state, row = _state(legs, key, rows)
            if state == "unmeasured":
                if track.unmeasured_since is None:
                    track.unmeasured_since = run
            else:
                track.unmeasured_since = None
                if state != track.verdict:
                    track.verdict, track.verdict_since = state, run
            since = track.unmeasured_since if state == "unmeasured" else track.verdict_since
            disputed = row is not None and row.disputed
            said = (row.check, row.message) if state == "fail" and row is not None else None
            shown = track.shown
            if (
                shown is None
                or shown[0] != state
                or shown[1] is not since
                or shown[2] != disputed
                or shown[3] != said
            ):
                track.shown = (state, since, disputed, said)
                changed[key] = (state, since, row)
        yield run, changed


def _cells(line: str, runs: Sequence[RunRecord], keys: Sequence[_Key]) -> dict[_Key, CellFound]:
    """key → (state, the first run of its stretch, the row of the run that last changed
    its cell) for one line."""
    last: dict[_Key, CellFound] = dict.fromkeys(keys, ("not-run", None, None))
    for _, changed in line_cells(runs, keys):
        last.update(changed)
    return last


def _leg_order(leg: str) -> tuple[bool, str]:
    return (leg != "server", leg)


#: line → (revision, leg, scenario) → its cell.
_Cells = Mapping[str, Mapping[_Key, GridCell]]


def _in_set_order(names: Sequence[str]) -> list[str]:
    """A frozen set's scenarios once each, by category (`CATEGORIES`), in the set's order
    within a category."""
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(dict.fromkeys(names), key=lambda n: order[category(n)])


def grid_cell(
    line: str,
    revision: str,
    found: CellFound,
    page: str | None,
) -> GridCell:
    """A line's cell in a scenario's row; a failure names its check and message and links the
    line's row on the scenario's `page`."""
    state, since, row = found
    failing = state == "fail"
    return GridCell(
        line=line,
        state=state,
        disputed=row is not None and row.disputed,
        since=stamp(since) if since else None,
        since_run=since.run_id if since else None,
        check=row.check if failing and row else None,
        message=row.message if failing and row else None,
        page=f"{page}#now-{line_slug(line)}-{revision}" if failing and page else None,
    )


def _row(key: _Key, lines: Sequence[str], cells: _Cells, page: str | None) -> GridRow:
    """A scenario's row: every line's cell, and how many lines pass and fail it."""
    name = key[2]
    row = tuple(cells[line][key] for line in lines)
    return GridRow(
        scenario=name,
        category=category(name),
        page=page,
        passes=sum(c.state == "pass" for c in row),
        fails=sum(c.state == "fail" for c in row),
        cells=row,
    )


def _column(line: str, runs: Sequence[RunRecord], states: Sequence[GridState]) -> GridColumn:
    """A line's column of a table: its page, its latest night and the count of each of its
    cells' `states` (a scenario not scored counts as not run)."""
    return GridColumn(
        line=line,
        slug=line_slug(line),
        page=f"lines/{line_slug(line)}.html",
        night=runs[-1].timestamp.date().isoformat() if runs else None,
        passes=states.count("pass"),
        fails=states.count("fail"),
        unmeasured=states.count("unmeasured"),
        not_run=states.count("not-run") + states.count("not-scored"),
    )


def _outside(
    by_line: Mapping[str, Sequence[RunRecord]], revision: str, leg: str, in_set: set[str]
) -> tuple[str, ...]:
    """The scenarios a line's latest run scored at `revision` and `leg` that the frozen set
    does not hold, sorted, once each."""
    return tuple(
        sorted(
            {
                s.scenario
                for runs in by_line.values()
                if runs
                for s in runs[-1].scenarios
                if s.revision == revision and s.leg == leg and s.scored and s.scenario not in in_set
            }
        )
    )


def _grid_table(
    revision: str,
    leg: str,
    names: Sequence[str],
    *,
    by_line: Mapping[str, Sequence[RunRecord]],
    cells: _Cells,
    pages: Mapping[tuple[str, str], str],
) -> GridTable:
    """One revision × leg: a row for each scenario of its frozen set (`names`, by category), a
    column for each line, and the scored scenarios outside the set."""
    names = _in_set_order(names)
    lines = sorted(by_line)
    rows = [_row((revision, leg, name), lines, cells, pages.get((leg, name))) for name in names]
    columns = tuple(
        _column(line, by_line[line], [r.cells[j].state for r in rows])
        for j, line in enumerate(lines)
    )
    return GridTable(
        revision=revision,
        leg=leg,
        scored=len(names),
        columns=columns,
        rows=tuple(rows),
        outside=_outside(by_line, revision, leg, set(names)),
    )


def grid_keys(sets: Mapping[str, Mapping[str, Sequence[str]]]) -> list[_Key]:
    """Every (revision, leg, scenario) of the frozen sets `sets`, in the grid's order of reading."""
    return [
        (revision, leg, name)
        for revision in sorted(sets)
        for leg in sorted(sets[revision])
        for name in sets[revision][leg]
    ]


def line_grid_cells(
    line: str, found: Mapping[_Key, CellFound], pages: Mapping[tuple[str, str], str]
) -> dict[_Key, GridCell]:
    """A line's cells (`line_cells`) as the grid shows them; `pages` as `build_grid`'s."""
    return {
        key: grid_cell(line, key[0], cell, pages.get((key[1], key[2])))
        for key, cell in found.items()
    }


def build_grid(
    by_line: Mapping[str, Sequence[RunRecord]],
    sets: Mapping[str, Mapping[str, Sequence[str]]],
    *,
    scenario_pages: Mapping[tuple[str, str], str] | None = None,
    cells: _Cells | None = None,
) -> Grid:
    """The grid of every line's runs (`runs_by_line`) over the frozen sets `sets` (revision →
    leg → its scored scenarios, in the set's order). `scenario_pages` maps (leg, scenario) to
    its page in the site; `cells` are each line's cells after its last run in `by_line`
    (`line_grid_cells`, covering every key of `sets`) when the caller has them already."""
    lines = sorted(by_line)
    pages = scenario_pages or {}
    if cells is None:
        keys = grid_keys(sets)
        cells = {
            line: line_grid_cells(line, _cells(line, by_line[line], keys), pages) for line in lines
        }
    tables = [
        _grid_table(
            revision,
            leg,
            sets[revision][leg],
            by_line=by_line,
            cells=cells,
            pages=pages,
        )
        for revision in sorted(sets)
        for leg in sorted(sets[revision], key=_leg_order)
    ]
    return Grid(
        api_version=API_VERSION,
        categories=CATEGORIES,
        category_rule=CATEGORY_RULE,
        lines=tuple(lines),
        tables=tuple(tables),
    )
