"""A scenario flaky within one run (failed beside other work, passed by itself) is one flip of
the history's flaky view, kept through the database and a data folder's run file alike."""

from __future__ import annotations

import json
from pathlib import Path

from support.scorecards import (
    R1,
    check,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    spec_tracking,
    triage,
)
from tiercheck.history.analysis import flaky_scenarios
from tiercheck.history.datafile import record_of_file, run_file_text
from tiercheck.history.record import record_of
from tiercheck.history.store import HistoryStore
from tiercheck.revisions import Leg
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import LegVerdict, confirm_failure, with_confirmations


def _server(*, flaky: bool) -> LegVerdict:
    """The server leg at R1: `b` failed beside other work; by itself it passed (`flaky`) or
    failed again."""
    leg = measured_leg(
        R1, "server", [scenario("a"), scenario("b", passed=False, failing=[check("b-1", "late")])]
    )
    first = next(d for d in leg.details if d.scenario == "b")
    alone = next(d for d in measured_leg(R1, "server", [scenario("b")]).details)
    again = first if not flaky else alone
    return with_confirmations(leg, [confirm_failure(first, again, duration_s=2.0)])


def _doc(*, flaky: bool) -> Scorecard:
    client = measured_leg(R1, "client", [scenario("initialize")])
    legs: dict[str, dict[Leg, LegVerdict]] = {
        R1: {"server": _server(flaky=flaky), "client": client}
    }
    signals = {
        "labels": labels(),
        "triage": triage(),
        "p0_resolution": p0(),
        "stable_release": release("2.1.0"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(3, "2.1.0"),
    }
    return scorecard(legs=legs, signals=signals, tier=implied(1, []))


def test_a_flaky_scenario_is_one_flip_and_survives_every_store(tmp_path: Path) -> None:
    record = record_of(_doc(flaky=True))
    rows = {r.scenario: r for r in record.scenarios}
    assert rows["b"].flaky is True
    assert rows["b"].passed is True  # counted as the run by itself judged it
    assert rows["a"].flaky is None
    (found,) = flaky_scenarios([record])
    assert (found.scenario, found.flips) == ("b", 1)
    # The database keeps it.
    store = HistoryStore(tmp_path / "h.sqlite")
    assert store.append(record)
    (stored,) = store.runs()
    assert {r.scenario: r.flaky for r in stored.scenarios}["b"] is True
    assert [(f.scenario, f.flips) for f in flaky_scenarios([stored])] == [("b", 1)]
    # A data folder's run file keeps it, and leaves it out where it is not so.
    text = run_file_text(record)
    read = record_of_file(json.loads(text), "run.json")
    assert {r.scenario: r.flaky for r in read.scenarios} == {
        "a": None,
        "b": True,
        "initialize": None,
    }


def test_a_failure_that_came_back_is_no_flip() -> None:
    record = record_of(_doc(flaky=False))
    rows = {r.scenario: r for r in record.scenarios}
    assert rows["b"].passed is False
    assert rows["b"].flaky is None
    assert flaky_scenarios([record]) == []
