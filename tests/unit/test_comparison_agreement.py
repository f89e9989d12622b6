"""The diff, the claim, the matrix and the history agree about the same two runs.

Each pair below is two scorecards of the Tier 1 SDK (`support.scorecards`), the newer one a
day later, with one hand-made change. Each of the four is handed the pair in its own input
form — the scorecards themselves (the diff), the claim's `Previous` and scorecard (the claim),
matrix rows built from them (the matrix), the history's `RunRecord`s (the history and the
dashboard) — and what it publishes, as well as what its own inputs compare to by
`tiercheck.comparison`, must be the hand-written expectation of that row.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from support.matrices import matrix, row
from support.scorecards import R1, R2, edited, tier1_scorecard, with_regression
from tiercheck.claim.changes import compare as claim_compare
from tiercheck.claim.changes import from_scorecard, leg_states, scenario_states
from tiercheck.claim.changes import run_scenarios as claim_scenarios
from tiercheck.comparison import Comparison, compare
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.grid import runs_by_line
from tiercheck.dashboard.nightdiff import KINDS, build_nights
from tiercheck.history.analysis import changes as history_changes
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.regression import run_scenarios as history_scenarios
from tiercheck.history.regression import timeline
from tiercheck.matrix.build import run_scenarios as matrix_scenarios
from tiercheck.scorecard.diff import diff_scorecards
from tiercheck.scorecard.diff import run_scenarios as diff_scenarios
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import unmeasured_leg

Key = tuple[str, str, str]
ROW = "example-sdk@main"
NEW_HARNESS = "0.2.0-alpha.12"
ADDED = "server-session-lifecycle"


@dataclass(frozen=True)
class Expected:
    """What changed, by hand: (kind, revision, leg, scenario) of each classified scenario, the
    legs newly unmeasured and measured again, and whether the harness differed."""

    changes: frozenset[tuple[str, str, str, str]] = frozenset()
    legs_unmeasured: frozenset[tuple[str, str]] = frozenset()
    legs_measured_again: frozenset[tuple[str, str]] = frozenset()
    incomparable: bool = False
    #: The claim's `other` lists every scored scenario of a leg that changed state.
    leg_scenarios: frozenset[Key] = frozenset()

    def keys(self, *kinds: str) -> set[Key]:
        return {(r, leg, s) for k, r, leg, s in self.changes if k in kinds}


def _clean() -> Scorecard:
    return tier1_scorecard()


def _failing() -> Scorecard:
    return with_regression(R2, "server", "tools-list", "tools/list returned 0 tools")


def _client_lost() -> Scorecard:
    lost = unmeasured_leg("client", R2, "server never became ready on port 41236")
    return tier1_scorecard(replace_legs={(R2, "client"): lost})


def _with_added() -> Scorecard:
    def change(data: dict[str, Any]) -> None:
        details = data["revisions"][R1]["server"]["details"]
        details.append(
            copy.deepcopy(details[0])
            | {
                "scenario": ADDED,
                "passed": False,
                "failures": [
                    {
                        "id": "lifecycle",
                        "status": "FAILURE",
                        "message": "no DELETE",
                        "spec_url": None,
                    }
                ],
            }
        )

    return edited(_clean(), change)


def _unscored(doc: Scorecard) -> Scorecard:
    def change(data: dict[str, Any]) -> None:
        data["revisions"][R1]["server"]["details"][0]["notScoredReason"] = "pending"

    return edited(doc, change)


def _init_failing() -> Scorecard:
    return with_regression(R1, "server", "server-initialize", "boom")


def _other_harness(doc: Scorecard) -> Scorecard:
    return edited(doc, lambda d: d["harness"].update(version=NEW_HARNESS))


CLIENT_R2 = frozenset({(R2, "client", "tools_call"), (R2, "client", "request-metadata")})

#: name → (older scorecard, newer scorecard, expectation); worked out from TIER1_SCENARIOS.
CASES: dict[str, tuple[Callable[[], Scorecard], Callable[[], Scorecard], Expected]] = {
    "newly failing": (
        _clean,
        _failing,
        Expected(changes=frozenset({("newly-failing", R2, "server", "tools-list")})),
    ),
    "fixed": (
        _failing,
        _clean,
        Expected(changes=frozenset({("fixed", R2, "server", "tools-list")})),
    ),
    "newly unmeasured": (
        _clean,
        _client_lost,
        Expected(legs_unmeasured=frozenset({(R2, "client")}), leg_scenarios=CLIENT_R2),
    ),
    "measured again": (
        _client_lost,
        _clean,
        Expected(legs_measured_again=frozenset({(R2, "client")}), leg_scenarios=CLIENT_R2),
    ),
    "added (failing)": (
        _clean,
        _with_added,
        Expected(changes=frozenset({("added", R1, "server", ADDED)})),
    ),
    "removed": (
        _with_added,
        _clean,
        Expected(changes=frozenset({("removed", R1, "server", ADDED)})),
    ),
    "no longer scored": (
        _clean,
        lambda: _unscored(_clean()),
        Expected(changes=frozenset({("no-longer-scored", R1, "server", "server-initialize")})),
    ),
    "newly scored, failing": (
        lambda: _unscored(_clean()),
        _init_failing,
        Expected(changes=frozenset({("newly-scored", R1, "server", "server-initialize")})),
    ),
    "incomparable harness": (
        _clean,
        lambda: _other_harness(_failing()),
        Expected(incomparable=True),
    ),
    "incomparable harness, a leg lost": (
        _clean,
        lambda: _other_harness(_client_lost()),
        Expected(
            incomparable=True, legs_unmeasured=frozenset({(R2, "client")}), leg_scenarios=CLIENT_R2
        ),
    ),
}


def _later(doc: Scorecard) -> Scorecard:
    """The same scorecard a day later, as the next run."""

    def change(data: dict[str, Any]) -> None:
        data["timestamp"] = "2026-08-21T09:15:00Z"
        data["tiercheck"]["run_id"] = "20260821T091500Z"

    return edited(doc, change)


def _pair(name: str) -> tuple[Scorecard, Scorecard, Expected]:
    old, new, expected = CASES[name]
    return old(), _later(new()), expected


def _project(found: Comparison) -> Expected:
    return Expected(
        changes=frozenset((c.kind, c.revision, c.leg, c.scenario) for c in found.changes),
        legs_unmeasured=frozenset((x.revision, x.leg) for x in found.legs_newly_unmeasured),
        legs_measured_again=frozenset((x.revision, x.leg) for x in found.legs_measured_again),
        incomparable=found.incomparable,
    )


def _bare(expected: Expected) -> Expected:
    return Expected(
        changes=expected.changes,
        legs_unmeasured=expected.legs_unmeasured,
        legs_measured_again=expected.legs_measured_again,
        incomparable=expected.incomparable,
    )


def _records(old: Scorecard, new: Scorecard) -> tuple[RunRecord, RunRecord]:
    return record_of(old), record_of(new)


def _keys(changes: Any) -> set[Key]:
    return {(c.revision, c.leg, c.scenario) for c in changes}


@pytest.mark.parametrize("name", list(CASES))
def test_every_callers_own_inputs_compare_to_the_expectation(name: str) -> None:
    old, new, expected = _pair(name)
    previous = from_scorecard(old, (), "old.json")
    first = matrix(row(ROW, old))
    second = matrix(row(ROW, new), previous=first)
    one, two = _records(old, new)
    compared = {
        "diff": compare(diff_scenarios(old), diff_scenarios(new)),
        "claim": compare(
            claim_scenarios(previous.harness_version, previous.legs, previous.scenarios),
            claim_scenarios(new.harness.version, leg_states(new), scenario_states(new)),
        ),
        "matrix": compare(matrix_scenarios(first.rows[0]), matrix_scenarios(second.rows[0])),
        "history": compare(history_scenarios(one), history_scenarios(two)),
    }
    assert {k: _project(v) for k, v in compared.items()} == dict.fromkeys(compared, _bare(expected))


@pytest.mark.parametrize("name", list(CASES))
def test_the_diff_says_so(name: str) -> None:
    old, new, expected = _pair(name)
    diff = diff_scorecards(old, new)
    assert _keys(diff.regressions) == expected.keys("newly-failing")
    assert _keys(diff.fixed) == expected.keys("fixed")
    assert _keys(diff.added) == expected.keys("added")
    assert _keys(diff.removed) == expected.keys("removed")
    assert _keys(diff.newly_scored) == expected.keys("newly-scored")
    assert _keys(diff.no_longer_scored) == expected.keys("no-longer-scored")
    assert {(c.revision, c.leg) for c in diff.newly_unmeasured} == expected.legs_unmeasured
    assert {(c.revision, c.leg) for c in diff.newly_measured} == expected.legs_measured_again
    assert diff.incomparable is expected.incomparable


@pytest.mark.parametrize("name", list(CASES))
def test_the_claim_says_so(name: str) -> None:
    old, new, expected = _pair(name)
    changes = claim_compare(from_scorecard(old, (), "old.json"), (), new)
    assert _keys(changes.now_failing) == expected.keys("newly-failing")
    assert _keys(changes.now_passing) == expected.keys("fixed")
    # The claim lists scored scenarios: its added and removed take in the rescored ones.
    assert _keys(changes.added) == expected.keys("added", "newly-scored")
    assert _keys(changes.removed) == expected.keys("removed", "no-longer-scored")
    assert _keys(changes.other) == expected.keys("newly-unmeasured", "measured-again") | set(
        expected.leg_scenarios
    )
    assert changes.incomparable is expected.incomparable


@pytest.mark.parametrize("name", list(CASES))
def test_the_matrix_says_so(name: str) -> None:
    old, new, expected = _pair(name)
    changes = matrix(row(ROW, new), previous=matrix(row(ROW, old))).changes
    assert changes is not None
    assert _keys(changes.new_failures) == expected.keys("newly-failing")
    assert _keys(changes.fixes) == expected.keys("fixed")
    assert changes.incomparable == ((ROW,) if expected.incomparable else ())


@pytest.mark.parametrize("name", list(CASES))
def test_the_history_and_the_dashboard_say_so(name: str) -> None:
    old, new, expected = _pair(name)
    one, two = _records(old, new)
    state = timeline([one, two])[1]
    started = {
        (r.revision or "", r.leg or "", r.scenario or "")
        for r in state.started
        if r.kind == "newly-failing"
    }
    assert started == expected.keys("newly-failing")
    # One unmeasured night is a warning, not yet a regression.
    assert {(rev, leg) for rev, leg, _ in state.unmeasured} == expected.legs_unmeasured
    moved = history_changes(one, two)
    assert {k for k, was, now in moved if was and not now} == expected.keys("newly-failing")
    assert {k for k, was, now in moved if now and not was} == expected.keys("fixed")
    last = build_dashboard([one, two]).index.lines[0].last_night
    assert set(last.newly_failing) == {"/".join(k) for k in expected.keys("newly-failing")}
    assert set(last.fixed) == {"/".join(k) for k in expected.keys("fixed")}
    assert set(last.newly_unmeasured) == {"/".join(w) for w in expected.legs_unmeasured}


@pytest.mark.parametrize("name", list(CASES))
def test_the_night_against_night_says_so(name: str) -> None:
    old, new, expected = _pair(name)
    one, two = _records(old, new)
    _, nights = build_nights(runs_by_line([one, two]))
    night = nights[two.timestamp.date().isoformat()].lines[0]
    assert night.previous_run == one.run_id
    found = {
        (kind.replace("_", "-"), e.revision, e.leg, e.scenario)
        for kind in KINDS
        for e in getattr(night, kind)
    }
    assert found == set(expected.changes)
    assert {(x.revision, x.leg) for x in night.legs_newly_unmeasured} == expected.legs_unmeasured
    assert {(x.revision, x.leg) for x in night.legs_measured_again} == (
        expected.legs_measured_again
    )
    assert night.comparable is not expected.incomparable
