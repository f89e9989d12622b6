"""The dashboard's documents from the run history (pure): one pass over each line's runs.

Everything here is a function of the runs (and of which pages the site publishes beside them),
never of the clock: the same history builds the same documents, byte for byte once written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from tiercheck.comparison import compare, leg_measured
from tiercheck.dashboard.model import (
    API_VERSION,
    ClockEntry,
    DashboardIndex,
    FailurePeriod,
    LastNight,
    LegSummary,
    LineHistory,
    LineLinks,
    LineSummary,
    RegressionEntry,
    RunEntry,
    ScenarioFailing,
    ScenarioIndex,
    ScenarioLine,
    ScenarioPage,
    ScenarioRef,
    ScenarioState,
    TierChangeEntry,
)
from tiercheck.history.analysis import (
    Flaky,
    Relegation,
    RelegationReadings,
    Streak,
    current_streaks,
    flaky_scenarios,
    relegation_readings,
)
from tiercheck.history.datafile import line_slug
from tiercheck.history.record import (
    SERIES,
    RunRecord,
    ScenarioRow,
    Series,
    line_of,
    run_key,
    series_line,
)
from tiercheck.history.regression import NightState, Regression, run_scenarios, timeline
from tiercheck.history.section import stamp, streak_entry
from tiercheck.history.unaddressed import latest_ground
from tiercheck.scorecard.model import HistoryFlaky, HistoryTrendPoint

__all__ = [
    "Dashboard",
    "LinePages",
    "build_dashboard",
    "line_paths",
    "scenario_slug",
    "trend_points",
]


@dataclass(frozen=True)
class LinePages:
    """The pages of a line's latest assessment that the site publishes beside its own."""

    scorecard_html: bool = False
    claim_html: bool = False


@dataclass(frozen=True)
class Dashboard:
    """Every document of the site's API."""

    index: DashboardIndex
    #: slug → the line's history document.
    lines: Mapping[str, LineHistory]
    scenarios: ScenarioIndex


def line_paths(slug: str, pages: LinePages) -> LineLinks:
    """Where a line's files are in the site."""
    return LineLinks(
        page=f"lines/{slug}.html",
        runs=f"api/v1/lines/{slug}.json",
        badge_svg=f"badges/{slug}.svg",
        badge_json=f"badges/{slug}.json",
        scorecard_html=f"lines/{slug}/scorecard.html" if pages.scorecard_html else None,
        claim_html=f"lines/{slug}/claim.html" if pages.claim_html else None,
    )


def scenario_slug(leg: str, scenario: str) -> str:
    """A scenario page's name: `server-tools-list`, `client-auth-scope-step-up-1a2b3c4d`."""
    return line_slug(f"{leg}-{scenario}")


def _legs(run: RunRecord) -> tuple[LegSummary, ...]:
    return tuple(
        LegSummary(
            revision=x.revision,
            leg=x.leg,
            state=x.state,
            reason=x.reason,
            passed=x.passed if x.state == "measured" else 0,
            total=x.total if x.state == "measured" else 0,
            pass_rate=x.pass_rate if x.state == "measured" else None,
        )
        for x in run.legs
    )


def _entry(r: Regression) -> RegressionEntry:
    return RegressionEntry(
        kind=r.kind,
        key=r.key,
        since=stamp(r.since),
        since_run=r.since.run_id,
        revision=r.revision,
        leg=r.leg,
        scenario=r.scenario,
        tier_before=r.tier_before,
        tier_after=r.tier_after,
        detail=r.detail,
    )


def _failing_keys(run: RunRecord) -> set[tuple[str, str, str]]:
    """(revision, leg, scenario) of every failure the run recorded that SEP-1730 counts
    (scored, no open dispute, in a measured leg)."""
    measured = {(x.revision, x.leg) for x in run.legs if leg_measured(x.state)}
    return {
        (s.revision, s.leg, s.scenario)
        for s in run.scenarios
        if s.counts and s.outcome == "failed" and (s.revision, s.leg) in measured
    }


