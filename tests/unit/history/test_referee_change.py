"""History across a referee change: two nights under different harness versions.

The line's nights (`support.notify_nights`) record their scenarios' definitions
(`support.referee_nights`). Night 12 moves the referee from 0.2.0-alpha.12 to .13, which adds
one server scenario (`extra-scenario-00`) and changes another (`server-scenario-07`'s checks);
`BROKEN` fails from night 3 on and is not changed. What is worked out by hand:

* night 12 is marked with the referee's sentence ("1 scenario added, 1 changed"), never a
  regression: `server-scenario-07` passed on night 11 and fails on night 12 (its checks
  changed), and no regression begins;
* `BROKEN`'s open regression and its failing streak carry across the change (since night 3);
* `server-scenario-07`'s streak begins on night 12; had the referee changed `BROKEN`, its
  streak (and so SEP-1730's clock) would begin again on night 12 too.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from pathlib import Path

from support.notify_nights import BROKEN, HARNESS, LINE, day, night_scorecard
from support.referee_nights import NEW, with_definitions
from support.referee_releases import answers
from tiercheck.comparison import LegOutcome, RunScenarios, ScenarioOutcome, referee_change
from tiercheck.history.analysis import RELEGATION_DAYS, current_streaks, relegation
from tiercheck.history.datafile import record_of_file, run_file_text
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.regression import line_states, night_end, timeline
from tiercheck.history.store import HistoryStore
from tiercheck.referee.bundle import BundleReading, read_bundle
from tiercheck.referee.definitions import definition_digest

CHANGED = "server-scenario-07"
ADDED = "extra-scenario-00"
CHANGE_NIGHT = 12
SENTENCE = (
    f"referee changed on {day(CHANGE_NIGHT)} (harness {HARNESS} → {NEW}): "
    "1 scenario added, 1 changed"
)


def _night(n: int, *, changed: tuple[str, ...] = (CHANGED,)) -> RunRecord:
    """Night `n`: `BROKEN` fails from night 3; from the change on, the new harness (which adds
    `ADDED` and changes `changed`) and `CHANGED` fails under it."""
    moved = n >= CHANGE_NIGHT
    failing = [BROKEN] if n >= 3 else []
    if moved:
        failing.append(CHANGED)
    doc = night_scorecard(
        n, failing=failing, harness=NEW if moved else HARNESS, extra=1 if moved else 0
    )
    return record_of(with_definitions(doc, changed if moved else ()))


def _runs(last: int, **kw: tuple[str, ...]) -> list[RunRecord]:
    return [_night(n, **kw) for n in range(1, last + 1)]


def test_the_change_is_said_and_nothing_it_changed_regresses() -> None:
    states = timeline(_runs(13))
    before, at, after = states[CHANGE_NIGHT - 2], states[CHANGE_NIGHT - 1], states[CHANGE_NIGHT]
    assert (before.referee, before.basis_change) == (None, ())
    assert at.referee is not None
    assert (at.referee.added, at.referee.changed, at.referee.unknown) == ((ADDED,), (CHANGED,), ())
    assert at.basis_change == (SENTENCE,)
    # The regressions open since night 3 (BROKEN, and Tier 1 → 2) stay open; none begins.
    assert at.started == ()
    assert [(r.key, r.since.timestamp.date()) for r in at.regressions] == [
        ("lower-tier", day(3)),
        (f"newly-failing:2025-11-25/server/{BROKEN}", day(3)),
    ]
    # The night after compares under one harness again: CHANGED was failing already.
    assert (after.referee, after.basis_change, after.started) == (None, (), ())
    assert line_states(_runs(13), as_of=night_end(day(CHANGE_NIGHT)))[LINE].referee == at.referee


def test_the_clock_carries_across_unless_the_failing_scenario_changed() -> None:
    streaks = {s.scenario: s for s in current_streaks(_runs(20))}
    assert streaks[BROKEN].first.timestamp.date() == day(3)  # carried across the change
    assert streaks[BROKEN].runs == 18
    assert streaks[CHANGED].first.timestamp.date() == day(CHANGE_NIGHT)  # its checks changed
    # Had the referee changed BROKEN, its clock would start again with the change.
    moved = {s.scenario: s for s in current_streaks(_runs(20, changed=(BROKEN, CHANGED)))}
    assert moved[BROKEN].first.timestamp.date() == day(CHANGE_NIGHT)
    assert moved[BROKEN].runs == 9


def test_relegation_is_due_four_weeks_after_the_streak_began_not_the_change() -> None:
    last = 3 + RELEGATION_DAYS  # night 31: four weeks after night 3
    runs = _runs(last)
    revisions = runs[-1].revisions
    (rule, _) = relegation(runs, revisions)
    assert (rule.rule, rule.status, rule.first and rule.first.timestamp.date()) == (
        "tier1-to-tier2",
        "relegation-due",
        day(3),
    )
    # The same nights with BROKEN changed by the referee: its clock began on night 12.
    (rule, _) = relegation(_runs(last, changed=(BROKEN, CHANGED)), revisions)
    assert rule.status == "at-risk"
    assert rule.due_on == date.fromordinal(day(CHANGE_NIGHT).toordinal() + RELEGATION_DAYS)


def test_a_definition_not_recorded_is_not_known_and_the_streak_carries() -> None:
    runs = _runs(14)
    runs[CHANGE_NIGHT - 2] = dataclasses.replace(runs[CHANGE_NIGHT - 2], definitions=None)
    at = timeline(runs)[CHANGE_NIGHT - 1]
    assert at.referee is not None
    assert at.referee.added == (ADDED,)
    assert at.referee.changed == ()
    assert len(at.referee.unknown) == 12  # every server and client scenario both nights list
    assert at.basis_change[0].endswith(
        "1 scenario added, 0 changed, 12 not known (definitions not recorded)"
    )
    streaks = {s.scenario: s for s in current_streaks(runs)}
    assert streaks[BROKEN].first.timestamp.date() == day(3)
    assert streaks[CHANGED].first.timestamp.date() == day(CHANGE_NIGHT)  # it passed before


def test_the_definitions_are_kept_by_the_database_and_the_data_file(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite")
    run = _night(CHANGE_NIGHT)
    assert run.definitions is not None
    assert len(run.definitions) == 13  # ten server scenarios, the added one, two client
    store.append(run, requirements_digest="r")
    (stored,) = store.runs(LINE)
    assert stored.definitions == run.definitions
    assert record_of_file(json.loads(run_file_text(run)), "run.json").definitions == (
        run.definitions
    )
    older = dataclasses.replace(_night(1), definitions=None)
    assert "definitions" not in json.loads(run_file_text(older))
    assert record_of_file(json.loads(run_file_text(older)), "old.json").definitions is None


def _form(reading: BundleReading) -> RunScenarios:
    """The server leg of a release as a run that ran every scenario it lists would record it."""
    listed = reading.scenarios["server"]
    return RunScenarios(
        harness_version=reading.version,
        legs=(LegOutcome("2025-11-25", "server", "measured"),),
        scenarios=tuple(
            ScenarioOutcome("2025-11-25", "server", name, "passed", True) for name in listed
        ),
        definitions={
            name: definition_digest(s.checks) for name, s in listed.items() if s.checks is not None
        },
    )


def test_the_recorded_releases_say_what_alpha_12_changed_on_the_server_leg() -> None:
    """alpha.11 → alpha.12 as recorded from the real releases (tests/support/referee): the
    server scenarios .12 lists first are added, and those whose checks differ changed."""
    old, new = (read_bundle(answers(v)) for v in ("0.2.0-alpha.11", "0.2.0-alpha.12"))
    change = referee_change(_form(old), _form(new))
    assert change is not None
    was, now = old.scenarios["server"], new.scenarios["server"]
    assert change.added == tuple(sorted(set(now) - set(was)))
    assert change.added  # .12 lists server scenarios .11 did not
    by_hand = sorted(
        name
        for name, s in now.items()
        if name in was and set(s.checks or ()) != set(was[name].checks or ())
    )
    assert list(change.changed) == by_hand
    assert "tools-list" in change.changed
    assert change.unknown == ()
    assert change.sentence("2026-08-04") == (
        "referee changed on 2026-08-04 (harness 0.2.0-alpha.11 → 0.2.0-alpha.12): "
        f"{len(change.added)} scenarios added, {len(by_hand)} changed"
    )
