"""Regressions night by night (`history.regression`): the three kinds, when each begins and
ends, and runs under another harness or other requirement sets marked, never compared.

Every expected state is worked out by hand from the nights each test builds."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from support.nights import (
    HARNESS_CHANGE_NIGHT,
    LINES,
    NEVER_PASSES,
    NEW_HARNESS,
    NEW_HARNESS_FAILURE,
    OLD_HARNESS,
    R1,
    REGRESSED,
    night,
    night_scorecard,
    records,
    thirty_nights,
)
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.regression import NightState, line_states, timeline

IMAGE = "newly-failing:2025-11-25/server/tools-call-image"


def _states(line: str, nights: int = 30) -> dict[int, NightState]:
    runs = [r for r in records(thirty_nights(nights)) if r.sdk == line]
    return dict(enumerate(timeline(runs), start=1))


def _keys(regressions: Sequence[object]) -> list[str]:
    return [r.key for r in regressions]  # type: ignore[attr-defined]


def test_thirty_nights_alpha_regresses_on_night_12_and_is_fixed_on_night_15() -> None:
    states = _states("alpha-sdk")
    for n in range(1, 12):
        assert states[n].status == "ok", n
    # Night 12: the image scenario passed on night 11 and fails; the tier went 1 → 2.
    twelve = states[12]
    assert twelve.status == "regressed"
    assert _keys(twelve.started) == [IMAGE, "lower-tier"]
    tier = next(r for r in twelve.regressions if r.kind == "lower-tier")
    assert (tier.tier_before, tier.tier_after) == (1, 2)
    image = next(r for r in twelve.regressions if r.kind == "newly-failing")
    assert (image.revision, image.leg, image.scenario) == REGRESSED
    assert image.check == "tools-call-image-check"
    assert image.detail == (
        "2025-11-25 server tools-call-image failing since 2026-10-12: tools-call-image-check"
    )
    # Nights 13 and 14: still open, nothing new, both still dated night 12.
    for n in (13, 14):
        assert states[n].status == "regressed"
        assert states[n].started == ()
        assert {r.since.timestamp for r in states[n].regressions} == {night(12)}
    # Night 15: both undone.
    assert states[15].status == "ok"
    assert sorted(_keys(states[15].ended)) == sorted([IMAGE, "lower-tier"])
    # Night 20: the server leg, measured before, is unmeasured: a regression (it may hide a
    # failure), which night 21 ends by measuring it again.
    assert states[20].run.leg(R1, "server").state == "unmeasured"  # type: ignore[union-attr]
    assert states[20].status == "regressed"
    assert _keys(states[20].started) == [f"unmeasured:{R1}/server"]
    assert _keys(states[21].ended) == [f"unmeasured:{R1}/server"]
    assert all(states[n].status == "ok" for n in range(15, 31) if n != 20)


def test_thirty_nights_beta_is_marked_at_the_harness_change_never_regressed() -> None:
    states = _states("beta-sdk")
    # The client scenario that never passed is failing, not a regression.
    assert all(not s.regressions for s in states.values())
    changed = states[HARNESS_CHANGE_NIGHT]
    # The runs recorded no definitions: what the referee changed in them is not known.
    assert changed.basis_change == (
        f"referee changed on {changed.night} (harness {OLD_HARNESS} → {NEW_HARNESS}): "
        "0 scenarios added, 0 changed, 8 not known (definitions not recorded)",
    )
    assert changed.status == "incomparable"
    assert changed.marked
    # ping passed under the old harness and fails under the new: not compared, so not new;
    # on the next night (same harness as the night before) it is an old failure.
    failing = {(s.revision, s.leg, s.scenario) for s in changed.run.scenarios if not s.passed}
    assert failing == {NEVER_PASSES, NEW_HARNESS_FAILURE}
    after = states[HARNESS_CHANGE_NIGHT + 1]
    assert (after.status, after.basis_change, after.started) == ("ok", (), ())


def test_line_states_is_every_line_latest_state_as_of_a_moment() -> None:
    runs = records(thirty_nights())
    latest = line_states(runs)
    assert sorted(latest) == sorted(LINES)
    assert {line: s.night.day for line, s in latest.items()} == dict.fromkeys(LINES, 30)
    assert {line: s.status for line, s in latest.items()} == dict.fromkeys(LINES, "ok")
    on_13 = line_states(runs, as_of=night(13))
    assert on_13["alpha-sdk"].status == "regressed"
    assert on_13["alpha-sdk"].night == night(13).date()
    # Oldest first, then by key.
    assert _keys(on_13["alpha-sdk"].regressions) == ["lower-tier", IMAGE]
    assert on_13["beta-sdk"].status == "ok"


def _line(*docs: RunRecord) -> list[NightState]:
    return timeline(docs)


def test_a_leg_newly_unmeasured_is_a_regression_until_measured() -> None:
    def run(n: int, unmeasured: bool) -> RunRecord:
        return record_of(
            night_scorecard("x", n, unmeasured=[(R1, "client")] if unmeasured else [], tier=1)
        )

    states = _line(run(1, False), run(2, True), run(3, True), run(4, True), run(5, False))
    assert [s.status for s in states] == ["ok", "regressed", "regressed", "regressed", "ok"]
    (opened,) = states[1].started
    assert opened.key == "unmeasured:2025-11-25/client"
    assert opened.since.timestamp == night(2)  # the first unmeasured night
    assert states[2].started == states[3].started == ()
    assert states[3].regressions[0].nights == 3
    assert opened.message == "server never became ready within 30 s"
    assert _keys(states[4].ended) == ["unmeasured:2025-11-25/client"]


def test_a_leg_never_measured_is_not_a_regression() -> None:
    states = _line(
        *(record_of(night_scorecard("x", n, unmeasured=[(R1, "client")])) for n in (1, 2, 3))
    )
    assert [s.status for s in states] == ["ok", "ok", "ok"]


def test_a_tier_lowered_by_an_unmeasured_leg_is_not_a_lower_tier() -> None:
    # Night 2 is unmeasured and implies Tier 3 (a lower bound): no tier is judged that night.
    # The leg newly unmeasured is the regression, not a lower tier.
    one = record_of(night_scorecard("x", 1, tier=1))
    two = record_of(night_scorecard("x", 2, unmeasured=[(R1, "server")], tier=3))
    three = record_of(night_scorecard("x", 3, tier=1))
    states = _line(one, two, three)
    assert [s.status for s in states] == ["ok", "regressed", "ok"]
    assert _keys(states[1].regressions) == [f"unmeasured:{R1}/server"]


def test_other_requirement_sets_are_marked_and_compare_scenarios_scored_by_both() -> None:
    one = record_of(night_scorecard("x", 1))
    two = dataclasses.replace(
        record_of(night_scorecard("x", 2, failing=[REGRESSED], tier=2)),
        requirements_digest="0123456789abcdef",
    )
    states = _line(one, two)
    assert states[1].basis_change == (
        f"requirement sets {one.requirements_digest} → 0123456789abcdef",
    )
    # The scenario is scored under both sets and the harness is the same: it is newly
    # failing. The tier is judged against other requirements: its drop is not a regression.
    assert [r.kind for r in states[1].started] == ["newly-failing"]
    assert states[1].status == "regressed"


def test_an_open_regression_lasts_across_a_harness_change_until_undone() -> None:
    def run(n: int, failing: bool, harness: str) -> RunRecord:
        return record_of(
            night_scorecard(
                "x",
                n,
                failing=[REGRESSED] if failing else [],
                tier=2 if failing else 1,
                harness=harness,
            )
        )

    states = _line(
        run(1, False, OLD_HARNESS),
        run(2, True, OLD_HARNESS),
        run(3, True, NEW_HARNESS),
        run(4, False, NEW_HARNESS),
    )
    assert [s.status for s in states] == ["ok", "regressed", "regressed", "ok"]
    assert states[2].marked
    assert states[2].started == ()
    assert {r.since.timestamp for r in states[2].regressions} == {night(2)}


def test_a_failure_bridged_by_an_unmeasured_night_stays_one_regression() -> None:
    runs = [
        record_of(night_scorecard("x", 1)),
        record_of(night_scorecard("x", 2, failing=[REGRESSED], tier=2)),
        record_of(night_scorecard("x", 3, unmeasured=[(R1, "server")], tier=3)),
        record_of(night_scorecard("x", 4, failing=[REGRESSED], tier=2)),
    ]
    states = _line(*runs)
    assert [s.status for s in states] == ["ok", "regressed", "regressed", "regressed"]
    assert states[3].started == ()
    assert {r.since.timestamp for r in states[3].regressions} == {night(2)}


def test_a_scorecard_records_the_requirement_sets_it_was_scored_against() -> None:
    from tiercheck.history.files import requirements_digest
    from tiercheck.pipeline.assess.facts import tiercheck_facts

    both = tiercheck_facts("r", ["2025-11-25", "2026-07-28"]).requirements_digest
    assert both == requirements_digest(["2025-11-25", "2026-07-28"])
    assert both != tiercheck_facts("r", ["2025-11-25"]).requirements_digest
    assert tiercheck_facts("r").requirements_digest is None


def test_a_lower_tier_that_drops_further_is_one_regression_at_the_tier_of_the_day() -> None:
    tiers = [1, 2, 3, 2, 1]
    states = _line(*(record_of(night_scorecard("x", n, tier=t)) for n, t in enumerate(tiers, 1)))
    assert [s.status for s in states] == ["ok", "regressed", "regressed", "regressed", "ok"]
    assert [r.detail for r in states[2].regressions] == ["Tier 1 → Tier 3 since 2026-10-02"]
    assert [r.detail for r in states[3].regressions] == ["Tier 1 → Tier 2 since 2026-10-02"]
    assert states[2].started == ()
    assert _keys(states[4].ended) == ["lower-tier"]
