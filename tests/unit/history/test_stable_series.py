"""SEP-1730's relegation clock reads the runs of the latest stable release (the ref `stable`);
the default branch's runs are an early warning beside it, never the verdict.

Five weeks of nights (1 October to 4 November 2026), each with a run of `main` at 03:00 and a
run of `stable` (tag v1.4.0) at 04:00. Worked by hand: a streak that begins on night 1
(1 October) is due 28 days later, on 29 October; night 35 (4 November) is past it. The failing
scenario is one of R1's seven scored ones (1/7 = 14%, not over 20%), so only the Tier 1 → 2
rule moves.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

from support.browser import Text
from support.nights import R1, R2, REGRESSED, night, night_scorecard
from support.schema_check import conforms
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.html import render_line
from tiercheck.dashboard.model import LineHistory
from tiercheck.history.analysis import current_streaks, relegation_readings
from tiercheck.history.record import RunRecord, line_of, record_of
from tiercheck.history.regression import line_states
from tiercheck.history.render import render_markdown as history_markdown
from tiercheck.history.render import render_terminal as history_terminal
from tiercheck.history.report import history_report
from tiercheck.history.section import history_block
from tiercheck.model import from_json, to_json
from tiercheck.scorecard.history_text import relegation_line
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import render_json
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

SCHEMAS = Path(__file__).resolve().parents[3] / "tiercheck" / "schemas"

NIGHTS = 35
SCENARIO = f"{REGRESSED[1]}/{REGRESSED[2]}"


def _run(n: int, *, stable: bool, failing: bool) -> RunRecord:
    doc = night_scorecard("go-sdk", n, failing=[REGRESSED] if failing else [])
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


def _nights(*, main_fails: bool, stable_fails: bool) -> list[RunRecord]:
    runs = []
    for n in range(1, NIGHTS + 1):
        runs.append(_run(n, stable=False, failing=main_fails))
        runs.append(_run(n, stable=True, failing=stable_fails))
    return runs


def _by_rule(rules: tuple[object, ...]) -> dict[tuple[str, str], tuple[str, str | None]]:
    return {
        (r.revision, r.rule): (r.status, r.due_on.isoformat() if r.due_on else None)  # type: ignore[attr-defined]
        for r in rules
    }


CLEAR = {
    (R1, "tier1-to-tier2"): ("clear", None),
    (R1, "tier2-to-tier3"): ("clear", None),
    (R2, "tier1-to-tier2"): ("clear", None),
    (R2, "tier2-to-tier3"): ("clear", None),
}
DUE = {**CLEAR, (R1, "tier1-to-tier2"): ("relegation-due", "2026-10-29")}


def test_the_series_is_read_from_the_requested_ref() -> None:
    main, stable = _run(1, stable=False, failing=False), _run(1, stable=True, failing=False)
    assert (main.series, stable.series) == ("branch", "stable")
    assert (line_of(main), line_of(stable)) == ("go-sdk", "go-sdk@stable")
    # A run stored before the series existed (no ref, or any other ref) is a branch run.
    assert dataclasses.replace(main, ref=None).series == "branch"
    assert dataclasses.replace(main, ref="v1.4.0").series == "branch"


def test_main_failing_five_weeks_while_stable_passes_is_no_relegation() -> None:
    runs = _nights(main_fails=True, stable_fails=False)
    readings = relegation_readings(runs, (R1, R2))
    assert _by_rule(readings.verdict) == CLEAR
    assert {r.series for r in readings.verdict} == {"stable"}
    # The early warning: main's streak began on night 1 and is past four weeks.
    assert _by_rule(readings.early_warning) == DUE
    (warned,) = [r for r in readings.early_warning if r.status != "clear"]
    assert (warned.series, warned.first.timestamp, warned.scenarios) == (  # type: ignore[union-attr]
        "branch",
        night(1),
        (SCENARIO,),
    )

    # The scorecard of tonight's stable run: its own series is green; the clock is clear and
    # the early warning is shown, worded as one.
    block = history_block(runs[:-1], runs[-1], database=None)
    assert block.streaks == ()
    assert [(r.status, r.series) for r in block.relegation] == [("clear", "stable")] * 4
    (shown,) = [r for r in block.early_warning if r.status != "clear"]
    assert relegation_line(shown) == (
        f"{R1} early warning (default branch, not the verdict): Tier 1 → 2 (any required test "
        "failing 4 weeks): would be due since 2026-10-01T03:00:00Z (commit 010101010101), "
        f"4 weeks on 2026-10-29 — {SCENARIO}"
    )
    # The scorecard of tonight's main run: main's own streak, and the same clock.
    main_block = history_block(runs[:-2], runs[-2], database=None)
    assert [(s.scenario, s.runs, s.days) for s in main_block.streaks] == [
        (REGRESSED[2], NIGHTS, 34.0)
    ]
    assert _by_rule(tuple(relegation_readings(runs[:-1], (R1, R2)).verdict)) == CLEAR
    assert [r.status for r in main_block.relegation] == ["clear"] * 4

    # The dashboard: two lines, each page with the stable clock clear and the early warning.
    dashboard = build_dashboard(runs)
    assert [s.line for s in dashboard.index.lines] == ["go-sdk", "go-sdk@stable"]
    for history in dashboard.lines.values():
        assert {(c.status, c.series) for c in history.clock} == {("clear", "stable")}
        assert {(c.status, c.series) for c in history.early_warning if c.status != "clear"} == {
            ("relegation-due", "branch")
        }
    assert {h.line: h.series for h in dashboard.lines.values()} == {
        "go-sdk": "branch",
        "go-sdk@stable": "stable",
    }
    # notify: one state per series, so main's failures never touch the stable line's issue.
    assert set(line_states(runs)) == {"go-sdk", "go-sdk@stable"}
    assert line_states(runs)["go-sdk@stable"].run.ref == "stable"


def test_stable_failing_five_weeks_while_main_passes_runs_the_clock_past_four_weeks() -> None:
    runs = _nights(main_fails=False, stable_fails=True)
    readings = relegation_readings(runs, (R1, R2))
    assert _by_rule(readings.verdict) == DUE
    (due,) = [r for r in readings.verdict if r.status != "clear"]
    assert due.first is not None
    assert due.first.timestamp == night(1) + timedelta(hours=1)  # the first stable run
    assert due.first.ref == "stable"
    assert _by_rule(readings.early_warning) == CLEAR
    # On night 28 (28 October) the streak is 27 days old: at risk, due the next day.
    on_28 = relegation_readings(runs, (R1, R2), as_of=night(28) + timedelta(hours=2))
    assert _by_rule(on_28.verdict)[(R1, "tier1-to-tier2")] == ("at-risk", "2026-10-29")

    block = history_block(runs[:-2], runs[-2], database=None)  # tonight's main run
    assert block.streaks == ()  # main is green
    (shown,) = [r for r in block.relegation if r.status != "clear"]
    assert relegation_line(shown) == (
        f"{R1} Tier 1 → 2 (any required test failing 4 weeks): RELEGATION DUE since "
        "2026-10-01T04:00:00Z (commit 141414141414), relegation on 2026-10-29 — "
        f"{SCENARIO}"
    )
    dashboard = build_dashboard(runs)
    for history in dashboard.lines.values():
        due_now = [c for c in history.clock if c.status == "relegation-due"]
        assert [(c.revision, c.due_on, c.days_left, c.series) for c in due_now] == [
            (R1, "2026-10-29", 0, "stable")
        ]


def test_without_a_stable_run_the_clock_says_no_stable_release_was_assessed() -> None:
    # Five weeks of main failing, and no run of @stable: the clock cannot be read. It is
    # neither clear nor "unmeasured" (nothing was tried at @stable): no stable release was
    # assessed yet, and every place says how to start it.
    runs = [_run(n, stable=False, failing=True) for n in range(1, NIGHTS + 1)]
    readings = relegation_readings(runs, (R1,))
    assert [(r.rule, r.status) for r in readings.verdict] == [
        ("tier1-to-tier2", "no-stable-run"),
        ("tier2-to-tier3", "no-stable-run"),
    ]
    hint = "(run tier-check --sdk go-sdk@stable to start the clock)"
    tier1 = f"{R1} Tier 1 → 2 (any required test failing 4 weeks)"

    # The scorecard's history section (its formats do not know the SDK's name: NAME).
    block = history_block(runs[:-1], runs[-1], database=None)
    assert relegation_line(block.relegation[0]) == (
        f"{tier1}: no stable release assessed yet (run tier-check --sdk NAME@stable to start the "
        "clock)"
    )
    assert relegation_line(block.relegation[0], sdk="go-sdk") == (
        f"{tier1}: no stable release assessed yet {hint}"
    )
    doc = dataclasses.replace(_scorecard(NIGHTS), history=block)
    for text in (
        " ".join(render_terminal(doc, color=False, width=400).split()),
        render_markdown(doc),
        render_html(doc),
    ):
        assert "no stable release assessed yet" in text
        assert "unmeasured (" not in text
    conforms(json.loads(render_json(doc)), _schema("scorecard"))

    # `tier-check history`: the same words, with the SDK's own command.
    report = history_report(
        runs, sdk="go-sdk", database="h", as_of=night(NIGHTS) + timedelta(hours=1), since=None
    )
    assert [r.status for r in report.relegation] == ["no-stable-run"] * 4
    terminal = history_terminal(report)
    assert f"  {tier1}: no stable release assessed yet {hint}\n" in terminal
    assert "unmeasured" not in terminal.split("relegation (SEP-1730):")[1]
    assert f"- {tier1}: no stable release assessed yet {hint}" in history_markdown(report)

    # The dashboard: the line page's clock, and api/v1.
    dashboard = build_dashboard(runs)
    (summary,) = dashboard.index.lines
    history = dashboard.lines[summary.slug]
    assert {(c.status, c.series) for c in history.clock} == {("no-stable-run", "stable")}
    data = to_json(history)
    conforms(data, _schema("dashboard_line"))
    assert {c["status"] for c in data["clock"]} == {"no-stable-run"}
    page = render_line(summary, history)
    clock = page.split('id="clock"')[1].split("</table>")[0]
    assert clock.count(">?</span> no stable release assessed yet<") == 4  # symbol and words
    assert "unmeasured" not in clock
    assert _ids(page)["clock-no-stable-run"] == (
        "No stable release of go-sdk assessed yet: the clock starts with its first run at its "
        "latest stable release tag, tier-check --sdk go-sdk@stable (the nightly: tier-check "
        "matrix plan --all --stable)."
    )


def test_an_unmeasured_clock_written_before_no_stable_run_still_loads_and_reads() -> None:
    # A line document and a scorecard published before `no-stable-run` existed said
    # "unmeasured" for a clock with no stable run: they load as they are, and read truly.
    runs = [_run(n, stable=False, failing=True) for n in range(1, 3)]
    dashboard = build_dashboard(runs)
    (summary,) = dashboard.index.lines
    data = to_json(dashboard.lines[summary.slug])
    for entry in data["clock"]:
        entry["status"] = "unmeasured"
    conforms(data, _schema("dashboard_line"))
    old = from_json(LineHistory, data)
    assert {c.status for c in old.clock} == {"unmeasured"}
    page = render_line(summary, old)
    clock = page.split('id="clock"')[1].split("</table>")[0]
    assert clock.count(">?</span> unmeasured<") == 4
    assert 'id="clock-no-stable-run"' not in page

    block = history_block(runs[:-1], runs[-1], database=None)
    written = json.loads(render_json(dataclasses.replace(_scorecard(2), history=block)))
    for rule in written["history"]["relegation"]:
        rule["status"] = "unmeasured"
    conforms(written, _schema("scorecard"))
    loaded = from_json(Scorecard, written)
    assert loaded.history is not None
    assert relegation_line(loaded.history.relegation[0]) == (
        f"{R1} Tier 1 → 2 (any required test failing 4 weeks): unmeasured (the latest stable "
        "release, @stable, was not measured)"
    )


def _scorecard(n: int) -> Scorecard:
    return night_scorecard("go-sdk", n, failing=[REGRESSED])


def _schema(name: str) -> Any:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))


def _ids(html: str) -> dict[str, str]:
    """The text of every element of the page that has an id."""
    text = Text()
    text.feed(html)
    return text.ids


def test_the_readings_from_each_series_streaks_are_the_readings_worked_out() -> None:
    # The dashboard hands each series' streaks (its line's) to the SDK's readings.
    for main_fails, stable_fails in ((False, True), (True, False), (True, True)):
        runs = _nights(main_fails=main_fails, stable_fails=stable_fails)
        streaks = {
            series: current_streaks([r for r in runs if line_of(r) == line])
            for series, line in (("branch", "go-sdk"), ("stable", "go-sdk@stable"))
        }
        assert any(streaks.values())
        given = relegation_readings(runs, (R1, R2), streaks=streaks)  # type: ignore[arg-type]
        assert given == relegation_readings(runs, (R1, R2))
