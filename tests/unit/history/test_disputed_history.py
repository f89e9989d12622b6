"""A scenario disputed in the conformance repository is left out of everything SEP-1730 counts,
on the nights its dispute was open as each run recorded it, and counts again after.

Worked by hand. Fifty nights from 1 October 2026, each with a run of `main` at 03:00 and of
`stable` at 04:00. `tools-call-image` at 2025-11-25 (server) passes on nights 1-4 and fails on
every night from 5 on; its dispute is open on nights 10-40 and resolved from night 41. It is one
of R1's seven scored scenarios (1/7 = 14%, never over 20%), so only the Tier 1 → 2 rule moves:

* nights 5-9: a streak from night 5 (5 October), at risk, due 28 days later on 2 November;
* nights 10-40: no streak and no clock: clear (without the dispute, night 33 on would read
  "relegation due", the streak being from night 5);
* nights 41-50: it counts again, a new streak from night 41 (10 November), due 8 December.

The regression (passed on night 4, failing on night 5) opens on night 5 and ends on night 10,
when the dispute opens; the dispute's close on night 41 is no new failure.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import pytest

from support.nights import R1, REGRESSED, night, night_scorecard
from tiercheck.cli.app import main
from tiercheck.comparison import compare
from tiercheck.history.analysis import current_streaks, relegation_readings
from tiercheck.history.datafile import line_slug
from tiercheck.history.record import RunRecord, line_of, record_of
from tiercheck.history.regression import line_states, night_end, run_scenarios
from tiercheck.history.store import HistoryStore
from tiercheck.publish.site import build_site

NIGHTS = 50
FIRST_FAILURE = 5
DISPUTED = range(10, 41)
LINE = "go-sdk"


def _state(n: int) -> Literal["open", "resolved"] | None:
    if n in DISPUTED:
        return "open"
    return "resolved" if n > DISPUTED[-1] else None


def _run(n: int, *, stable: bool) -> RunRecord:
    state = _state(n)
    doc = night_scorecard(
        LINE,
        n,
        failing=[REGRESSED] if n >= FIRST_FAILURE else [],
        disputed={REGRESSED: state} if state else None,
    )
    if not stable:
        return record_of(dataclasses.replace(doc, sdk=dataclasses.replace(doc.sdk, ref="main")))
    moment = night(n) + timedelta(hours=1)
    return record_of(
        dataclasses.replace(
            doc,
            timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
            tiercheck=dataclasses.replace(doc.tiercheck, run_id=moment.strftime("%Y%m%dT%H%M%SZ")),
            sdk=dataclasses.replace(doc.sdk, ref="stable", tag="v1.4.0", commit="14" * 20),
        )
    )


RUNS = [_run(n, stable=stable) for n in range(1, NIGHTS + 1) for stable in (False, True)]


def _upto(n: int) -> list[RunRecord]:
    return [r for r in RUNS if r.timestamp <= night_end(night(n).date())]


def _tier1(rules: Sequence[Any]) -> tuple[str, str | None]:
    (rule,) = [r for r in rules if r.revision == R1 and r.rule == "tier1-to-tier2"]
    return rule.status, rule.due_on.isoformat() if rule.due_on else None


def _expected(n: int) -> tuple[str, str | None]:
    if n < FIRST_FAILURE or n in DISPUTED:
        return ("clear", None)
    return ("at-risk", "2026-11-02" if n < DISPUTED[0] else "2026-12-08")


def test_the_record_keeps_each_nights_dispute() -> None:
    row = next(s for s in _run(12, stable=True).scenarios if s.scenario == REGRESSED[2])
    assert row.dispute is not None
    assert (row.dispute.state, row.disputed, row.counts, row.passed) == ("open", True, False, False)
    later = next(s for s in _run(41, stable=True).scenarios if s.scenario == REGRESSED[2])
    assert (later.disputed, later.counts) == (False, True)


@pytest.mark.parametrize("n", [4, 5, 9, 10, 33, 35, 40, 41, 50])
def test_the_clock_and_the_early_warning_skip_the_disputed_nights(n: int) -> None:
    readings = relegation_readings(_upto(n), (R1,))
    assert _tier1(readings.verdict) == _expected(n)
    assert _tier1(readings.early_warning) == _expected(n)


def test_no_streak_runs_through_a_dispute() -> None:
    stable = [r for r in _upto(35) if r.series == "stable"]
    assert current_streaks(stable) == []
    (streak,) = current_streaks([r for r in _upto(45) if r.series == "stable"])
    assert (streak.first.timestamp.date().isoformat(), streak.runs) == ("2026-11-10", 5)


def test_the_regression_ends_when_the_dispute_opens_and_none_begins_when_it_closes() -> None:
    def status(n: int) -> str:
        return line_states(_upto(n), as_of=night_end(night(n).date()))[f"{LINE}@stable"].status

    assert [status(n) for n in (4, 5, 9, 10, 35, 41, 50)] == [
        "ok",
        "regressed",
        "regressed",
        "ok",
        "ok",
        "ok",
        "ok",
    ]
    # The one rule names what happened between nights 9 and 10, and 40 and 41.
    nine, ten, forty, forty_one = (_run(n, stable=True) for n in (9, 10, 40, 41))
    opened = compare(run_scenarios(nine), run_scenarios(ten))
    assert [c.kind for c in opened.changes] == ["newly-disputed"]
    assert not opened.regressed
    closed = compare(run_scenarios(forty), run_scenarios(forty_one))
    assert [c.kind for c in closed.changes] == ["dispute-resolved"]
    assert not closed.regressed


def test_history_reports_no_clock_over_the_disputed_nights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "history.sqlite"
    HistoryStore(db).append_many(RUNS)
    for n, want in ((9, ("at-risk", "2026-11-02")), (35, ("clear", None))):
        stamp = night_end(night(n).date()).strftime("%Y-%m-%dT%H:%M:%SZ")
        argv = ["history", "--sdk", LINE, "--history", str(db), "--output", "json"]
        assert main([*argv, "--as-of", stamp]) == 0
        data = json.loads(capsys.readouterr().out)
        for key in ("relegation", "early_warning"):
            (found,) = [
                r for r in data[key] if r["revision"] == R1 and r["rule"] == "tier1-to-tier2"
            ]
            assert (found["status"], found["due_on"]) == want, (n, key)
        assert main([*argv[:-2], "--as-of", stamp]) == 0
        assert ("relegation due" in capsys.readouterr().out.lower()) is False


def test_the_dashboard_and_its_api_show_no_clock_over_the_disputed_nights(tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_site(_upto(35), site)
    for line in (LINE, f"{LINE}@stable"):
        slug = line_slug(line)
        data = json.loads((site / "api" / "v1" / "lines" / f"{slug}.json").read_text("utf-8"))
        statuses = {(c["rule"], c["status"]) for c in (*data["clock"], *data["early_warning"])}
        assert not {s for _, s in statuses} & {"at-risk", "relegation-due"}, (line, statuses)
        page = (site / "lines" / f"{slug}.html").read_text("utf-8")
        assert "relegation due" not in page.lower()
    index = json.loads((site / "api" / "v1" / "index.json").read_text("utf-8"))
    assert {x["status"] for x in index["lines"]} == {"ok"}
    assert line_of(_run(35, stable=True)) == f"{LINE}@stable"
