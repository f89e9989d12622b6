"""One verdict: over generated nightly histories, every view of "what changed" says what the one
rule of `tiercheck.comparison` says.

`test_comparison_agreement.py` hands every caller ten hand-made pairs of runs; here Hypothesis
makes whole histories instead — one SDK's branch series, alone or beside its `@stable` series,
over 2 to 12 nights — and every night is a real scorecard (`support.scorecards`' builders, the
real scorer): scenarios failing, legs unmeasured, nights that measured nothing (every leg
unmeasured, or every leg skipped: exit 3), disputes opened and resolved between nights, a
scenario that stops being scored, a harness upgrade, one or two protocol revisions, a
governance signal that could not be read, any tier.

For each line and each run `b` with an earlier run that measured something, `a` (the latest
such), `check_history` holds every view to `compare(run_scenarios(a), run_scenarios(b))`:

* the three adapters (the scorecard, the history's record, the matrix row) read the pair alike;
* the diff of the two scorecards (`has_regression`, `tier_dropped`, the newly failing keys);
* the matrix's `changes_since` for rows built from them (regressed row, dropped flag, new
  failures);
* the history's `timeline` for night `b`: its `previous` is `a`; the newly failing regressions
  it starts, among the scenarios `a` measured, are the comparison's newly failing; a lower tier
  starts only when the tier dropped from the last run that judged its tier (the rule's
  baseline for a tier, which the history alone holds: a diff or a matrix given `a` and `b`
  knows of a drop only when `a` judged its tier), and a drop leaves one open; an unmeasured
  regression starts only for a leg newly unmeasured, and each such leg leaves one open;
* the dashboard's API documents built from the history up to that night (the line's run entry,
  its index summary and last night) mark the line regressed exactly when the timeline does;
* the dashboard's night-against-night document of that night (`nightdiff`) compares with `a`,
  lists the comparison's newly failing, and marks the line regressed exactly when the timeline
  (and so the line page and the index) does.

Besides: a scenario disputed that night (its dispute open) is never newly failing anywhere, in a
failing streak or an open newly failing regression; a run that measured nothing has no tier
in any form, is never a `NightState.previous`, and a diff or a matrix from it finds no
regression.

`check_history` is a plain function: `test_a_second_rule_in_one_caller_is_caught` plants a
second rule in one caller (the matrix forgetting disputes, the timeline or the diff calling a
bare `after > before` a drop) and sees it raise on a fixed history.

Disagreements this found, now settled, stay as fixed histories (`SETTLED`) that every view
must read alike: a lower tier after a night that judged no tier (the night page said otherwise
than the line page), a lower tier on other requirement sets (the matrix kept no digest), and
a leg unmeasured after a night that did not plan it or measured nothing (the timeline opened
a regression the rule does not).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.matrices import matrix, row
from support.nights import NEW_HARNESS, OLD_HARNESS, night
from support.scorecards import (
    R1,
    R2,
    check,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    skipped,
    spec_tracking,
    triage,
    triage_inconclusive,
)
from tiercheck.comparison import Comparison, RunScenarios, compare, starts_comparisons
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.grid import runs_by_line
from tiercheck.dashboard.nightdiff import build_nights
from tiercheck.governance.disputes import DisputeMark
from tiercheck.history.analysis import current_streaks
from tiercheck.history.datafile import line_slug
from tiercheck.history.files import requirements_digest
from tiercheck.history.record import RunRecord, line_of, record_of, run_key
from tiercheck.history.regression import NightState, timeline
from tiercheck.history.regression import run_scenarios as history_scenarios
from tiercheck.matrix.build import changes_since
from tiercheck.matrix.build import run_scenarios as matrix_scenarios
from tiercheck.revisions import Leg
from tiercheck.scorecard.compared import run_scenarios as card_scenarios
from tiercheck.scorecard.diff import diff_scorecards
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import LegVerdict, unmeasured_leg
from tiercheck.tier import Blocker

Where = tuple[str, Leg, str]
Key = tuple[str, str, str]

SDK = "alpha-sdk"
#: The two series of the SDK: its default branch and its latest stable release.
BRANCH, STABLE = "main", "stable"
#: The scored scenarios of each revision × leg.
SCENARIOS: Mapping[tuple[str, Leg], tuple[str, ...]] = {
    (R1, "server"): ("server-initialize", "ping", "tools-list", "tools-call-image"),
    (R1, "client"): ("initialize", "tools_call"),
    (R2, "server"): ("server-stateless", "tools-list"),
    (R2, "client"): ("initialize", "tools_call"),
}
LEGS_PLANNED: tuple[tuple[str, Leg], ...] = tuple(SCENARIOS)
#: The scenarios a night may fail, dispute, or (`PENDING`) stop scoring.
FAILABLE: tuple[Where, ...] = (
    (R1, "server", "tools-call-image"),
    (R1, "server", "ping"),
    (R1, "client", "tools_call"),
    (R2, "server", "tools-list"),
)
DISPUTABLE: tuple[Where, ...] = ((R1, "server", "tools-call-image"), (R2, "server", "tools-list"))
PENDING: Where = (R1, "server", "ping")
UNREADY = "server never became ready within 30 s"


@dataclass(frozen=True)
class Night:
    """What one night of one line measured."""

    failing: frozenset[Where] = frozenset()
    unmeasured: frozenset[tuple[str, Leg]] = frozenset()
    #: The run measured nothing: every leg unmeasured, or every leg skipped (exit 3).
    nothing: Literal["unmeasured", "skipped"] | None = None
    #: Scenarios the disputes file names that night, with the dispute's state.
    disputes: tuple[tuple[Where, Literal["open", "resolved"]], ...] = ()
    new_harness: bool = False
    revisions: tuple[str, ...] = (R1, R2)
    tier: int = 1
    #: The triage signal could not be read (the tier is not judged).
    inconclusive: bool = False
    #: `PENDING` runs but is not scored.
    pending: bool = False


#: A history: per series (`BRANCH`, `STABLE`), its nights in order.
History = Mapping[str, Sequence[Night]]


def _signals(inconclusive: bool) -> dict[str, dict[str, object]]:
    return {
        "labels": labels(),
        "triage": triage_inconclusive("GitHub rate limit exhausted") if inconclusive else triage(),
        "p0_resolution": p0(),
        "stable_release": release("2.1.0"),
        "policy_signals": policy(),
        "spec_tracking": spec_tracking(3, "2.1.0"),
    }


def _mark(state: Literal["open", "resolved"], where: Where) -> DisputeMark:
    number = 100 + DISPUTABLE.index(where)
    return DisputeMark(
        state=state,
        verified=True,
        issue=f"https://github.com/modelcontextprotocol/conformance/issues/{number}",
        reason=f"{where[2]} asks for more than the spec says",
        why=f"issue #{number} was {'open' if state == 'open' else 'closed'} per the snapshot",
    )


def _leg(revision: str, leg: Leg, spec: Night) -> LegVerdict:
    if spec.nothing == "skipped":
        return skipped(revision, leg, f"no {leg} command configured")
    if spec.nothing == "unmeasured" or (revision, leg) in spec.unmeasured:
        return unmeasured_leg(leg, revision, UNREADY)
    marks = {where: _mark(state, where) for where, state in spec.disputes}
    verdict = measured_leg(
        revision,
        leg,
        [
            scenario(
                name,
                passed=(revision, leg, name) not in spec.failing,
                failing=[check(f"{name}-check", "wrong answer")]
                if (revision, leg, name) in spec.failing
                else [],
                not_scored="pending" if spec.pending and (revision, leg, name) == PENDING else None,
            )
            for name in SCENARIOS[(revision, leg)]
        ],
    )
    return dataclasses.replace(
        verdict,
        details=tuple(
            dataclasses.replace(d, dispute=marks.get((revision, leg, d.scenario)))
            for d in verdict.details
        ),
    )


def night_card(series: str, n: int, spec: Night) -> Scorecard:
    """Night `n`'s scorecard of `series` (the stable series runs an hour after the branch)."""
    both: tuple[Leg, ...] = ("server", "client")
    legs = {rev: {leg: _leg(rev, leg, spec) for leg in both} for rev in spec.revisions}
    tier = 3 if spec.nothing else spec.tier
    blockers = [Blocker(check="server_conformance", tier=1)] if tier > 1 else []
    doc = scorecard(
        legs=legs,
        signals=_signals(spec.inconclusive),
        tier=implied(tier, blockers),
        name=SDK,
        harness_version=NEW_HARNESS if spec.new_harness else OLD_HARNESS,
        exit_code=3 if spec.nothing else 0,
    )
    moment = night(n) + (timedelta(hours=1) if series == STABLE else timedelta())
    return dataclasses.replace(
        doc,
        timestamp=moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
        tiercheck=dataclasses.replace(
            doc.tiercheck,
            run_id=moment.strftime("%Y%m%dT%H%M%SZ"),
            requirements_digest=requirements_digest(list(spec.revisions)),
        ),
        sdk=dataclasses.replace(doc.sdk, ref=series, commit=f"{n:02d}" * 20),
    )


