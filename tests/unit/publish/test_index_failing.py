"""The index's "Scenarios failing now": the scenarios a requirement set scores come first (an
open regression at the top, marked), and the failures nothing scores are listed apart, under a
heading of their own, so one scored regression is not buried under twenty not-scored ones.

The history is night 13 of `support.nights` (alpha-sdk's regression of server tools-call-image
is open; beta-sdk fails client auth/scope-step-up, scored, every night) and, the same night,
`mixed_scorecard` as a fourth line (worked out by hand in support/scorecards.py: it fails
tools-call-image and auth/scope-step-up, both scored, and json-schema-2020-12, not scored
"pending", and reports nothing for auth/dpop, not scored "extension").
"""

from __future__ import annotations

import dataclasses

from support.browser import SpacedText
from support.nights import night, records, thirty_nights
from support.scorecards import mixed_scorecard
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.html import render_index
from tiercheck.dashboard.model import DashboardIndex, ScenarioRef


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


def test_scored_failures_come_first_and_the_rest_are_listed_apart() -> None:
    _, html = _dashboard()
    assert _text(html, "failing-scenarios") == [
        "server · tools-call-image regression failing in 2 line(s) where scored",
        "client · auth/scope-step-up failing in 2 line(s) where scored",
    ]
    assert _text(html, "failing-unscored") == [
        "client · auth/dpop failing in 1 line(s); not scored",
        "server · json-schema-2020-12 failing in 1 line(s); not scored",
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
        "server · c-regr regression failing in 1 line(s) where scored",
        "server · a-wide failing in 5 line(s) where scored",
        "server · b-mixed failing in 1 line(s) where scored, 2 more where not scored",
    ]
    assert "failing-unscored" not in html