def _failing(run: RunRecord) -> tuple[str, ...]:
    return tuple(sorted("/".join(key) for key in _failing_keys(run)))


def _last_night(state: NightState) -> LastNight:
    run, previous = state.run, state.previous
    newly: list[str] = []
    fixed: list[str] = []
    unmeasured: list[str] = []
    if previous is not None:
        found = compare(run_scenarios(previous), run_scenarios(run))
        newly = sorted(f"{c.revision}/{c.leg}/{c.scenario}" for c in found.newly_failing)
        fixed = sorted(f"{c.revision}/{c.leg}/{c.scenario}" for c in found.fixed)
        unmeasured = [f"{x.revision}/{x.leg}" for x in found.legs_newly_unmeasured]
    return LastNight(
        previous_run=previous.run_id if previous else None,
        tier_before=previous.tier if previous else None,
        tier_after=run.assessed_tier,
        started=tuple(_entry(r) for r in state.started),
        ended=tuple(_entry(r) for r in state.ended),
        newly_failing=tuple(newly),
        fixed=tuple(fixed),
        newly_unmeasured=tuple(unmeasured),
        basis_change=state.basis_change,
    )


def _run_entry(state: NightState) -> RunEntry:
    run = state.run
    return RunEntry(
        run_id=run.run_id,
        timestamp=stamp(run),
        commit=run.commit,
        ref=run.ref,
        harness_version=run.harness_version,
        requirements_digest=run.requirements_digest,
        tier=run.assessed_tier,
        tier_changed=run.assessed
        and state.previous is not None
        and state.previous.tier != run.tier,
        status=state.status,
        basis_change=state.basis_change,
        legs=_legs(run),
        failing=_failing(run),
        regressions=tuple(r.key for r in state.regressions),
        started=tuple(r.key for r in state.started),
        ended=tuple(r.key for r in state.ended),
    )


def _clock(rules: Sequence[Relegation], latest: RunRecord) -> tuple[ClockEntry, ...]:
    today: date = latest.timestamp.date()
    return tuple(
        ClockEntry(
            revision=r.revision,
            rule=r.rule,
            status=r.status,
            since=stamp(r.first) if r.first else None,
            due_on=r.due_on.isoformat() if r.due_on else None,
            days_left=max(0, (r.due_on - today).days) if r.due_on else None,
            scenarios=r.scenarios,
            series=r.series,
        )
        for r in rules
    )


def _line_history(
    line: str,
    runs: Sequence[RunRecord],
    states: Sequence[NightState],
    streaks: Sequence[Streak],
    flaky: Sequence[Flaky],
    *,
    readings: RelegationReadings,
    sdk_runs: Sequence[RunRecord],
) -> LineHistory:
    latest = states[-1]
    changes = tuple(
        TierChangeEntry(
            timestamp=stamp(s.run),
            run_id=s.run.run_id,
            commit=s.run.commit,
            before=s.previous.tier,
            after=s.run.tier,
        )
        for s in states
        if s.run.assessed and s.previous is not None and s.previous.tier != s.run.tier
    )
    return LineHistory(
        api_version=API_VERSION,
        line=line,
        slug=line_slug(line),
        repo=latest.run.repo,
        revisions=latest.run.revisions,
        runs=tuple(_run_entry(s) for s in states),
        tier_changes=changes,
        regressions=tuple(_entry(r) for r in latest.regressions),
        clock=_clock(readings.verdict, latest.run),
        early_warning=_clock(readings.early_warning, latest.run),
        unaddressed=latest_ground(sdk_runs),
        series=latest.run.series,
        streaks=tuple(streak_entry(s) for s in streaks),
        flaky=tuple(
            HistoryFlaky(
                revision=f.revision, leg=f.leg, scenario=f.scenario, commit=f.commit, flips=f.flips
            )
            for f in flaky
        ),
    )