# --- what each view says -------------------------------------------------------------------


def _keys(changes: Iterable[object]) -> set[Key]:
    return {(c.revision, c.leg, c.scenario) for c in changes}  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Verdict:
    """What a comparison says, projected onto what every view publishes."""

    newly_failing: frozenset[Key]
    fixed: frozenset[Key]
    newly_disputed: frozenset[Key]
    dispute_resolved: frozenset[Key]
    legs_newly_unmeasured: frozenset[tuple[str, str]]
    tier_dropped: bool
    regressed: bool
    incomparable: bool


def verdict(found: Comparison) -> Verdict:
    return Verdict(
        newly_failing=frozenset(_keys(found.newly_failing)),
        fixed=frozenset(_keys(found.fixed)),
        newly_disputed=frozenset(_keys(found.newly_disputed)),
        dispute_resolved=frozenset(_keys(found.dispute_resolved)),
        legs_newly_unmeasured=frozenset((x.revision, x.leg) for x in found.legs_newly_unmeasured),
        tier_dropped=found.tier_dropped,
        regressed=found.regressed,
        incomparable=found.incomparable,
    )


def _row_id(series: str) -> str:
    return f"{SDK}@{series}"


def _disputed(run: RunRecord) -> set[Key]:
    """Scored scenarios of measured legs whose dispute was open on the run's day."""
    measured = {(x.revision, x.leg) for x in run.legs if x.state == "measured"}
    return {
        (s.revision, s.leg, s.scenario)
        for s in run.scenarios
        if s.scored and s.disputed and (s.revision, s.leg) in measured
    }


