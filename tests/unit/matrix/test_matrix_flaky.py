"""A flaky scenario in the matrix and the diff (failed beside other work, passed by itself): its
own verdict in every rendering and in matrix.json, how it failed said, counted as passed in the
leg's score and by the comparison with the previous matrix or scorecard (never a new failure,
never a fix), and listed apart by the diff."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from support.junit_schema import junit_schema_errors
from support.schema_check import conforms
from support.scorecards import R1, check, measured_leg, scenario, tier1_scorecard
from tiercheck.matrix.build import RowInput, build_matrix, changes_since
from tiercheck.matrix.html import render_matrix_html
from tiercheck.matrix.model import LegCell, Matrix, ScenarioCell
from tiercheck.matrix.text import (
    render_matrix_junit,
    render_matrix_markdown,
    render_matrix_terminal,
)
from tiercheck.model import from_json, to_json
from tiercheck.scorecard.diff import (
    diff_scorecards,
    diff_to_dict,
    render_diff_markdown,
    render_diff_terminal,
)
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import confirm_failure, with_confirmations

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "tiercheck/schemas/matrix.schema.json").read_text()
)
NAMES = ("server-initialize", "tools-list", "tools-call-simple-text")
FLAKY = "tools-call-simple-text"
FIRST = "Expected 3 progress notifications, got 2"


def _card(result: str) -> Scorecard:
    """A Tier 1 scorecard whose R1 server leg has FLAKY passed, flaky or failed (again)."""
    failing = [check(f"{FLAKY}-check", FIRST)]
    leg = measured_leg(
        R1,
        "server",
        [
            scenario(n, passed=False, failing=failing)
            if n == FLAKY and result != "passed"
            else scenario(n)
            for n in NAMES
        ],
    )
    if result != "passed":
        first = next(d for d in leg.details if d.scenario == FLAKY)
        alone = (
            first
            if result == "failed"
            else measured_leg(R1, "server", [scenario(FLAKY)]).details[0]
        )
        leg = with_confirmations(leg, [confirm_failure(first, alone, duration_s=4.25)])
    return tier1_scorecard(replace_legs={(R1, "server"): leg})


def _matrix(result: str, run_id: str = "r2") -> Matrix:
    row = RowInput(
        id="mine@main",
        sdk="mine",
        repo="me/mine",
        ref="main",
        claimed_revisions=(R1,),
        claimed_tier=1,
        scorecard=_card(result),
    )
    return build_matrix([row], run_id=run_id, started_at="s", finished_at="f", interrupted=False)


def _server_cell(matrix: Matrix) -> tuple[LegCell, ScenarioCell]:
    (row,) = matrix.rows
    cell = next(c for c in row.legs if c.revision == R1 and c.leg == "server")
    (flaky,) = [s for s in cell.scenarios if s.scenario == FLAKY]
    return cell, flaky


def test_a_flaky_scenario_is_flaky_and_counted_as_passed() -> None:
    matrix = _matrix("flaky")
    cell, flaky = _server_cell(matrix)
    assert (cell.passed, cell.total, cell.flaky) == (3, 3, 1)
    assert flaky.verdict == "flaky"
    assert flaky.check is None
    message = flaky.message
    assert FIRST in message
    assert "passed by itself (4.2 s)" in message
    # matrix.json keeps it, follows its schema and reads back as written.
    data = json.loads(json.dumps(to_json(matrix)))
    conforms(data, SCHEMA)
    assert from_json(Matrix, data) == matrix
    # A failure that came back is a failure; a plain pass has no flaky count.
    again_cell, again = _server_cell(_matrix("failed"))
    assert again.verdict == "failed"
    assert (again_cell.passed, again_cell.flaky) == (2, 0)
    assert _server_cell(_matrix("passed"))[0].flaky == 0


def test_every_rendering_says_flaky_and_never_a_plain_pass_or_failure() -> None:
    matrix = _matrix("flaky")
    assert "3/3 (1 flaky)" in render_matrix_markdown(matrix)
    assert "3/3 (1 flaky)" in render_matrix_terminal(matrix)
    junit = render_matrix_junit(matrix)
    assert junit_schema_errors(junit) == []
    root = ET.fromstring(junit)
    (case,) = [
        c
        for c in root.iter("testcase")
        if c.get("name") == FLAKY
        and R1 in c.get("classname", "")
        and ".server" in c.get("classname", "")
    ]
    assert case.find("failure") is None
    assert case.find("skipped") is None
    out = case.find("system-out")
    assert out is not None
    assert out.text is not None
    assert out.text.startswith("flaky: failed beside other work")
    assert FIRST in out.text
    html = render_matrix_html(matrix)
    assert 'class="v flaky"' in html
    assert "~ flaky (counted as passed)" in html
    assert FIRST in html  # listed with the failing checks, its cell linked to it


def test_flaky_against_the_previous_matrix_is_neither_a_new_failure_nor_a_fix() -> None:
    passed, flaky, failed = _matrix("passed", "r1"), _matrix("flaky", "r2"), _matrix("failed", "r3")
    for before, after in ((passed, flaky), (flaky, passed)):
        changes = changes_since(before, after.rows)
        assert (changes.new_failures, changes.fixes) == ((), ())
    assert [c.scenario for c in changes_since(flaky, failed.rows).new_failures] == [FLAKY]
    assert [c.scenario for c in changes_since(failed, flaky.rows).fixes] == [FLAKY]
    # What a flaky scenario was or is reads as the pass it counts as.
    (change,) = changes_since(flaky, failed.rows).new_failures
    assert (change.before, change.after) == ("passed", "failed")
    assert dataclasses.replace(change, after="failed") == change


def test_the_diff_lists_flaky_apart_never_as_a_regression_or_a_fix() -> None:
    passed, flaky, failed = _card("passed"), _card("flaky"), _card("failed")
    diff = diff_scorecards(passed, flaky)
    assert (diff.regressions, diff.fixed, diff.has_regression) == ((), (), False)
    (change,) = diff.newly_flaky
    assert (change.revision, change.leg, change.scenario) == (R1, "server", FLAKY)
    assert (change.before, change.after) == ("passed", "flaky")
    assert FIRST in change.message
    assert diff.no_longer_flaky == ()
    assert not diff.unchanged
    for rendered in (render_diff_markdown(diff), render_diff_terminal(diff, False)):
        assert "Newly flaky (counted as passed" in rendered
        assert f"server {R1} {FLAKY}: passed → flaky — failed beside other work" in rendered
    data = json.loads(json.dumps(diff_to_dict(diff)))
    assert data["newly_flaky"][0]["after"] == "flaky"
    # Flaky, then failing by itself too: a regression, and no longer flaky.
    worse = diff_scorecards(flaky, failed)
    assert [c.scenario for c in worse.regressions] == [FLAKY]
    (gone,) = worse.no_longer_flaky
    assert (gone.before, gone.after) == ("flaky", "failed")
    assert "No longer flaky (1)" in render_diff_markdown(worse)
    # Flaky on both sides: nothing to say; the same document: unchanged.
    assert diff_scorecards(flaky, flaky).newly_flaky == ()
    assert diff_scorecards(flaky, flaky).unchanged
