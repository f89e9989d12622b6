"""A run that measured nothing (exit 3) is an unmeasured night: recorded, shown without a tier,
and never the run the next one is compared with.

Worked by hand: night 1 measures every leg and passes (Tier 1); night 2's server legs never
became ready and nothing else ran (every leg unmeasured: exit 3); night 3 measures every leg
again, `tools-call-image` failing (Tier 2).
"""

from __future__ import annotations

import dataclasses

from support.browser import Text
from support.nights import R1, R2, REGRESSED, night_scorecard
from tiercheck.comparison import starts_comparisons
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.html import render_line
from tiercheck.history.analysis import series
from tiercheck.history.record import RunRecord, record_of
from tiercheck.history.regression import run_scenarios, timeline
from tiercheck.history.section import history_block
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.readings import measured_nothing

EVERY_LEG = [(r, leg) for r in (R1, R2) for leg in ("server", "client")]


def _nothing(n: int) -> Scorecard:
    doc = night_scorecard("x", n, unmeasured=EVERY_LEG, tier=3)
    return dataclasses.replace(doc, exit_code=3)


def _nights() -> list[RunRecord]:
    return [
        record_of(night_scorecard("x", 1)),
        record_of(_nothing(2)),
        record_of(night_scorecard("x", 3, failing=[REGRESSED], tier=2)),
    ]


def test_the_record_says_nothing_was_measured_and_has_no_tier() -> None:
    one, two, three = _nights()
    assert measured_nothing(_nothing(2))
    assert (one.nothing_measured, two.nothing_measured, three.nothing_measured) == (
        False,
        True,
        False,
    )
    assert (one.assessed_tier, two.assessed_tier, three.assessed_tier) == (1, None, 2)
    assert [starts_comparisons(run_scenarios(r)) for r in (one, two, three)] == [True, False, True]


def test_the_next_run_is_compared_with_the_last_that_measured_something() -> None:
    one, two, three = _nights()
    block = history_block([one, two], three, database=None)
    assert block.previous is not None
    assert block.previous.run_id == one.run_id
    # Night 1 → 3: tools-call-image passed, now fails.
    assert [(c.scenario, c.before, c.after) for c in block.changes] == [
        (REGRESSED[2], "pass", "fail")
    ]
    assert [p.tier for p in block.trend] == [1, None, 2]
    assert [p.tier_changed for p in series([one, two, three])] == [False, False, True]


def test_the_timeline_reads_it_as_an_unmeasured_night() -> None:
    one, two, three = _nights()
    states = timeline([one, two, three])
    # Night 2: every leg measured before is unmeasured: each an unmeasured regression; no tier.
    assert states[1].previous is not None
    assert states[1].previous.run_id == one.run_id
    assert sorted(r.key for r in states[1].started) == sorted(
        f"unmeasured:{r}/{leg}" for r, leg in EVERY_LEG
    )
    assert not any(r.kind == "lower-tier" for r in states[1].regressions)
    # Night 3 is compared with night 1: the legs are measured again, the scenario newly fails
    # and the tier dropped 1 → 2.
    assert states[2].previous is not None
    assert states[2].previous.run_id == one.run_id
    assert sorted(r.key for r in states[2].regressions) == sorted(
        ["lower-tier", f"newly-failing:{REGRESSED[0]}/{REGRESSED[1]}/{REGRESSED[2]}"]
    )


def test_the_line_page_and_its_api_show_the_night_without_a_tier() -> None:
    runs = _nights()[:2]  # the latest run measured nothing
    dashboard = build_dashboard(runs)
    (summary,) = dashboard.index.lines
    history = dashboard.lines[summary.slug]
    assert summary.tier is None
    assert [r.tier for r in history.runs] == [1, None]
    assert summary.last_night.tier_after is None
    assert history.tier_changes == ()
    page = Text()
    page.feed(render_line(summary, history))
    assert "x: not assessed" in "".join(page.text)
    assert "not assessed: nothing was measured" in page.ids["recent-runs"]
    assert "nothing was measured (not assessed): 2025-11-25 server:" in page.ids["unmeasured"]