def _measured(run: RunRecord) -> set[Key]:
    """Scenarios of measured legs the run gave a verdict."""
    measured = {(x.revision, x.leg) for x in run.legs if x.state == "measured"}
    return {
        (s.revision, s.leg, s.scenario)
        for s in run.scenarios
        if (s.revision, s.leg) in measured and s.outcome != "unmeasured"
    }


def _started(state: NightState, kind: str) -> set[Key]:
    return {
        (r.revision or "", r.leg or "", r.scenario or "") for r in state.started if r.kind == kind
    }


def _open(state: NightState, kind: str) -> set[Key]:
    return {
        (r.revision or "", r.leg or "", r.scenario or "")
        for r in state.regressions
        if r.kind == kind
    }


def _check_nothing_measured(card: Scorecard, run: RunRecord, series: str) -> None:
    """A run that measured nothing has no tier in any form and starts no comparison."""
    built = matrix(row(_row_id(series), card)).rows[0]
    forms: dict[str, RunScenarios] = {
        "scorecard": card_scenarios(card),
        "history": history_scenarios(run),
        "matrix": matrix_scenarios(built),
    }
    assert run.nothing_measured, "the record says it measured something"
    for name, form in forms.items():
        assert form.tier is None, f"{name}: a run that measured nothing has a tier"
        assert not starts_comparisons(form), f"{name}: it would start a comparison"


