"""The index's "Scenarios failing now": one entry per revision × scenario, the scenarios a
requirement set scores first (an open regression at the top, marked), and the failures nothing
scores listed apart, under a heading of their own, so one scored regression is not buried under
twenty not-scored ones.

The history is night 13 of `support.nights` (alpha-sdk's regression of server tools-call-image
is open; beta-sdk fails client auth/scope-step-up, scored, every night) and, the same night,
`mixed_scorecard` as a fourth line (worked out by hand in support/scorecards.py: it fails
tools-call-image and auth/scope-step-up, both scored, and json-schema-2020-12, not scored
"pending", and reports nothing for auth/dpop, not scored "extension").
"""

from __future__ import annotations

import dataclasses

from support.browser import SpacedText
from support.nights import R1, R2, night, night_scorecard, records, thirty_nights
from support.scorecards import mixed_scorecard
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.html import render_index, render_scenario
from tiercheck.dashboard.model import DashboardIndex, ScenarioFailing, ScenarioRef


def _dashboard() -> tuple[DashboardIndex, str]:
    mixed = mixed_scorecard()
    mixed = dataclasses.replace(mixed, timestamp=night(13).strftime("%Y-%m-%dT%H:%M:%SZ"))
    built = build_dashboard(records([*thirty_nights(13), mixed]))
    return built.index, render_index(built.index, built.lines)


def _text(html: str, ident: str) -> list[str]:
    """The list items of the list `ident`, each as its words."""
    start = html.index(f'id="{ident}"')
    items = html[start : html.index("</ul>", start)].split("<li>")[1:]
    words = []
    for item in items:
        one = SpacedText()
        one.feed(item)
        words.append(" ".join(" ".join(one.text).split()))
    return words


def test_the_index_counts_scored_and_regressed_lines_per_scenario() -> None:
    index, _ = _dashboard()
    got = {
        (s.leg, s.scenario): (s.failing_lines, s.scored_failing_lines, s.regression_lines)
        for s in index.scenarios
        if s.failing_lines
    }
    assert got == {
        ("server", "tools-call-image"): (2, 2, 1),  # alpha-sdk (regression), the mixed line
        ("client", "auth/scope-step-up"): (2, 2, 0),  # beta-sdk, the mixed line
        ("server", "json-schema-2020-12"): (1, 0, 0),  # pending: not scored
        ("client", "auth/dpop"): (1, 0, 0),  # extension: not scored, no results
    }
    # Every failure is at 2025-11-25: one revision each, with the same counts.
    assert {
        (s.leg, s.scenario): [
            (f.revision, f.failing_lines, f.scored_failing_lines, f.regression_lines)
            for f in s.failing
        ]
        for s in index.scenarios
        if s.failing_lines
    } == {key: [(R1, *counts)] for key, counts in got.items()}
    assert all(s.failing == () for s in index.scenarios if not s.failing_lines)


def test_scored_failures_come_first_and_the_rest_are_listed_apart() -> None:
    _, html = _dashboard()
    assert _text(html, "failing-scenarios") == [
        f"{R1} · server · tools-call-image regression failing in 2 line(s) where scored",
        f"{R1} · client · auth/scope-step-up failing in 2 line(s) where scored",
    ]
    assert _text(html, "failing-unscored") == [
        f"{R1} · client · auth/dpop failing in 1 line(s); not scored",
        f"{R1} · server · json-schema-2020-12 failing in 1 line(s); not scored",
    ]
    assert html.index('id="failing-scenarios"') < html.index("Failing, not scored (2)")


def _ref(name: str, failing: int, scored: int, regressed: int) -> ScenarioRef:
    return ScenarioRef(
        leg="server",
        scenario=name,
        slug=name,
        page=f"scenarios/{name}.html",
        failing_lines=failing,
        scored_failing_lines=scored,
        regression_lines=regressed,
        failing=(
            ScenarioFailing(
                revision=R1,
                failing_lines=failing,
                scored_failing_lines=scored,
                regression_lines=regressed,
            ),
        ),
    )


def test_a_regression_is_above_wider_scored_failures_and_no_unscored_list_when_none() -> None:
    index = DashboardIndex(
        api_version=1,
        latest_night=None,
        revisions=(),
        lines=(),
        scenarios=(_ref("a-wide", 5, 5, 0), _ref("b-mixed", 3, 1, 0), _ref("c-regr", 1, 1, 1)),
        matrix=None,
        aliases={},
    )
    html = render_index(index, {})
    assert _text(html, "failing-scenarios") == [
        f"{R1} · server · c-regr regression failing in 1 line(s) where scored",
        f"{R1} · server · a-wide failing in 5 line(s) where scored",
        f"{R1} · server · b-mixed failing in 1 line(s) where scored, 2 more where not scored",
    ]
    assert "failing-unscored" not in html


def test_one_scenario_failing_at_two_revisions_in_two_lines_is_two_entries() -> None:
    # server tools-list is scored at both revisions. one-sdk fails it at 2025-11-25 every
    # night (it never passed: no regression); two-sdk passes it at 2026-07-28 on nights 1
    # and 2 and fails it on night 3 (a regression). Each line fails it at one revision only:
    # at each revision one line fails it, never two.
    at_r1, at_r2 = (R1, "server", "tools-list"), (R2, "server", "tools-list")
    docs = [
        doc
        for n in (1, 2, 3)
        for doc in (
            night_scorecard("one-sdk", n, failing=[at_r1]),
            night_scorecard("two-sdk", n, failing=[at_r2] if n == 3 else []),
        )
    ]
    built = build_dashboard(records(docs))
    (ref,) = [s for s in built.index.scenarios if s.failing_lines]
    assert (ref.leg, ref.scenario, ref.page) == (
        "server",
        "tools-list",
        "scenarios/server-tools-list.html",
    )
    assert [
        (f.revision, f.failing_lines, f.scored_failing_lines, f.regression_lines)
        for f in ref.failing
    ] == [(R1, 1, 1, 0), (R2, 1, 1, 1)]
    html = render_index(built.index, built.lines)
    assert _text(html, "failing-scenarios") == [
        f"{R2} · server · tools-list regression failing in 1 line(s) where scored",
        f"{R1} · server · tools-list failing in 1 line(s) where scored",
    ]
    assert html.count('href="scenarios/server-tools-list.html"') == 3  # both, and "Every"
    # The scenario's page says which line fails it at which revision.
    (page,) = [p for p in built.scenarios.scenarios if p.slug == ref.slug]
    assert [(r.line, r.revision, r.state, r.regression) for r in page.lines] == [
        ("one-sdk", R1, "failing", False),
        ("one-sdk", R2, "passing", False),
        ("two-sdk", R1, "passing", False),
        ("two-sdk", R2, "failing", True),
    ]
    shown = render_scenario(page, built.index)
    assert f'id="now-one-sdk-{R1}"' in shown
    assert f'id="now-two-sdk-{R2}"' in shown