def _summary(
    line: str, runs: Sequence[RunRecord], state: NightState, pages: LinePages
) -> LineSummary:
    run = state.run
    slug = line_slug(line)
    return LineSummary(
        line=line,
        slug=slug,
        repo=run.repo,
        ref=run.ref,
        commit=run.commit,
        run_id=run.run_id,
        timestamp=stamp(run),
        night=state.night.isoformat(),
        tier=run.assessed_tier,
        status=state.status,
        harness_version=run.harness_version,
        requirements_digest=run.requirements_digest,
        runs=len(runs),
        legs=_legs(run),
        regressions=tuple(_entry(r) for r in state.regressions),
        last_night=_last_night(state),
        links=line_paths(slug, pages),
    )


def _latest_rows(runs: Sequence[RunRecord]) -> dict[tuple[str, str], tuple[RunRecord, bool]]:
    """(revision, leg) of the latest run → the run whose verdicts stand for it now (the latest
    run that measured it) and whether the latest run measured it."""
    latest = runs[-1]
    out: dict[tuple[str, str], tuple[RunRecord, bool]] = {}
    for x in latest.legs:
        where = (x.revision, x.leg)
        if x.state == "measured":
            out[where] = (latest, True)
        elif x.state == "unmeasured":
            before = next(
                (r for r in reversed(runs) if (leg := r.leg(*where)) and leg.state == "measured"),
                None,
            )
            if before is not None:
                out[where] = (before, False)
    return out


def _failure_periods(
    line: str, runs: Sequence[RunRecord]
) -> dict[tuple[str, str], list[FailurePeriod]]:
    """(leg, scenario) → the line's stretches of scored failures, oldest first."""
    open_now: dict[tuple[str, str, str], tuple[RunRecord, RunRecord, int]] = {}
    done: dict[tuple[str, str], list[FailurePeriod]] = {}

    def close(key: tuple[str, str, str], still_open: bool) -> None:
        first, last, count = open_now.pop(key)
        done.setdefault((key[1], key[2]), []).append(
            FailurePeriod(
                line=line,
                revision=key[0],
                first=stamp(first),
                last=stamp(last),
                runs=count,
                open=still_open,
            )
        )

    for run in runs:
        measured = {(x.revision, x.leg) for x in run.legs if leg_measured(x.state)}
        failing = _failing_keys(run)
        for key in failing:
            first, _, count = open_now.get(key, (run, run, 0))
            open_now[key] = (first, run, count + 1)
        for key in [k for k in open_now if k[:2] in measured and k not in failing]:
            close(key, still_open=False)
    for key in sorted(open_now):
        close(key, still_open=True)
    return done


def _scenario_line(
    line: str,
    row: ScenarioRow,
    *,
    measured_now: bool,
    streak: Streak | None,
    regression: bool,
) -> ScenarioLine:
    """A line's row on a scenario's page: its state now (unmeasured when its latest run did
    not measure it), since when a failure has lasted (`streak`, only when measured now), and
    what failed."""
    state: ScenarioState = (
        "unmeasured"
        if not measured_now or row.outcome == "unmeasured"
        else "passing"
        if row.passed
        else "failing"
    )
    streak = streak if measured_now and not row.passed else None
    return ScenarioLine(
        line=line,
        revision=row.revision,
        state=state,
        since=stamp(streak.first) if streak else None,
        since_run=streak.first.run_id if streak else None,
        runs=streak.runs if streak else 0,
        regression=regression,
        scored=row.scored,
        check=row.check if not row.passed else None,
        message=row.message if not row.passed else None,
        dispute=row.dispute.issue if row.dispute and row.disputed else None,
    )


