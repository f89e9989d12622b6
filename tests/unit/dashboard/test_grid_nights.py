"""The cross-SDK grid and night against night, over the thirty nights of `support.nights`.

Every expected value below is worked out by hand from `support.nights` and the frozen sets in
`requirements/`, never read from tiercheck's output:

* The lines run a few scenarios of each frozen set (`nights.SCENARIOS`): at 2025-11-25 the
  server leg runs server-initialize, ping, tools-list and tools-call-image of the set's 30
  scored scenarios, the client leg initialize, tools_call and auth/scope-step-up of its 18; at
  2026-07-28 the server leg runs server-stateless and tools-list of 37, the client leg
  initialize and tools_call of 32 — and `initialize` is not in that client set, so it is
  outside the grid. Every other row of a set is "not run" in every line, from night 1.
* alpha-sdk: tools-call-image (2025-11-25 server) fails on nights 12-14 with the check
  `tools-call-image-check` and the message "wrong answer"; the 2025-11-25 server leg is
  unmeasured on night 20 ("server never became ready within 30 s").
* beta-sdk: auth/scope-step-up (2025-11-25 client) fails every night; from night 25 it runs
  the new harness and ping fails too (night 24 → 25 is a harness change: not compared).
* gamma-sdk: green.
* Nights are 03:00 UTC from 2026-10-01 (night n is 2026-10-n).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from support.nights import records, thirty_nights, with_disputes
from tiercheck.config.requirements import load_requirement_set
from tiercheck.dashboard.grid import (
    Grid,
    GridCell,
    GridTable,
    build_grid,
    category,
    runs_by_line,
)
from tiercheck.dashboard.nightdiff import DiffEntry, LegDiff, LineNightDiff, build_nights
from tiercheck.scorecard.model import Scorecard

R1, R2 = "2025-11-25", "2026-07-28"
LINES = ("alpha-sdk", "beta-sdk", "gamma-sdk")
IMAGE_PAGE = "scenarios/server-tools-call-image.html"


def _sets() -> dict[str, dict[str, Sequence[str]]]:
    out: dict[str, dict[str, Sequence[str]]] = {}
    for revision in (R1, R2):
        found = load_requirement_set(revision)
        out[revision] = {"server": found.server, "client": found.client}
    return out


def _grid(nights: int, docs: Sequence[Scorecard] | None = None) -> Grid:
    by_line = runs_by_line(records(thirty_nights(nights) if docs is None else docs))
    pages = {("server", "tools-call-image"): IMAGE_PAGE}
    return build_grid(by_line, _sets(), scenario_pages=pages)


def _table(grid: Grid, revision: str, leg: str) -> GridTable:
    return next(t for t in grid.tables if (t.revision, t.leg) == (revision, leg))


def _cells(table: GridTable, scenario: str) -> dict[str, GridCell]:
    row = next(r for r in table.rows if r.scenario == scenario)
    return {c.line: c for c in row.cells}


def _night(n: int) -> str:
    return f"2026-10-{n:02d}T03:00:00Z"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tools-call-image", "tools"),
        ("tools_call", "tools"),
        ("auth/scope-step-up", "auth"),
        ("sep-2164-resource-not-found", "resources"),
        ("prompts-get-simple", "prompts"),
        ("elicitation-sep1034-defaults", "elicitation"),
        ("input-required-result-basic-sampling", "input-required"),
        ("logging-set-level", "utilities"),
        ("completion-complete", "utilities"),
        ("server-initialize", "core"),
        ("ping", "core"),
        ("sep-2322-client-request-state", "core"),
    ],
)
def test_a_scenarios_category_comes_from_its_name(name: str, expected: str) -> None:
    assert category(name) == expected


def test_the_rows_are_the_frozen_sets_scored_scenarios_whatever_the_lines_ran() -> None:
    grid = _grid(12)
    assert grid.lines == LINES
    # Server first, then client, per revision.
    assert [(t.revision, t.leg, t.scored, len(t.rows)) for t in grid.tables] == [
        (R1, "server", 30, 30),
        (R1, "client", 18, 18),
        (R2, "server", 37, 37),
        (R2, "client", 32, 32),
    ]
    # initialize is scored by every line's 2026-07-28 client run but not in that set.
    assert _table(grid, R2, "client").outside == ("initialize",)
    assert _table(grid, R1, "server").outside == ()
    # Grouped by category: core first (server-initialize, ping, server-sse-multiple-streams,
    # dns-rebinding-protection in the set's order), then tools (tools-list …).
    rows = [r.scenario for r in _table(grid, R1, "server").rows]
    assert rows[:4] == [
        "server-initialize",
        "ping",
        "server-sse-multiple-streams",
        "dns-rebinding-protection",
    ]
    assert rows[4:6] == ["tools-list", "tools-call-simple-text"]
    # A scenario no line runs is a row all the same, "not run" since night 1.
    never = _cells(_table(grid, R1, "server"), "resources-list")
    assert {c.state for c in never.values()} == {"not-run"}
    assert {c.since for c in never.values()} == {_night(1)}


def test_night_12_the_regression_is_a_failing_cell_linked_to_its_message() -> None:
    table = _table(_grid(12), R1, "server")
    image = _cells(table, "tools-call-image")
    assert image["alpha-sdk"] == GridCell(
        line="alpha-sdk",
        state="fail",
        disputed=False,
        since=_night(12),
        since_run="20261012T030000Z",
        check="tools-call-image-check",
        message="wrong answer",
        page=f"{IMAGE_PAGE}#now-alpha-sdk-2025-11-25",
    )
    assert (image["beta-sdk"].state, image["beta-sdk"].since) == ("pass", _night(1))
    row = next(r for r in table.rows if r.scenario == "tools-call-image")
    assert (row.passes, row.fails) == (2, 1)  # passes in 2 of 3 lines
    # Columns over the 30 scored scenarios: alpha passes 3 (server-initialize, ping,
    # tools-list), fails 1, 26 not run; beta and gamma pass all 4 they run.
    counts = {c.line: (c.passes, c.fails, c.unmeasured, c.not_run) for c in table.columns}
    assert counts == {
        "alpha-sdk": (3, 1, 0, 26),
        "beta-sdk": (4, 0, 0, 26),
        "gamma-sdk": (4, 0, 0, 26),
    }
    client = _cells(_table(_grid(12), R1, "client"), "auth/scope-step-up")
    assert (client["beta-sdk"].state, client["beta-sdk"].since) == ("fail", _night(1))


def test_night_15_the_fix_passes_since_night_15() -> None:
    image = _cells(_table(_grid(15), R1, "server"), "tools-call-image")
    assert (image["alpha-sdk"].state, image["alpha-sdk"].since) == ("pass", _night(15))
    assert image["alpha-sdk"].page is None


def test_night_20_the_unmeasured_leg_is_unmeasured_in_every_row_and_bridged_after() -> None:
    table = _table(_grid(20), R1, "server")
    for name in ("tools-call-image", "ping", "resources-list"):
        cell = _cells(table, name)["alpha-sdk"]
        assert (cell.state, cell.since) == ("unmeasured", _night(20)), name
    alpha = next(c for c in table.columns if c.line == "alpha-sdk")
    assert (alpha.passes, alpha.fails, alpha.unmeasured, alpha.not_run) == (0, 0, 30, 0)
    row = next(r for r in table.rows if r.scenario == "tools-call-image")
    assert row.passes == 2  # beta and gamma
    # Night 21: measured again; the pass since night 15 goes on (night 20 bridges), and a
    # scenario never run is "not run" since night 1 again.
    after = _table(_grid(21), R1, "server")
    assert _cells(after, "tools-call-image")["alpha-sdk"].since == _night(15)
    assert _cells(after, "resources-list")["alpha-sdk"].since == _night(1)


def test_night_25_the_new_harness_failure_is_a_failing_cell() -> None:
    ping = _cells(_table(_grid(26), R1, "server"), "ping")
    assert (ping["beta-sdk"].state, ping["beta-sdk"].since) == ("fail", _night(25))


def test_a_dispute_open_on_the_latest_night_is_said_beside_the_state() -> None:
    # Night 12's runs recorded tools-call-image's dispute open and ping's resolved; night 11's
    # recorded ping's open (a night before the latest: nothing to say now).
    docs = thirty_nights(12)
    image, ping = (R1, "server", "tools-call-image"), (R1, "server", "ping")
    docs = [
        with_disputes(d, {image: "open", ping: "resolved"})
        if d.timestamp.startswith("2026-10-12")
        else with_disputes(d, {ping: "open"})
        if d.timestamp.startswith("2026-10-11")
        else d
        for d in docs
    ]
    table = _table(_grid(12, docs), R1, "server")
    image = _cells(table, "tools-call-image")
    assert {line: (c.state, c.disputed) for line, c in image.items()} == {
        "alpha-sdk": ("fail", True),
        "beta-sdk": ("pass", True),
        "gamma-sdk": ("pass", True),
    }
    assert not any(c.disputed for c in _cells(table, "ping").values())


# --- night against night -------------------------------------------------------------------


def _nights() -> dict[str, dict[str, LineNightDiff]]:
    listing, diffs = build_nights(runs_by_line(records(thirty_nights(30))))
    assert listing.latest == "2026-10-30"
    assert [s.night for s in listing.nights][:2] == ["2026-10-30", "2026-10-29"]
    return {night: {x.line: x for x in diff.lines} for night, diff in diffs.items()}


def test_night_12_alpha_is_newly_failing_and_nothing_else_changed() -> None:
    night = _nights()["2026-10-12"]
    alpha = night["alpha-sdk"]
    assert alpha.previous_night == "2026-10-11"
    assert alpha.comparable is True
    assert alpha.newly_failing == (
        DiffEntry(
            revision=R1,
            leg="server",
            scenario="tools-call-image",
            before="passed",
            after="failed",
            message="wrong answer",
        ),
    )
    assert alpha.changes == 1
    # beta's auth/scope-step-up failed on night 11 too: not a change.
    assert night["beta-sdk"].changes == 0
    assert night["gamma-sdk"].changes == 0


def test_night_15_alpha_is_fixed() -> None:
    alpha = _nights()["2026-10-15"]["alpha-sdk"]
    assert alpha.fixed == (
        DiffEntry(
            revision=R1,
            leg="server",
            scenario="tools-call-image",
            before="failed",
            after="passed",
            message=None,
        ),
    )
    assert alpha.changes == 1


def test_night_20_the_leg_is_newly_unmeasured_and_none_of_its_scenarios_is_listed() -> None:
    nights = _nights()
    alpha = nights["2026-10-20"]["alpha-sdk"]
    assert alpha.legs_newly_unmeasured == (
        LegDiff(
            revision=R1,
            leg="server",
            before="measured",
            after="unmeasured",
            reason="server never became ready within 30 s",
        ),
    )
    assert alpha.changes == 1
    again = nights["2026-10-21"]["alpha-sdk"]
    assert [(x.revision, x.leg) for x in again.legs_measured_again] == [(R1, "server")]


def test_night_25_beta_is_not_compared_across_the_harness_change() -> None:
    nights = _nights()
    beta = nights["2026-10-25"]["beta-sdk"]
    assert beta.comparable is False
    assert beta.basis_change == (
        "referee changed on 2026-10-25 (harness 0.2.0-alpha.10 → 0.2.0-alpha.12): "
        "0 scenarios added, 0 changed, 8 not known (definitions not recorded)",
    )
    # ping failing under the new harness is not newly failing
    assert beta.changes == 0
    # Night 26 is the same harness as 25: ping failed both nights.
    assert nights["2026-10-26"]["beta-sdk"].changes == 0


def test_the_first_night_has_nothing_to_compare_with() -> None:
    first = _nights()["2026-10-01"]
    assert {x.previous_night for x in first.values()} == {None}
