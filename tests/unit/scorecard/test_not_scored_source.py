"""A not-scored scenario's reason is shown with its source: the requirement set of its revision.

The sets put a scenario under `not_scored` with a reason (extension, added-after-release,
pending); a scenario found in the results that its set does not list at all is not scored by
the scorer (`not-in-requirement-set`). Each reading names the set it comes from.
"""

from __future__ import annotations

from pathlib import Path

from support.checks_builder import requirement_set
from tiercheck.conformance.results import Check, ScenarioResult
from tiercheck.scorecard.build import leg_entry
from tiercheck.scorecard.model import ScenarioEntry
from tiercheck.scorecard.readings import not_scored_why
from tiercheck.scoring import score_leg

OK = (Check("ok", "SUCCESS", ""),)


def _details() -> dict[str, ScenarioEntry]:
    results = [
        ScenarioResult(name, Path(name) / "checks.json", OK)
        for name in ("tools-list", "auth/dpop", "stale-extra")
    ]
    rset = requirement_set(
        client=["tools-list"],
        not_scored=[("auth/dpop", "client", "extension")],
        revision="2025-11-25",
    )
    leg = leg_entry(score_leg("client", "2025-11-25", results, rset))
    return {d.scenario: d for d in leg.details}


def test_a_scored_scenario_has_no_not_scored_reading() -> None:
    assert not_scored_why(_details()["tools-list"]) == ""


def test_a_not_scored_entry_names_its_set() -> None:
    assert (
        not_scored_why(_details()["auth/dpop"])
        == "extension — requirement set 2025-11-25.yaml, not_scored"
    )


def test_a_scenario_its_set_does_not_list_says_so() -> None:
    assert (
        not_scored_why(_details()["stale-extra"])
        == "not-in-requirement-set — not in requirement set 2025-11-25.yaml"
    )