def _check_from_nothing(empty: Scorecard, card: Scorecard, series: str) -> None:
    """A diff or a matrix whose older side measured nothing finds no regression."""
    diff = diff_scorecards(empty, card)
    assert not diff.has_regression, "diff: a regression against a run that measured nothing"
    assert not diff.tier_dropped
    assert not diff.regressions
    changes = changes_since(
        matrix(row(_row_id(series), empty)), matrix(row(_row_id(series), card)).rows
    )
    assert changes.regressed_rows == (), "matrix: regressed against a row that measured nothing"
    assert changes.new_failures == ()
    assert not any(t.dropped for t in changes.tier_changes)


def _check_pair(
    series: str,
    before: tuple[Scorecard, RunRecord],
    after: tuple[Scorecard, RunRecord],
    state: NightState,
    *,
    tier_run: Scorecard | None,
) -> Verdict:
    """Every view of the pair (`before` the latest run that measured something) says what the
    rule says; returns the rule's verdict. `tier_run` is the latest run before `after` that
    judged its tier."""
    (old, one), (new, two) = before, after
    rule = verdict(compare(card_scenarios(old), card_scenarios(new)))
    context = f"{series} {one.run_id} → {two.run_id}"
    first = matrix(row(_row_id(series), old))
    second = matrix(row(_row_id(series), new))
    matrix_rule = rule
    # The three forms of the same two runs read alike.
    assert verdict(compare(history_scenarios(one), history_scenarios(two))) == rule, (
        f"{context}: the history's record compares otherwise"
    )
    assert verdict(compare(matrix_scenarios(first.rows[0]), matrix_scenarios(second.rows[0]))) == (
        matrix_rule
    ), f"{context}: the matrix row compares otherwise"
    # The diff.
    diff = diff_scorecards(old, new)
    assert diff.has_regression is rule.regressed, f"{context}: diff has_regression"
    assert diff.tier_dropped is rule.tier_dropped, f"{context}: diff tier_dropped"
    assert _keys(diff.regressions) == rule.newly_failing, f"{context}: diff regressions"
    assert _keys(diff.newly_disputed) == rule.newly_disputed, f"{context}: diff newly disputed"
    assert _keys(diff.dispute_resolved) == rule.dispute_resolved, f"{context}: diff resolved"
    # The matrix.
    changes = changes_since(first, second.rows)
    assert changes.regressed_rows == ((_row_id(series),) if matrix_rule.regressed else ()), (
        f"{context}: matrix regressed_rows"
    )
    assert any(t.dropped for t in changes.tier_changes) is matrix_rule.tier_dropped, (
        f"{context}: matrix tier change dropped"
    )
    assert _keys(changes.new_failures) == rule.newly_failing, f"{context}: matrix new_failures"
    # The history's night.
    assert state.previous is not None, f"{context}: the timeline compares with no run"
    assert run_key(state.previous) == run_key(one), (
        f"{context}: the timeline compares with another run"
    )
    assert _started(state, "newly-failing") & _measured(one) == rule.newly_failing, (
        f"{context}: timeline newly failing"
    )
    # The history compares a tier with the last run that judged one.
    dropped = (
        tier_run is not None and compare(card_scenarios(tier_run), card_scenarios(new)).tier_dropped
    )
    assert not rule.tier_dropped or dropped, f"{context}: a drop from a run that judged no tier"
    lower = _started(state, "lower-tier")
    assert not lower or dropped, f"{context}: timeline starts a lower tier, no drop"
    assert not dropped or _open(state, "lower-tier"), (
        f"{context}: the tier dropped, the timeline has no lower tier open"
    )
    unmeasured = {k[:2] for k in _started(state, "unmeasured")}
    assert unmeasured <= rule.legs_newly_unmeasured, (
        f"{context}: timeline unmeasured {sorted(unmeasured - rule.legs_newly_unmeasured)} "
        "is no leg newly unmeasured"
    )
    assert rule.legs_newly_unmeasured <= {k[:2] for k in _open(state, "unmeasured")}, (
        f"{context}: a leg newly unmeasured has no open unmeasured regression"
    )
    return rule


