"""A line's state on a night (tiercheck.history.nightly), from typed scorecards stored in a real
history database. Expected states are worked out by hand from the rules in the module's
docstring and the tiers in tests/support/nights.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from support.notify_nights import (
    BROKEN,
    FIX,
    LINE,
    REF,
    REGRESSION,
    day,
    night_scorecard,
    record,
    thirty_nights,
)
from support.scorecards import implied
from tiercheck.history.nightly import LineNight, line_night
from tiercheck.history.store import HistoryStore
from tiercheck.scorecard.build import implied_tier_block
from tiercheck.tier import Blocker

ROW = f"{LINE}@{REF}"


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    return HistoryStore(tmp_path / "history.sqlite")


def _state(store: HistoryStore, n: int) -> LineNight:
    return line_night(LINE, store.runs(LINE), day(n))


def test_thirty_nights_regress_on_twelve_and_are_green_again_on_fifteen(
    store: HistoryStore,
) -> None:
    for n in range(1, 31):
        record(store, thirty_nights(n))
    states = {n: _state(store, n) for n in range(1, 31)}
    regressed = [n for n, s in states.items() if s.status == "regression"]
    assert regressed == [12, 13, 14]
    for n in (12, 13, 14):
        broken, tier = states[n].regressions
        assert (tier.kind, tier.row, tier.since) == ("tier", ROW, day(REGRESSION))
        assert (tier.tier_before, tier.tier_now, tier.nights) == (1, 2, n - 11)
        assert (broken.kind, broken.since, broken.nights) == ("scenario", day(REGRESSION), n - 11)
        assert (broken.revision, broken.leg, broken.scenario) == ("2025-11-25", "server", BROKEN)
        assert broken.check == f"{BROKEN}-check"
        assert broken.message == "wrong answer"
    # The same regressions night after night: one state, however long it lasts.
    assert states[12].state_key == states[13].state_key == states[14].state_key
    assert states[12].state_key == (f"scenario:{ROW}:2025-11-25/server/{BROKEN} tier:{ROW}:1")
    assert states[FIX].state_key == "green"


def test_one_unmeasured_night_is_a_warning_and_two_running_are_a_regression(
    store: HistoryStore,
) -> None:
    for n in range(1, 20):
        record(store, night_scorecard(n))
    record(store, night_scorecard(20, unmeasured=True))
    alone = _state(store, 20)
    assert alone.status == "green"
    (row,) = alone.rows
    assert (row.unmeasured_nights, row.measured) == (1, False)
    record(store, night_scorecard(21, unmeasured=True))
    twice = _state(store, 21)
    (regression,) = twice.regressions
    assert (regression.kind, regression.since, regression.nights) == ("unmeasured", day(20), 2)
    assert regression.reason == "server 2025-11-25: server never became ready within 30 s"
    record(store, night_scorecard(22))
    assert _state(store, 22).status == "green"


def test_an_unmeasured_night_inside_a_regression_neither_ends_nor_breaks_it(
    store: HistoryStore,
) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    record(store, night_scorecard(13, unmeasured=True))
    state = _state(store, 13)
    assert [r.kind for r in state.regressions] == ["scenario", "tier"]
    record(store, night_scorecard(14, failing=[BROKEN]))
    broken, tier = _state(store, 14).regressions
    assert (broken.since, broken.nights) == (day(12), 2)  # two measured failures
    assert (tier.since, tier.nights) == (day(12), 2)


@pytest.mark.parametrize("change", ["harness", "requirements"])
def test_a_row_measured_under_another_harness_or_requirement_set_is_not_comparable(
    store: HistoryStore, change: str
) -> None:
    for n in range(1, 11):
        record(store, night_scorecard(n))
    if change == "harness":
        record(store, night_scorecard(11, failing=[BROKEN], harness="0.2.0-alpha.13"))
    else:
        record(store, night_scorecard(11, failing=[BROKEN]), requirements="ffffeeeeddddcccc")
    state = _state(store, 11)
    assert state.status == "green"  # a lower tier and a new failure, but not comparable
    (row,) = state.not_comparable
    assert row.comparable == "not-comparable"
    assert row.previous is not None
    assert (row.previous.harness_version, row.run.harness_version) == (
        ("0.2.0-alpha.12", "0.2.0-alpha.13") if change == "harness" else ("0.2.0-alpha.12",) * 2
    )


def test_the_nights_under_the_new_harness_are_compared_with_each_other(
    store: HistoryStore,
) -> None:
    new = "0.2.0-alpha.13"
    for n in range(1, 11):
        record(store, night_scorecard(n))
    record(store, night_scorecard(11, harness=new))
    record(store, night_scorecard(12, failing=[BROKEN], harness=new))
    state = _state(store, 12)
    assert [r.kind for r in state.regressions] == ["scenario", "tier"]
    assert state.rows[0].comparable == "compared"


def test_a_scenario_that_never_passed_is_a_standing_failure_not_a_regression(
    store: HistoryStore,
) -> None:
    for n in range(1, 6):
        record(store, night_scorecard(n, failing=[BROKEN]))
    state = _state(store, 5)
    assert state.status == "green"
    assert state.rows[0].comparable == "compared"


def test_a_tier_drop_without_a_failing_scenario_lasts_until_the_tier_is_back(
    store: HistoryStore,
) -> None:
    def with_tier(n: int, tier: int) -> None:
        doc = night_scorecard(n)
        if tier != 1:
            lower = implied(tier, [Blocker("labels", 1)])
            doc = dataclasses.replace(doc, implied_tier=implied_tier_block(lower))
        record(store, doc)

    for n, tier in enumerate([1, 1, 2, 2, 1], start=1):
        with_tier(n, tier)
    assert [_state(store, n).status for n in range(1, 6)] == [
        "green",
        "green",
        "regression",
        "regression",
        "green",
    ]
    (drop,) = _state(store, 4).regressions
    assert (drop.kind, drop.tier_before, drop.tier_now, drop.since) == ("tier", 1, 2, day(3))


def test_a_night_without_a_run_changes_nothing(store: HistoryStore) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    gap = _state(store, 13)  # nothing ran on night 13
    assert gap.latest == day(12)
    assert gap.state_key == _state(store, 12).state_key
    assert [r.nights for r in gap.regressions] == [1, 1]


def test_the_latest_run_of_a_night_counts_and_later_nights_are_not_seen(
    store: HistoryStore,
) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    record(store, night_scorecard(12, minute=30))  # a re-run that passed
    assert _state(store, 12).status == "green"
    record(store, night_scorecard(13, failing=[BROKEN]))
    assert _state(store, 12).status == "green"  # night 13 is after the night asked
    assert _state(store, 13).status == "regression"


def test_rows_are_judged_apart_and_a_ref_no_longer_run_drops_out(store: HistoryStore) -> None:
    for n in range(1, 6):
        record(store, night_scorecard(n))
        record(store, night_scorecard(n, ref="main", failing=[BROKEN] if n == 5 else []))
        if n < 4:
            record(store, night_scorecard(n, ref="v0.9.0", unmeasured=n > 1))
    state = _state(store, 5)
    assert [r.row for r in state.rows] == [f"{LINE}@main", ROW]  # v0.9.0 stopped on night 3
    assert {r.row for r in state.regressions} == {f"{LINE}@main"}
    # On night 3 the ref was still run, unmeasured two nights running after a measured one.
    night3 = _state(store, 3)
    (unmeasured,) = night3.regressions
    assert (unmeasured.row, unmeasured.since, unmeasured.nights) == (f"{LINE}@v0.9.0", day(2), 2)


def test_another_line_and_an_empty_history_are_green(store: HistoryStore) -> None:
    record(store, night_scorecard(1, line="other-sdk", failing=[BROKEN]))
    empty = _state(store, 1)
    assert (empty.status, empty.latest, empty.rows) == ("green", None, ())


def test_a_row_never_measured_has_not_regressed(store: HistoryStore) -> None:
    for n in range(1, 6):
        record(store, night_scorecard(n, unmeasured=True))  # the runner lacks its toolchain
    state = _state(store, 5)
    assert state.status == "green"
    assert state.rows[0].unmeasured_nights == 5


def test_a_tier_lowered_by_inconclusive_governance_is_not_a_regression(
    store: HistoryStore,
) -> None:
    for n in range(1, 4):
        record(store, night_scorecard(n))
    # GitHub rate-limited the governance collection: triage inconclusive, Tier 2 as a lower
    # bound. The legs all passed; the tier is not a verdict.
    doc = night_scorecard(4)
    lowered = implied(2, [Blocker("triage", 1, "inconclusive", reason="rate limited")])
    triage = dataclasses.replace(doc.checks.triage, status="inconclusive")
    doc = dataclasses.replace(
        doc,
        implied_tier=implied_tier_block(lowered),
        checks=dataclasses.replace(doc.checks, triage=triage),
    )
    record(store, doc)
    assert _state(store, 4).status == "green"
