"""A run that measured nothing (every leg skipped or unmeasured: exit code 3) shows no tier in
any format, but "not assessed", why nothing was measured and what to do first.

By hand. Every leg of a registered SDK is skipped for want of a command: the tier rules block
Tier 1 and Tier 2 on both conformance checks, so the document's `implied_tier` is Tier 3, over no
evidence at all. `nothing_measured` says why ("no leg of example-sdk has a command
configured") and what to do first ("set server.command, server.url and client.command in its
registry entry, or pass --server-cmd, --server-url and --client-cmd"). When the legs were
unmeasured instead, the first thing to do is the first remediation step: the server leg's,
whose blockers rank first (Tier 2 before Tier 1, two blockers each, server before client).
"""

from __future__ import annotations

import json
import re

from support.scorecards import (
    R1,
    legs_scorecard,
    measured_leg,
    nothing_measured_scorecard,
    scenario,
    skipped,
)
from tiercheck.errors import EXIT_INTERRUPTED, EXIT_NOTHING_MEASURED
from tiercheck.scorecard.readings import measured_nothing
from tiercheck.scorecard.remediation import NotAssessed, not_assessed
from tiercheck.scorecard.render.badge import render_badge_json, render_badge_svg
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import render_json
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal
from tiercheck.scoring import unmeasured_leg

WHY = "nothing was measured: no leg of example-sdk has a command configured"
FIRST = (
    "set server.command, server.url and client.command in its registry entry, or pass "
    "--server-cmd, --server-url and --client-cmd"
)


def test_the_state_and_its_words_are_decided_once() -> None:
    doc = nothing_measured_scorecard()
    assert doc.implied_tier.tier == 3  # what the tier rules make of no evidence
    assert measured_nothing(doc)
    assert not_assessed(doc) == NotAssessed(reason=WHY, hint=FIRST)


def test_the_terminal_shows_no_tier_banner() -> None:
    text = render_terminal(nothing_measured_scorecard(), color=False, width=200)
    lines = [line.strip("│ ") for line in text.splitlines()]
    assert lines[1:4] == ["NOT ASSESSED", WHY, f"first: {FIRST}"]
    assert "TIER" not in text
    assert "Implied Tier 3" not in text  # the tier's note, which speaks of a tier


def test_the_markdown_heading_says_not_assessed() -> None:
    text = render_markdown(nothing_measured_scorecard())
    assert text.startswith("# Tier Assessment: not assessed\n")
    assert f"\n> **Not assessed:** {WHY}. First: {FIRST}.\n" in text
    assert "Tier Assessment: Tier" not in text
    assert "> Implied Tier 3" not in text


def test_the_page_title_and_badge_say_not_assessed() -> None:
    page = render_html(nothing_measured_scorecard())
    assert "<title>not assessed: example-org/example-sdk</title>" in page
    assert "<span>not assessed: example-org/example-sdk</span>" in page
    assert 'aria-label="MCP tier: not assessed"' in page
    assert (
        f'<section id="not-assessed"><h2>Not assessed</h2><p>{WHY}.</p><p>First: {FIRST}.</p>'
        "</section>"
    ) in page
    assert "Tier 3" not in page


def test_the_badge_files_say_not_assessed_in_grey() -> None:
    doc = nothing_measured_scorecard()
    assert json.loads(render_badge_json(doc)) == {
        "schemaVersion": 1,
        "label": "MCP tier",
        "message": "not assessed",
        "color": "9f9f9f",
    }
    svg = render_badge_svg(doc)
    assert 'aria-label="MCP tier: not assessed"' in svg
    assert 'fill="#9f9f9f"' in svg
    assert ">3<" not in svg


def test_the_json_keeps_the_official_fields() -> None:
    data = json.loads(render_json(nothing_measured_scorecard()))
    assert data["implied_tier"]["tier"] == 3
    assert data["exit_code"] == EXIT_NOTHING_MEASURED


def test_unmeasured_legs_point_at_the_first_remediation_step() -> None:
    doc = legs_scorecard(
        unmeasured_leg("server", R1, "the build failed"),
        unmeasured_leg("client", R1, "the build failed"),
        exit_code=EXIT_NOTHING_MEASURED,
    )
    assert not_assessed(doc) == NotAssessed(
        reason="nothing was measured: every leg was unmeasured or skipped",
        hint="Make the server leg measurable: fix the build or server start-up first",
    )
    assert render_markdown(doc).startswith("# Tier Assessment: not assessed\n")


def test_it_reads_the_legs_never_the_exit_code() -> None:
    # Interrupted before any leg ran: exit 130, and nothing was measured all the same.
    interrupted = legs_scorecard(
        unmeasured_leg("server", R1, "interrupted"),
        unmeasured_leg("client", R1, "interrupted"),
        exit_code=EXIT_INTERRUPTED,
    )
    assert render_markdown(interrupted).startswith("# Tier Assessment: not assessed\n")
    # One leg measured: a tier stands on it, whatever else was skipped.
    one = legs_scorecard(
        measured_leg(R1, "server", [scenario("server-initialize")]),
        skipped(R1, "client", "no client command"),
        exit_code=0,
    )
    assert not_assessed(one) is None
    assert render_markdown(one).startswith("# Tier Assessment: Tier 3\n")
    assert re.search(r"TIER 3", render_terminal(one, color=False))
    assert "<title>Tier 3: example-org/example-sdk</title>" in render_html(one)
    assert json.loads(render_badge_json(one))["message"] == "3"