def _line_scenarios(
    line: str, runs: Sequence[RunRecord], latest: NightState, streaks: Sequence[Streak]
) -> list[tuple[tuple[str, str], ScenarioLine]]:
    """Each scenario of a line, as (leg, scenario) and its row on the scenario's page: the
    scenarios of each (revision, leg) of its latest run, by the run whose verdicts stand for
    it now (`_latest_rows`), in order of revision and leg."""
    by_key = {(s.revision, s.leg, s.scenario): s for s in streaks}
    regressed = {
        (r.revision, r.leg, r.scenario) for r in latest.regressions if r.kind == "newly-failing"
    }
    found: list[tuple[tuple[str, str], ScenarioLine]] = []
    for (revision, leg), (run, measured_now) in sorted(_latest_rows(runs).items()):
        for s in run.scenarios:
            if s.revision != revision or s.leg != leg:
                continue
            key = (revision, leg, s.scenario)
            row = _scenario_line(
                line,
                s,
                measured_now=measured_now,
                streak=by_key.get(key),
                regression=key in regressed,
            )
            found.append(((leg, s.scenario), row))
    return found


def _scenario_pages(
    by_line: Mapping[str, Sequence[RunRecord]],
    latest: Mapping[str, NightState],
    line_streaks: Mapping[str, Sequence[Streak]],
) -> ScenarioIndex:
    """A page for every scenario any line measured or failed: each line's row (lines in
    order), and every stretch of scored failures, the latest first."""
    rows: dict[tuple[str, str], list[ScenarioLine]] = {}
    periods: dict[tuple[str, str], list[FailurePeriod]] = {}
    for line, runs in sorted(by_line.items()):
        for key, row in _line_scenarios(line, runs, latest[line], line_streaks[line]):
            rows.setdefault(key, []).append(row)
    for line, runs in sorted(by_line.items()):
        for key, stretches in _failure_periods(line, runs).items():
            periods.setdefault(key, []).extend(stretches)
    return ScenarioIndex(
        api_version=API_VERSION,
        scenarios=tuple(
            ScenarioPage(
                leg=leg,
                scenario=name,
                slug=scenario_slug(leg, name),
                lines=tuple(rows.get((leg, name), ())),
                periods=tuple(
                    sorted(
                        periods.get((leg, name), ()),
                        key=lambda p: (p.last, p.first, p.line, p.revision),
                        reverse=True,
                    )
                ),
            )
            for leg, name in sorted(rows.keys() | periods.keys())
        ),
    )


def _failing_counts(rows: Iterable[ScenarioLine]) -> tuple[int, int, int]:
    """The lines failing among `rows`: all of them, where SEP-1730 counts it (scored, no open
    dispute), where an open regression."""
    failing = [r for r in rows if r.state == "failing"]
    return (
        len({r.line for r in failing}),
        len({r.line for r in failing if r.scored and r.dispute is None}),
        len({r.line for r in failing if r.regression}),
    )


def _scenario_ref(page: ScenarioPage) -> ScenarioRef:
    """A scenario's entry in the index: how many lines fail it now, over every revision and at
    each revision apart (the index lists a scenario failing at two revisions twice)."""
    every, scored, regressed = _failing_counts(page.lines)
    failing = []
    for revision in sorted({r.revision for r in page.lines if r.state == "failing"}):
        counts = _failing_counts(r for r in page.lines if r.revision == revision)
        failing.append(
            ScenarioFailing(
                revision=revision,
                failing_lines=counts[0],
                scored_failing_lines=counts[1],
                regression_lines=counts[2],
            )
        )
    return ScenarioRef(
        leg=page.leg,
        scenario=page.scenario,
        slug=page.slug,
        page=f"scenarios/{page.slug}.html",
        failing_lines=every,
        scored_failing_lines=scored,
        regression_lines=regressed,
        failing=tuple(failing),
    )


