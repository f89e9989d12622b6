"""The claim lists each flaky scenario with how it failed first, counts it as passed, and asks
a reviewer whether it passes reliably enough."""

from __future__ import annotations

from support.scorecards import R1, check, measured_leg, scenario, tier1_scorecard
from tiercheck.claim.conformance import conformance_split
from tiercheck.claim.wording import split_notes
from tiercheck.scoring import confirm_failure, with_confirmations

NAMES = ("server-initialize", "tools-list", "tools-call-simple-text")
FLAKY = "tools-call-simple-text"


def _doc() -> object:
    leg = measured_leg(
        R1,
        "server",
        [
            scenario(n, passed=False, failing=[check("late", "got 2 of 3")])
            if n == FLAKY
            else scenario(n)
            for n in NAMES
        ],
    )
    first = next(d for d in leg.details if d.scenario == FLAKY)
    alone = measured_leg(R1, "server", [scenario(FLAKY)]).details[0]
    flaky = with_confirmations(leg, [confirm_failure(first, alone, duration_s=3.0)])
    return tier1_scorecard(replace_legs={(R1, "server"): flaky})


def test_the_split_lists_the_flaky_scenario_and_counts_it_passed() -> None:
    split = conformance_split(_doc())  # type: ignore[arg-type]
    (found,) = split.flaky
    assert (found.leg, found.revision, found.scenario) == ("server", R1, FLAKY)
    assert found.first == "late: got 2 of 3"
    assert found.duration_s == 3.0
    server = next(r for r in split.rows if r.name == "server")
    assert (server.by_revision[R1].passed, server.by_revision[R1].total) == (3, 3)


def test_the_notes_and_row_1a_say_it() -> None:
    from tiercheck.claim.pack import build_claim

    doc = _doc()
    claim = build_claim(doc, target_tier=1, snapshot=None, tree=None)  # type: ignore[arg-type]
    text = "".join(seg.text for note in split_notes(claim) for seg in note)
    assert "Flaky: failed while other scenarios ran beside it" in text
    assert f"server {FLAKY} @ {R1} (late: got 2 of 3, then passed by itself in 3.0 s)" in text
    (row,) = [row for row in claim.rows if row.id == "1a"]
    assert "1 flaky (counted as passed" in row.current
    assert row.review is not None
    assert "the 1 flaky scenario" in row.review
    assert "passes reliably enough for the tier" in row.review