def _check_disputes(series: str, runs: Sequence[RunRecord], state: NightState) -> None:
    """A scenario disputed on the latest run's day is in no streak and no failing regression."""
    disputed = _disputed(runs[-1])
    if not disputed:
        return
    streaks = {(s.revision, s.leg, s.scenario) for s in current_streaks(runs)}
    assert not disputed & streaks, f"{series}: disputed {sorted(disputed & streaks)} in a streak"
    failing = _open(state, "newly-failing")
    assert not disputed & failing, f"{series}: disputed {sorted(disputed & failing)} regressing"


def _check_dashboard(
    records: Sequence[RunRecord], tonight: Mapping[str, tuple[NightState, Verdict | None]]
) -> None:
    """The API documents built from the history up to tonight say what the timeline says."""
    dashboard = build_dashboard(records)
    summaries = {s.line: s for s in dashboard.index.lines}
    for state, rule in tonight.values():
        line = line_of(state.run)
        entry = dashboard.lines[line_slug(line)].runs[-1]
        summary = summaries[line]
        assert entry.run_id == state.run.run_id
        for name, status in (("run entry", entry.status), ("index", summary.status)):
            assert (status == "regressed") is state.regressed, (
                f"{line} {state.run.run_id}: the dashboard's {name} says {status}"
            )
        assert set(entry.started) == {r.key for r in state.started}
        last = summary.last_night
        assert last.previous_run == (state.previous.run_id if state.previous else None)
        if rule is not None:
            assert set(last.newly_failing) == {"/".join(k) for k in rule.newly_failing}
            assert set(last.newly_unmeasured) == {"/".join(w) for w in rule.legs_newly_unmeasured}


def _check_nights(
    records: Sequence[RunRecord],
    verdicts: Sequence[Mapping[str, tuple[NightState, Verdict | None]]],
) -> None:
    """The night-against-night documents (`dashboard.nightdiff`) say what the rule says."""
    _, nights = build_nights(runs_by_line(records))
    for tonight in verdicts:
        for state, rule in tonight.values():
            line = line_of(state.run)
            (diff,) = [x for x in nights[state.night.isoformat()].lines if x.line == line]
            context = f"{line} {state.run.run_id}: the night's page"
            assert diff.previous_run == (state.previous.run_id if state.previous else None), (
                f"{context} compares with another run"
            )
            assert diff.regressed is state.regressed, f"{context} says regressed={diff.regressed}"
            if rule is not None:
                assert _keys(diff.newly_failing) == rule.newly_failing, f"{context}: newly failing"


def check_history(history: History) -> None:
    """Every view of every night of `history` says what the one rule says (AssertionError if
    not)."""
    cards = {
        s: [night_card(s, n, spec) for n, spec in enumerate(nights, 1)]
        for s, nights in history.items()
    }
    runs = {s: [record_of(c) for c in each] for s, each in cards.items()}
    states = {s: timeline(each) for s, each in runs.items()}
    baseline: dict[str, int | None] = dict.fromkeys(history)
    empty: dict[str, int | None] = dict.fromkeys(history)
    judged: dict[str, int | None] = dict.fromkeys(history)
    nights = max(len(n) for n in history.values())
    verdicts: list[dict[str, tuple[NightState, Verdict | None]]] = []
    for i in range(nights):
        tonight: dict[str, tuple[NightState, Verdict | None]] = {}
        for series in history:
            if i >= len(cards[series]):
                continue
            card, run, state = cards[series][i], runs[series][i], states[series][i]
            assert state.previous is None or state.previous.assessed, (
                f"{series} {run.run_id}: compared with a run that measured nothing"
            )
            rule: Verdict | None = None
            a = baseline[series]
            if a is None:
                assert state.previous is None
                assert state.started == (), f"{series} {run.run_id}: a regression from nothing"
            else:
                j = judged[series]
                rule = _check_pair(
                    series,
                    (cards[series][a], runs[series][a]),
                    (card, run),
                    state,
                    tier_run=None if j is None else cards[series][j],
                )
                assert not _disputed(run) & rule.newly_failing, "a disputed scenario newly fails"
            z = empty[series]
            if z is not None and run.assessed:
                _check_from_nothing(cards[series][z], card, series)
            _check_disputes(series, runs[series][: i + 1], state)
            if history_scenarios(run).judges_tier:
                judged[series] = i
            if run.assessed:
                baseline[series] = i
            else:
                _check_nothing_measured(card, run, series)
                empty[series] = i
            tonight[series] = (state, rule)
        done = [r for s in history for r in runs[s][: i + 1]]
        _check_dashboard(done, tonight)
        verdicts.append(tonight)
    _check_nights([r for each in runs.values() for r in each], verdicts)


