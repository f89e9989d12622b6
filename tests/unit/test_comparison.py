"""The one rule comparing two runs' scenarios (`tiercheck.comparison`), case by case.

Every expectation is the module docstring's rule applied by hand to the runs written here."""

from __future__ import annotations

from typing import Literal

import pytest

from tiercheck.comparison import (
    LegChange,
    LegOutcome,
    RunScenarios,
    ScenarioChange,
    ScenarioOutcome,
    classify,
    comparable,
    compare,
)

R = "2025-11-25"
State = Literal["passed", "failed", "unmeasured"]


def s(
    name: str, outcome: State = "passed", *, scored: bool = True, leg: str = "server"
) -> ScenarioOutcome:
    message = f"{name} broke" if outcome == "failed" else None
    return ScenarioOutcome(R, leg, name, outcome, scored, message)


def run(
    *scenarios: ScenarioOutcome,
    harness: str | None = "1.0",
    server: str = "measured",
    client: str = "measured",
) -> RunScenarios:
    legs = (LegOutcome(R, "server", server, None), LegOutcome(R, "client", client, "no port"))
    return RunScenarios(harness, legs, scenarios)


@pytest.mark.parametrize(
    ("before", "after", "kind"),
    [
        (s("a"), s("a", "failed"), "newly-failing"),
        (s("a", "failed"), s("a"), "fixed"),
        (s("a"), s("a", "unmeasured"), "newly-unmeasured"),
        (s("a", "failed"), s("a", "unmeasured"), "newly-unmeasured"),
        (s("a", "unmeasured"), s("a"), "measured-again"),
        (s("a", "unmeasured"), s("a", "failed"), "measured-again"),
        (None, s("a", "failed"), "added"),
        (None, s("a", scored=False), "added"),
        (s("a"), None, "removed"),
        (s("a", "failed"), s("a", "failed", scored=False), "no-longer-scored"),
        (s("a", scored=False), s("a", "failed"), "newly-scored"),
        (s("a"), s("a"), None),
        (s("a", "failed"), s("a", "failed"), None),
        (s("a", scored=False), s("a", "failed", scored=False), None),
        (s("a", "failed", scored=False), s("a", scored=False), None),
    ],
)
def test_each_case_of_one_scenario(
    before: ScenarioOutcome | None, after: ScenarioOutcome | None, kind: str | None
) -> None:
    change = classify(before, after)
    assert (change.kind if change else None) == kind


def test_a_change_carries_both_sides_and_the_new_failure() -> None:
    assert classify(s("a", scored=False), s("a", "failed")) == ScenarioChange(
        "newly-scored", R, "server", "a", "passed", "failed", False, True, "a broke"
    )
    fixed = classify(s("a", "failed"), s("a"))
    assert fixed is not None
    assert (fixed.before, fixed.after, fixed.message) == ("failed", "passed", None)
    removed = classify(s("a", "failed", scored=False), None)
    assert removed is not None
    assert (removed.before, removed.after) == ("not scored: failed", "absent")


def test_only_legs_measured_in_both_runs_compare_scenarios() -> None:
    before = run(s("a"), s("b", leg="client"))
    after = run(s("a", "failed"), client="unmeasured")
    found = compare(before, after)
    # The client's scenario is not "removed": its leg is newly unmeasured instead.
    assert [(c.kind, c.scenario) for c in found.changes] == [("newly-failing", "a")]
    assert found.legs_newly_unmeasured == (
        LegChange(R, "client", "measured", "unmeasured", "no port"),
    )
    back = compare(after, before)
    assert [(c.kind, c.scenario) for c in back.changes] == [("fixed", "a")]
    assert back.legs_measured_again == (LegChange(R, "client", "unmeasured", "measured"),)
    assert back.legs_newly_unmeasured == ()


@pytest.mark.parametrize("state", ["skipped", "not-claimed"])
def test_a_skipped_leg_compares_nothing_and_is_no_leg_change(state: str) -> None:
    found = compare(run(s("b", leg="client")), run(client=state))
    assert (found.changes, found.legs_newly_unmeasured, found.legs_measured_again) == ((), (), ())
    found = compare(run(client=state), run(s("b", "failed", leg="client")))
    assert found.changes == ()


def test_a_partially_measured_leg_is_unmeasured() -> None:
    found = compare(run(s("a")), run(server="partially-measured"))
    assert [(x.leg, x.after) for x in found.legs_newly_unmeasured] == [
        ("server", "partially-measured")
    ]
    assert found.changes == ()


def test_another_harness_compares_no_scenario_but_still_tells_of_legs() -> None:
    before = run(s("a"), s("b", leg="client"), harness="1.0")
    after = run(s("a", "failed"), s("c"), harness="1.1", client="unmeasured")
    found = compare(before, after)
    assert found.incomparable
    assert found.changes == ()
    assert found.newly_failing == found.added == ()
    assert [x.leg for x in found.legs_newly_unmeasured] == ["client"]


@pytest.mark.parametrize(
    ("before", "after", "same"),
    [
        ("1.0", "1.0", True),
        ("1.0", "1.1", False),
        (None, None, True),
        # A file older than the field: nothing says it ran another harness.
        (None, "1.0", True),
        ("1.0", None, True),
    ],
)
def test_comparable_is_the_same_harness_version_or_an_unknown_one(
    before: str | None, after: str | None, same: bool
) -> None:
    assert comparable(before, after) is same
    assert compare(run(harness=before), run(harness=after)).incomparable is not same


def test_changes_follow_the_newer_run_then_the_older() -> None:
    before = run(s("z"), s("gone-2"), s("m", "failed"), s("gone-1"))
    after = run(s("m"), s("new"), s("z", "failed"))
    found = compare(before, after)
    assert [(c.kind, c.scenario) for c in found.changes] == [
        ("fixed", "m"),
        ("added", "new"),
        ("newly-failing", "z"),
        ("removed", "gone-2"),
        ("removed", "gone-1"),
    ]
    assert found.of("removed", "added") == (found.changes[1], found.changes[3], found.changes[4])
    assert [c.scenario for c in found.fixed] == ["m"]
    assert [c.scenario for c in found.removed] == ["gone-2", "gone-1"]


def test_each_kind_has_its_own_list() -> None:
    before = run(
        s("nf"),
        s("fx", "failed"),
        s("nu"),
        s("ma", "unmeasured"),
        s("rm"),
        s("nls"),
        s("ns", scored=False),
    )
    after = run(
        s("nf", "failed"),
        s("fx"),
        s("nu", "unmeasured"),
        s("ma"),
        s("ad"),
        s("nls", scored=False),
        s("ns"),
    )
    found = compare(before, after)
    lists = {
        "newly_failing": found.newly_failing,
        "fixed": found.fixed,
        "newly_unmeasured": found.newly_unmeasured,
        "measured_again": found.measured_again,
        "added": found.added,
        "removed": found.removed,
        "no_longer_scored": found.no_longer_scored,
        "newly_scored": found.newly_scored,
    }
    assert {k: [c.scenario for c in v] for k, v in lists.items()} == {
        "newly_failing": ["nf"],
        "fixed": ["fx"],
        "newly_unmeasured": ["nu"],
        "measured_again": ["ma"],
        "added": ["ad"],
        "removed": ["rm"],
        "no_longer_scored": ["nls"],
        "newly_scored": ["ns"],
    }
