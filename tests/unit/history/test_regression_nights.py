"""A line's state on a night as `tier-check notify` reads it (`history.regression.line_states`
as of a night's end), from typed scorecards stored in a real history database: how many nights
a regression has lasted, the row it is in, one unmeasured night, gaps and re-runs.

Expected states are worked out by hand from the rules in `tiercheck/history/regression.py`
and the tiers in tests/support/notify_nights.py (all clean: Tier 1; one server failure: Tier 2;
the server unmeasured: Tier 3)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from support.notify_nights import (
    BROKEN,
    FIX,
    LINE,
    NOT_READY,
    REF,
    REGRESSION,
    day,
    night_scorecard,
    record,
    thirty_nights,
)
from support.scorecards import R1, implied
from tiercheck.history.regression import NightState, line_states, night_end
from tiercheck.history.store import HistoryStore
from tiercheck.scorecard.build import implied_tier_block
from tiercheck.tier import Blocker

ROW = f"{LINE}@{REF}"
SCENARIO_KEY = f"newly-failing:2025-11-25/server/{BROKEN}"


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    return HistoryStore(tmp_path / "history.sqlite")


def _state(store: HistoryStore, n: int) -> NightState | None:
    return line_states(store.runs(), as_of=night_end(day(n))).get(LINE)


def _on(store: HistoryStore, n: int) -> NightState:
    state = _state(store, n)
    assert state is not None
    return state


def test_thirty_nights_regress_on_twelve_for_three_nights_in_one_row(store: HistoryStore) -> None:
    for n in range(1, 31):
        record(store, thirty_nights(n))
    states = {n: _on(store, n) for n in range(1, 31)}
    # 12-14: the scenario and the tier; 20: the server leg unmeasured that one night.
    assert [n for n, s in states.items() if s.status == "regressed"] == [12, 13, 14, 20]
    assert [r.kind for r in states[20].regressions] == ["unmeasured"]
    for n in (12, 13, 14):
        tier, broken = states[n].regressions  # same night: by key
        assert (tier.kind, tier.row, tier.since.timestamp.date()) == (
            "lower-tier",
            ROW,
            day(REGRESSION),
        )
        assert (tier.tier_before, tier.tier_after, tier.nights) == (1, 2, n - 11)
        assert (broken.kind, broken.key, broken.nights) == ("newly-failing", SCENARIO_KEY, n - 11)
        assert (broken.check, broken.message) == (f"{BROKEN}-check", "wrong answer")
    # The same keys night after night: one state, however long it lasts.
    assert {tuple(r.key for r in states[n].regressions) for n in (12, 13, 14)} == {
        ("lower-tier", SCENARIO_KEY)
    }
    assert states[FIX].regressions == ()


def test_an_unmeasured_night_is_a_regression_that_lasts_until_measured(
    store: HistoryStore,
) -> None:
    for n in range(1, 20):
        record(store, night_scorecard(n))
    record(store, night_scorecard(20, unmeasured=True))
    alone = _on(store, 20)
    assert alone.status == "regressed"
    assert [r.kind for r in alone.started] == ["unmeasured"]
    assert alone.unmeasured == ((R1, "server", 1),)
    record(store, night_scorecard(21, unmeasured=True))
    twice = _on(store, 21)
    (regression,) = twice.regressions
    assert twice.started == ()
    assert regression.kind == "unmeasured"
    assert (regression.since.timestamp.date(), regression.nights) == (day(20), 2)
    assert regression.message == NOT_READY
    assert twice.unmeasured == ((R1, "server", 2),)
    record(store, night_scorecard(22))
    assert (_on(store, 22).status, _on(store, 22).unmeasured) == ("ok", ())


def test_an_unmeasured_night_inside_a_regression_counts_as_a_night_it_lasted(
    store: HistoryStore,
) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    record(store, night_scorecard(13, unmeasured=True))
    record(store, night_scorecard(14, failing=[BROKEN]))
    assert [(r.key, r.nights) for r in _on(store, 14).regressions] == [
        ("lower-tier", 3),
        (SCENARIO_KEY, 3),
    ]


def test_the_nights_under_a_new_harness_are_compared_with_each_other(
    store: HistoryStore,
) -> None:
    new = "0.2.0-alpha.13"
    for n in range(1, 11):
        record(store, night_scorecard(n))
    record(store, night_scorecard(11, harness=new))
    assert _on(store, 11).status == "incomparable"
    record(store, night_scorecard(12, failing=[BROKEN], harness=new))
    state = _on(store, 12)
    assert sorted(r.key for r in state.started) == ["lower-tier", SCENARIO_KEY]
    assert not state.marked


def test_a_night_without_a_run_changes_nothing(store: HistoryStore) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    gap = _on(store, 13)  # nothing ran on night 13
    assert gap.night == day(12)
    assert gap == _on(store, 12)
    assert [r.nights for r in gap.regressions] == [1, 1]


def test_the_latest_run_of_a_night_counts_and_later_nights_are_not_seen(
    store: HistoryStore,
) -> None:
    for n in range(1, 12):
        record(store, night_scorecard(n))
    record(store, night_scorecard(12, failing=[BROKEN]))
    record(store, night_scorecard(12, minute=30))  # a re-run that passed
    assert _on(store, 12).status == "ok"
    record(store, night_scorecard(13, failing=[BROKEN]))
    assert _on(store, 12).status == "ok"  # night 13 is after the night asked
    assert _on(store, 13).status == "regressed"


def test_another_line_and_an_empty_history_have_no_state(store: HistoryStore) -> None:
    assert _state(store, 1) is None
    record(store, night_scorecard(1, line="other-sdk", failing=[BROKEN]))
    assert _state(store, 1) is None


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
    assert _on(store, 4).status == "ok"