# --- the property --------------------------------------------------------------------------


STATES: tuple[Literal["open", "resolved"], ...] = ("open", "resolved")
#: Most nights measure something; a nothing-measured night is every leg unmeasured or skipped.
KINDS: tuple[Literal["unmeasured", "skipped"] | None, ...] = (None,) * 6 + ("unmeasured", "skipped")
CLIENT_R1: tuple[str, Leg] = (R1, "client")
SERVER_R2: tuple[str, Leg] = (R2, "server")
NONE_LOST: frozenset[tuple[str, Leg]] = frozenset()
LOST = (NONE_LOST,) * 3 + (frozenset({CLIENT_R1}), frozenset({SERVER_R2}))


@st.composite
def _night(draw: st.DrawFn, new_harness: bool) -> Night:
    disputes = draw(
        st.lists(
            st.tuples(st.sampled_from(DISPUTABLE), st.sampled_from(STATES)),
            max_size=2,
            unique_by=lambda d: d[0],
        )
    )
    return Night(
        failing=draw(st.frozensets(st.sampled_from(FAILABLE))),
        unmeasured=draw(st.sampled_from(LOST)),
        nothing=draw(st.sampled_from(KINDS)),
        disputes=tuple(disputes),
        new_harness=new_harness,
        revisions=draw(st.sampled_from([(R1, R2)] * 4 + [(R1,)])),
        tier=draw(st.integers(1, 3)),
        inconclusive=draw(st.sampled_from([False] * 5 + [True])),
        pending=draw(st.sampled_from([False] * 3 + [True])),
    )


@st.composite
def _series(draw: st.DrawFn, count: int) -> list[Night]:
    upgrade = draw(st.one_of(st.none(), st.integers(2, count)))
    return [draw(_night(upgrade is not None and n >= upgrade)) for n in range(1, count + 1)]


@st.composite
def histories(draw: st.DrawFn) -> dict[str, list[Night]]:
    count = draw(st.integers(2, 12))
    both = draw(st.booleans())
    out = {BRANCH: draw(_series(count))}
    if both:
        out[STABLE] = draw(_series(count))
    return out


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(histories())
def test_every_view_of_every_night_says_what_the_one_rule_says(
    history: dict[str, list[Night]],
) -> None:
    check_history(history)


# --- a second rule is caught ---------------------------------------------------------------

OPEN: tuple[tuple[Where, Literal["open", "resolved"]], ...] = ((DISPUTABLE[0], "open"),)


def _ignoring_disputes(
    real: Callable[[RunScenarios, RunScenarios], Comparison],
) -> Callable[[RunScenarios, RunScenarios], Comparison]:
    def undisputed(run: RunScenarios) -> RunScenarios:
        return dataclasses.replace(
            run, scenarios=tuple(dataclasses.replace(s, disputed=False) for s in run.scenarios)
        )

    return lambda before, after: real(undisputed(before), undisputed(after))


def _tier_higher(before: RunScenarios, after: RunScenarios) -> bool:
    return after.tier is not None and before.tier is not None and after.tier > before.tier


def _bare_drop(
    real: Callable[[RunScenarios, RunScenarios], Comparison],
) -> Callable[[RunScenarios, RunScenarios], Comparison]:
    def compared(before: RunScenarios, after: RunScenarios) -> Comparison:
        return dataclasses.replace(real(before, after), tier_dropped=_tier_higher(before, after))

    return compared