def build_dashboard(
    runs: Iterable[RunRecord],
    *,
    pages: Mapping[str, LinePages] | None = None,
    matrix: bool = False,
    aliases: Mapping[str, str] | None = None,
    timelines: Mapping[str, Sequence[NightState]] | None = None,
) -> Dashboard:
    """Every API document of the site for `runs` (every line's).

    `pages` says which lines' latest scorecard and claim pages the site publishes, `matrix`
    whether it publishes the latest matrix, `aliases` the old badge names kept (old slug →
    line name). `timelines` is each line's `timeline` of these runs when the caller has it
    already (publish hands the same to the nights); without it, it is worked out here.
    """
    by_line: dict[str, list[RunRecord]] = {}
    by_sdk: dict[str, list[RunRecord]] = {}
    for run in sorted(runs, key=lambda r: (r.timestamp, r.run_id, run_key(r))):
        # A line's stable series (`NAME@stable`) is listed apart from its branch series.
        by_line.setdefault(line_of(run), []).append(run)
        by_sdk.setdefault(run.sdk, []).append(run)
    summaries: list[LineSummary] = []
    histories: dict[str, LineHistory] = {}
    latest: dict[str, NightState] = {}
    line_streaks: dict[str, list[Streak]] = {}
    # Flaky scenarios and streaks once per line: every view below reads the same ones.
    line_flaky = {line: flaky_scenarios(line_runs) for line, line_runs in by_line.items()}
    for line, line_runs in by_line.items():
        line_streaks[line] = current_streaks(line_runs, flaky=line_flaky[line])
    readings_of: dict[tuple[str, tuple[str, ...]], RelegationReadings] = {}
    for line in sorted(by_line):
        line_runs = by_line[line]
        states = timelines[line] if timelines is not None else timeline(line_runs)
        latest[line] = states[-1]
        # Both series' pages show the SDK's one clock (its stable series) and early warning,
        # and the issues unaddressed for two months as its latest run of either judged them.
        sdk = line_runs[-1].sdk
        sdk_runs = by_sdk[sdk]
        revisions = line_runs[-1].revisions
        readings = readings_of.get((sdk, revisions))
        if readings is None:
            # A series' streaks are its line's (`record.series_line`), read above, when the
            # line holds that SDK's runs alone.
            known: dict[Series, list[Streak]] = {}
            for each in SERIES:
                name = series_line(sdk, each)
                if name in by_line and all(r.sdk == sdk for r in by_line[name]):
                    known[each] = line_streaks[name]
            readings = relegation_readings(sdk_runs, revisions, streaks=known)
            readings_of[(sdk, revisions)] = readings
        history = _line_history(
            line,
            line_runs,
            states,
            line_streaks[line],
            line_flaky[line],
            readings=readings,
            sdk_runs=sdk_runs,
        )
        histories[history.slug] = history
        summaries.append(
            _summary(line, line_runs, states[-1], (pages or {}).get(line, LinePages()))
        )
    scenarios = _scenario_pages(by_line, latest, line_streaks)
    index = DashboardIndex(
        api_version=API_VERSION,
        latest_night=max((s.night for s in summaries), default=None),
        revisions=tuple(sorted({x.revision for s in summaries for x in s.legs})),
        lines=tuple(summaries),
        scenarios=tuple(_scenario_ref(page) for page in scenarios.scenarios),
        matrix="api/v1/matrix.json" if matrix else None,
        aliases=dict(sorted((aliases or {}).items())),
    )
    return Dashboard(index=index, lines=histories, scenarios=scenarios)


def trend_points(history: LineHistory) -> list[HistoryTrendPoint]:
    """The trend chart's points of a line's history document (every run, oldest first)."""
    points = []
    for run in history.runs:
        rates: dict[str, dict[str, float | None]] = {}
        for x in run.legs:
            if x.state != "skipped":  # chosen not to run: not a gap in what was measured
                rates.setdefault(x.revision, {})[x.leg] = x.pass_rate
        points.append(
            HistoryTrendPoint(
                run_id=run.run_id,
                timestamp=run.timestamp,
                commit=run.commit,
                tier=run.tier,
                tier_changed=run.tier_changed,
                pass_rate=rates,
            )
        )
    return points
