"""Diffing two scorecards: exactly what regressed, and what may explain it."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from support.scorecards import R1, R2, edited, tier1_scorecard, with_regression
from tiercheck.model import to_json
from tiercheck.scorecard.diff import (
    ContextChange,
    LegChange,
    ScenarioChange,
    diff_scorecards,
    diff_to_dict,
    render_diff_markdown,
    render_diff_terminal,
)
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.json_format import validate_scorecard
from tiercheck.scoring import unmeasured_leg


def test_identical_scorecards_have_no_regression() -> None:
    doc = tier1_scorecard()
    diff = diff_scorecards(doc, tier1_scorecard())
    assert not diff.has_regression
    assert diff.unchanged
    assert diff.context == ()
    assert "No differences." in render_diff_markdown(diff)


def test_diff_finds_exactly_the_regressed_scenario() -> None:
    old = tier1_scorecard()
    new = with_regression(R2, "server", "tools-list", "tools/list returned 0 tools")
    validate_scorecard(to_json(new))
    diff = diff_scorecards(old, new)
    assert diff.regressions == (
        ScenarioChange(
            "newly-failing",
            R2,
            "server",
            "tools-list",
            "passed",
            "failed",
            scored_before=True,
            scored_after=True,
            message="tools-list-check: tools/list returned 0 tools",
        ),
    )
    assert (diff.fixed, diff.added, diff.removed, diff.newly_unmeasured) == ((), (), (), ())
    assert diff.has_regression
    assert not diff.tier_dropped


def test_the_reverse_is_a_fix_not_a_regression() -> None:
    old = tier1_scorecard()
    new = with_regression(R1, "client", "initialize", "no initialize request")
    diff = diff_scorecards(new, old)
    assert [(c.scenario, c.before, c.after) for c in diff.fixed] == [
        ("initialize", "failed", "passed")
    ]
    assert not diff.has_regression


def test_tier_drop_and_new_blockers_are_regressions() -> None:
    old = tier1_scorecard()

    def change(data: dict[str, Any]) -> None:
        data["implied_tier"] |= {"tier": 2, "tier1_blockers": ["labels"]}

    new = edited(old, change)
    diff = diff_scorecards(old, new)
    assert diff.tier_dropped
    assert diff.has_regression
    assert diff.blockers_added == ("labels",)
    assert "Tier 1 → Tier 2 (dropped)" in render_diff_markdown(diff)


def test_leg_newly_unmeasured_is_one_change_not_every_scenario_removed() -> None:
    old = tier1_scorecard()
    lost = unmeasured_leg("client", R2, "server never became ready on port 41236")
    new = tier1_scorecard(replace_legs={(R2, "client"): lost})
    diff = diff_scorecards(old, new)
    assert diff.newly_unmeasured == (
        LegChange(
            R2, "client", "measured", "unmeasured", "server never became ready on port 41236"
        ),
    )
    assert diff.removed == ()
    assert diff.has_regression
    assert diff_scorecards(new, old).newly_measured == (
        LegChange(R2, "client", "unmeasured", "measured"),
    )


def _add_and_remove(harness: str | None = None) -> tuple[Scorecard, Scorecard, str]:
    """Tier 1's scorecard, and the same with 2025-11-25's third server scenario gone and a
    failing one added (and, when given, another harness version)."""
    old = tier1_scorecard()
    removed: dict[str, Any] = {}

    def change(data: dict[str, Any]) -> None:
        details = data["revisions"][R1]["server"]["details"]
        removed.update(details.pop(2))
        added = copy.deepcopy(details[0]) | {
            "scenario": "server-session-lifecycle",
            "passed": False,
            "failures": [
                {"id": "lifecycle", "status": "FAILURE", "message": "no DELETE", "spec_url": None}
            ],
        }
        details.append(added)
        if harness is not None:
            data["harness"]["version"] = harness
        data["sdk"]["commit"] = "0" * 40

    new = edited(old, change)
    return old, new, removed["scenario"]


def test_added_and_removed_scenarios_with_context_changes() -> None:
    old, new, removed = _add_and_remove()
    diff = diff_scorecards(old, new)
    assert [c.scenario for c in diff.removed] == [removed]
    assert [(c.before, c.after) for c in diff.removed] == [("passed", "absent")]
    assert diff.added == (
        ScenarioChange(
            "added",
            R1,
            "server",
            "server-session-lifecycle",
            "absent",
            "failed",
            scored_before=False,
            scored_after=True,
            message="lifecycle: no DELETE",
        ),
    )
    # An added failing scenario is not a regression: it has no verdict to fall from.
    assert not diff.has_regression
    assert not diff.incomparable
    assert [c.field for c in diff.context] == ["sdk.commit"]


def test_another_harness_version_compares_no_scenario() -> None:
    old, new, _ = _add_and_remove(harness="0.2.0-alpha.12")
    diff = diff_scorecards(old, new)
    assert diff.incomparable
    assert (diff.added, diff.removed, diff.regressions, diff.fixed) == ((), (), (), ())
    assert not diff.has_regression
    assert ContextChange("harness.version", "0.2.0-alpha.10", "0.2.0-alpha.12") in diff.context
    assert [c.field for c in diff.context] == ["sdk.commit", "harness.version"]
    assert diff_to_dict(diff)["incomparable"] is True
    said = "Another harness version: no scenario was compared (see what else changed)."
    assert said in render_diff_markdown(diff).splitlines()
    assert said in render_diff_terminal(diff, color=False).splitlines()
    assert said not in render_diff_markdown(diff_scorecards(old, old))


def test_a_leg_lost_under_another_harness_is_still_newly_unmeasured() -> None:
    lost = unmeasured_leg("client", R2, "server never became ready on port 41236")
    new = edited(
        tier1_scorecard(replace_legs={(R2, "client"): lost}),
        lambda d: d["harness"].update(version="0.2.0-alpha.12"),
    )
    diff = diff_scorecards(tier1_scorecard(), new)
    assert diff.incomparable
    assert [(c.revision, c.leg) for c in diff.newly_unmeasured] == [(R2, "client")]
    assert diff.has_regression


def test_not_scored_to_scored_failure_is_newly_scored_not_a_regression() -> None:
    def change(data: dict[str, Any]) -> None:
        data["revisions"][R1]["server"]["details"][0]["notScoredReason"] = "pending"

    old = edited(tier1_scorecard(), change)
    new = with_regression(R1, "server", "server-initialize", "boom")
    diff = diff_scorecards(old, new)
    assert diff.regressions == ()
    assert [(c.scenario, c.before, c.after) for c in diff.newly_scored] == [
        ("server-initialize", "not scored: passed", "failed")
    ]
    assert not diff.has_regression
    assert not diff.unchanged
    reverse = diff_scorecards(new, old)
    assert reverse.fixed == ()
    assert [(c.before, c.after) for c in reverse.no_longer_scored] == [
        ("failed", "not scored: passed")
    ]
    # Both reports show them, under their own headings.
    shown = render_diff_markdown(diff)
    assert "## Newly scored scenarios (1)" in shown
    assert "- server 2025-11-25 server-initialize: not scored: passed → failed — " in shown
    assert "## Regressions" not in shown
    gone = render_diff_terminal(reverse, color=False)
    assert "No longer scored (1)" in gone
    assert "  server 2025-11-25 server-initialize: failed → not scored: passed" in gone


def test_a_failure_that_became_unmeasured_is_not_fixed() -> None:
    failing = with_regression(R1, "server", "tools-list", "boom")

    def unmeasure(data: dict[str, Any]) -> None:
        entry = data["revisions"][R1]["server"]["details"][1]
        entry |= {"passed": False, "failures": [], "unmeasured": "no checks.json"}

    diff = diff_scorecards(failing, edited(failing, unmeasure))
    assert diff.fixed == ()
    assert [(c.scenario, c.before, c.after) for c in diff.newly_unmeasured_scenarios] == [
        ("tools-list", "failed", "unmeasured")
    ]
    shown = render_diff_markdown(diff)
    assert "## Newly unmeasured scenarios (1)" in shown
    assert "## Fixed" not in shown
    back = render_diff_markdown(diff_scorecards(edited(failing, unmeasure), failing))
    assert "## Measured again (1)" in back


def test_renderings_and_json_form() -> None:
    old = tier1_scorecard()
    new = with_regression(R2, "server", "tools-list", "tools/list | returned <0>")
    diff = diff_scorecards(old, new)
    markdown = render_diff_markdown(diff)
    assert "## Regressions (1)" in markdown
    assert "- server 2026-07-28 tools-list: passed → failed" in markdown
    assert "<0>" not in markdown
    plain = render_diff_terminal(diff, color=False)
    assert "Regressions (1)" in plain
    assert not re.search(r"\x1b\[", plain)
    assert re.search(r"\x1b\[", render_diff_terminal(diff, color=True))
    data = json.loads(json.dumps(diff_to_dict(diff)))
    assert data["has_regression"] is True
    assert data["regressions"][0]["scenario"] == "tools-list"