@dataclass(frozen=True)
class Plant:
    """A second rule planted in one caller: the name it replaces, the replacement, a history it
    gets wrong, and the assertion that must catch it."""

    target: str
    replacement: Callable[..., object]
    history: History
    caught_by: str


PLANTED: dict[str, Plant] = {
    # tools-call-image passes, then fails, its dispute open on both nights: no verdict to
    # compare, but a matrix that forgets disputes calls it a new failure.
    "the matrix ignores disputes": Plant(
        "tiercheck.matrix.build.compare",
        _ignoring_disputes(compare),
        {BRANCH: [Night(disputes=OPEN), Night(failing=frozenset({DISPUTABLE[0]}), disputes=OPEN)]},
        "matrix regressed_rows",
    ),
    # Tier 1, then Tier 2 under a new harness: not the same basis, so no drop; a timeline that
    # just compares the numbers opens a lower tier.
    "the timeline's tier drop is a bare comparison": Plant(
        "tiercheck.history.regression.tier_dropped",
        _tier_higher,
        {BRANCH: [Night(tier=1), Night(tier=2, new_harness=True)]},
        "timeline starts a lower tier, no drop",
    ),
    # Tier 1, then Tier 2 on a night a governance signal could not be read: a gap, not a drop.
    "the diff's tier drop is a bare comparison": Plant(
        "tiercheck.scorecard.diff.compare",
        _bare_drop(compare),
        {BRANCH: [Night(tier=1), Night(tier=2, inconclusive=True)]},
        "diff has_regression",
    ),
}


def test_the_fixed_examples_hold_without_a_second_rule() -> None:
    for plant in PLANTED.values():
        check_history(plant.history)


@pytest.mark.parametrize("name", list(PLANTED))
def test_a_second_rule_in_one_caller_is_caught(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plant = PLANTED[name]
    monkeypatch.setattr(plant.target, plant.replacement)
    with pytest.raises(AssertionError, match=plant.caught_by):
        check_history(plant.history)


# --- the disagreements found, settled ------------------------------------------------------

LOST_R2 = frozenset({SERVER_R2})

#: Histories on which views once disagreed; every view now reads each alike.
SETTLED: dict[str, History] = {
    # Night 2 did not judge its tier (triage inconclusive); night 3 is Tier 2. The timeline
    # compares night 3's tier with night 1's (the last that judged one) and opens a lower tier;
    # the night's page once said "not regressed" beside a line page saying "regressed".
    "a lower tier after a night that did not judge its tier": {
        BRANCH: [Night(tier=1), Night(tier=1, inconclusive=True), Night(tier=2)]
    },
    # Night 1 at both revisions, Tier 1; night 2 at 2025-11-25 alone (other requirement sets),
    # Tier 2: not the same basis, no drop. The matrix kept no digest and called it one.
    "a lower tier on other requirement sets": {
        BRANCH: [Night(tier=1), Night(tier=2, revisions=(R1,))]
    },
    # Night 1 measures 2026-07-28's server leg; night 2 runs 2025-11-25 alone; night 3 plans
    # 2026-07-28 again, its server leg unmeasured: against night 2, no leg is newly
    # unmeasured. The timeline once opened a regression from its own memory of night 1.
    "a leg unmeasured after a night that did not plan it": {
        BRANCH: [Night(), Night(revisions=(R1,)), Night(unmeasured=LOST_R2)]
    },
    # The leg is unmeasured on night 2 (a regression); night 3 measured nothing and did not
    # plan 2026-07-28 (it once ended the regression); night 4 is unmeasured again: the same
    # regression, still open, never a new one.
    "a leg unmeasured again after a night that measured nothing": {
        BRANCH: [
            Night(),
            Night(unmeasured=LOST_R2),
            Night(nothing="unmeasured", revisions=(R1,)),
            Night(unmeasured=LOST_R2),
        ]
    },
}


@pytest.mark.parametrize("example", list(SETTLED))
def test_a_settled_disagreement_stays_settled(example: str) -> None:
    check_history(SETTLED[example])
