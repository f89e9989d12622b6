"""The grid's drill-down views: the grid as of a night, per status, and two lines compared.

The expected values are worked out by hand from the story of `support.nights` (three lines
running the same small set: alpha's tools-call-image fails on nights 12-14 and its 2025-11-25
server leg is unmeasured on night 20; beta's auth/scope-step-up fails every night and, from
night 25, its ping; gamma is green), never read from tiercheck's output.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence

import pytest

from support.nights import R1, R2, records, thirty_nights, with_disputes
from tiercheck.config.requirements import load_requirement_set
from tiercheck.config.triage import TriageEntry
from tiercheck.dashboard.grid import Grid, build_grid, runs_by_line
from tiercheck.dashboard.timegrid import NightGrids, night_grid_page
from tiercheck.dashboard.triage import Triage
from tiercheck.dashboard.views import (
    compare_links,
    compare_page,
    compare_pairs,
    comparison,
    status_grid,
)
from tiercheck.history.record import RunRecord
from tiercheck.model import to_json
from tiercheck.scorecard.model import HistoryFlaky

IMAGE = "tools-call-image"
STEP_UP = "auth/scope-step-up"
PAGES = {("server", IMAGE): "scenarios/server-tools-call-image.html"}


@functools.cache
def _sets() -> dict[str, dict[str, Sequence[str]]]:
    found = {r: load_requirement_set(r) for r in (R1, R2)}
    return {r: {"server": f.server, "client": f.client} for r, f in found.items()}


def _by_line(nights: int) -> dict[str, list[RunRecord]]:
    return runs_by_line(records(thirty_nights(nights)))


def _cell(grid: Grid, revision: str, leg: str, scenario: str, line: str) -> tuple[str, str | None]:
    table = next(t for t in grid.tables if (t.revision, t.leg) == (revision, leg))
    row = next(r for r in table.rows if r.scenario == scenario)
    cell = next(c for c in row.cells if c.line == line)
    return cell.state, cell.since[:10] if cell.since else None


def _rows(grid: Grid) -> list[tuple[str, str, str]]:
    return [(t.revision, t.leg, r.scenario) for t in grid.tables for r in t.rows]


def test_the_grid_as_of_a_night_is_the_grid_that_night_published() -> None:
    grids = NightGrids(_by_line(30), _sets(), pages=PAGES)
    assert grids.nights == tuple(f"2026-10-{n:02d}" for n in range(1, 31))
    # Hand-worked cells of alpha's tools-call-image (2025-11-25 server) night by night.
    expected = {
        11: ("pass", "2026-10-01"),
        12: ("fail", "2026-10-12"),
        14: ("fail", "2026-10-12"),
        15: ("pass", "2026-10-15"),
        20: ("unmeasured", "2026-10-20"),
        21: ("pass", "2026-10-15"),  # an unmeasured night does not break a verdict's stretch
        30: ("pass", "2026-10-15"),
    }
    for n, cell in expected.items():
        grid = grids.grid(f"2026-10-{n:02d}")
        assert _cell(grid, R1, "server", IMAGE, "alpha-sdk") == cell, n
    # beta's ping fails from night 25 (its new harness), not before.
    assert _cell(grids.grid("2026-10-24"), R1, "server", "ping", "beta-sdk")[0] == "pass"
    assert _cell(grids.grid("2026-10-25"), R1, "server", "ping", "beta-sdk") == (
        "fail",
        "2026-10-25",
    )


@pytest.mark.parametrize("n", [1, 12, 20, 25])
def test_a_nights_grid_is_the_whole_grid_of_the_runs_until_then(n: int) -> None:
    # The same document, field for field, as the grid published the night itself.
    then = build_grid(_by_line(n), _sets(), scenario_pages=PAGES)
    kept = NightGrids(_by_line(30), _sets(), pages=PAGES).grid(f"2026-10-{n:02d}")
    assert to_json(kept) == to_json(then)


def test_later_nights_never_change_a_nights_key() -> None:
    twelve = NightGrids(_by_line(12), _sets(), pages=PAGES)
    thirty = NightGrids(_by_line(30), _sets(), pages=PAGES)
    assert thirty.key("2026-10-12") == twelve.key("2026-10-12")
    assert thirty.key("2026-10-11") == twelve.key("2026-10-11")
    # The control: another night, or another message recorded that night, is another key.
    assert thirty.key("2026-10-13") != twelve.key("2026-10-12")
    runs = _by_line(12)
    last = runs["alpha-sdk"][-1]
    rows = tuple(
        dataclasses.replace(s, message="another message") if not s.passed else s
        for s in last.scenarios
    )
    runs["alpha-sdk"][-1] = dataclasses.replace(last, scenarios=rows)
    edited = NightGrids(runs, _sets(), pages=PAGES)
    assert edited.key("2026-10-12") != twelve.key("2026-10-12")
    assert edited.key("2026-10-11") == twelve.key("2026-10-11")


def test_a_nights_grid_has_only_the_lines_that_had_run_by_then() -> None:
    runs = _by_line(30)
    runs["late-sdk"] = [
        dataclasses.replace(r, sdk="late-sdk") for r in runs["gamma-sdk"] if r.timestamp.day >= 10
    ]
    grids = NightGrids(runs, _sets(), pages=PAGES)
    assert grids.grid("2026-10-09").lines == ("alpha-sdk", "beta-sdk", "gamma-sdk")
    assert grids.grid("2026-10-10").lines == ("alpha-sdk", "beta-sdk", "gamma-sdk", "late-sdk")
    assert night_grid_page("2026-10-10") == "nights/2026-10-10/grid.html"


def _grid(nights: int, docs: Sequence[object] | None = None) -> Grid:
    by_line = runs_by_line(records(docs or thirty_nights(nights)))  # type: ignore[arg-type]
    return build_grid(by_line, _sets(), scenario_pages=PAGES)


def test_the_failing_view_lists_the_rows_a_line_fails() -> None:
    grid, cells = status_grid(_grid(12), "failing", [], Triage())
    assert _rows(grid) == [(R1, "server", IMAGE), (R1, "client", STEP_UP)]
    assert cells == 2
    # Each table keeps its columns and its counts of the whole frozen set (30 scored).
    server = grid.tables[0]
    assert [c.line for c in server.columns] == ["alpha-sdk", "beta-sdk", "gamma-sdk"]
    assert server.scored == 30
    assert status_grid(_grid(30), "failing", [], Triage())[0].tables[0].rows[0].scenario == "ping"


def test_the_disputed_view_reads_the_disputes_the_runs_recorded() -> None:
    # beta's ping recorded disputed (open) from night 25: the only disputed row.
    docs = [
        with_disputes(d, {(R1, "server", "ping"): "open"}) if d.sdk.name == "beta-sdk" else d
        for d in thirty_nights(26)
    ]
    grid, cells = status_grid(_grid(26, docs), "disputed", [], Triage())
    assert _rows(grid) == [(R1, "server", "ping")]
    assert cells == 1
    assert status_grid(_grid(26), "disputed", [], Triage())[0].tables == ()


def test_the_triaged_view_lists_the_failures_the_triage_file_links() -> None:
    issue = "https://github.com/example/alpha-sdk/issues/12"
    entries = [
        TriageEntry("alpha-sdk", IMAGE, None, None, issue, "n", "t.yaml", 0),
        # Linked, but it passes in beta: not triaged there.
        TriageEntry("beta-sdk", IMAGE, None, None, issue, "n", "t.yaml", 1),
    ]
    grid, cells = status_grid(_grid(12), "triaged", [], Triage(entries))
    assert _rows(grid) == [(R1, "server", IMAGE)]
    assert cells == 1
    assert status_grid(_grid(15), "triaged", [], Triage(entries))[0].tables == ()


def test_the_flaky_view_reads_the_histories_flaky_scenarios() -> None:
    @dataclasses.dataclass
    class _History:
        line: str
        flaky: tuple[HistoryFlaky, ...]

    flaky = HistoryFlaky(revision=R2, leg="server", scenario="tools-list", commit=None, flips=3)
    histories = [_History("gamma-sdk", (flaky,)), _History("beta-sdk", ())]
    grid, cells = status_grid(_grid(12), "flaky", histories, Triage())  # type: ignore[arg-type]
    assert _rows(grid) == [(R2, "server", "tools-list")]
    assert cells == 1


def test_compare_pairs_one_series_or_one_sdk() -> None:
    lines = ["b", "a", "a@stable", "c@stable", "d@stable"]
    assert compare_pairs(lines) == [
        ("a", "a@stable"),  # one SDK's two series
        ("a", "b"),  # two branch series
        ("a@stable", "c@stable"),
        ("a@stable", "d@stable"),
        ("c@stable", "d@stable"),
    ]
    # Never a branch against another SDK's stable release.
    assert ("b", "a@stable") not in compare_pairs(lines)
    assert compare_pairs(["only"]) == []
    assert compare_page("b", "a") == compare_page("a", "b") == "compare/a/b.html"
    assert compare_links("a", compare_pairs(lines)) == [
        ("a@stable", compare_page("a", "a@stable")),
        ("b", "compare/a/b.html"),
    ]


@pytest.mark.parametrize(
    ("nights", "differ"),
    [
        # Night 12: alpha fails tools-call-image, beta passes it; beta fails step-up.
        (12, {(R1, "server"): [IMAGE], (R1, "client"): [STEP_UP]}),
        (15, {(R1, "server"): [], (R1, "client"): [STEP_UP]}),
        # Night 30: beta fails ping too (its new harness).
        (30, {(R1, "server"): ["ping"], (R1, "client"): [STEP_UP]}),
    ],
)
def test_two_lines_compared_where_they_differ(
    nights: int, differ: Mapping[tuple[str, str], list[str]]
) -> None:
    found = comparison(_grid(nights), "beta-sdk", "alpha-sdk")
    assert (found.a, found.b) == ("alpha-sdk", "beta-sdk")
    got = {(t.table.revision, t.table.leg): [r.scenario for r in t.differ] for t in found.tables}
    # Both run both revisions: four tables, the 2026-07-28 ones the same.
    assert got == {(R2, "server"): [], (R2, "client"): [], **differ}
    server = next(t for t in found.tables if (t.table.revision, t.table.leg) == (R1, "server"))
    assert server.same + len(server.differ) == 30


def test_an_unmeasured_leg_differs_from_every_verdict() -> None:
    # Night 20: alpha's 2025-11-25 server leg unmeasured: all 30 rows of the set are
    # unmeasured in its column; beta has 4 passes and 26 not run there.
    found = comparison(_grid(20), "alpha-sdk", "beta-sdk")
    server = next(t for t in found.tables if (t.table.revision, t.table.leg) == (R1, "server"))
    assert len(server.differ) == 30
    assert found.differ == 30 + 1  # and beta's step-up
    same = comparison(_grid(20), "beta-sdk", "gamma-sdk")
    assert same.differ == 1  # only beta's step-up
