"""A dispute's issue in the scorecard's formats: the pages link it (Markdown, HTML) when its
address is an issue or pull request of the conformance repository, as the disputes file
requires; any other address is shown as written; the plain text formats show the URL.

By hand: `tools-call-image` fails on the server leg at 2025-11-25 and its dispute, issue 7 of
modelcontextprotocol/conformance, is open; GitHub names that issue
`modelcontextprotocol/conformance#7`.
"""

from __future__ import annotations

import dataclasses

import pytest

from support.scorecards import (
    R1,
    check,
    implied,
    labels,
    measured_leg,
    p0,
    policy,
    release,
    scenario,
    scorecard,
    spec_tracking,
    triage,
)
from tiercheck.governance.disputes import DisputeMark
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal
from tiercheck.tier import Blocker

ISSUE = "https://github.com/modelcontextprotocol/conformance/issues/7"
LABEL = "modelcontextprotocol/conformance#7"


def _disputed(issue: str, title: str | None = "asks too much") -> Scorecard:
    mark = DisputeMark(
        state="open",
        verified=True,
        issue=issue,
        reason="the check reads an optional field",
        why="hand-made",
        title=title,
    )
    server = [
        scenario("server-initialize"),
        scenario("tools-call-image", passed=False, failing=[check("image-check", "bad")]),
    ]
    leg = measured_leg(R1, "server", server)
    leg = dataclasses.replace(
        leg,
        details=tuple(
            dataclasses.replace(d, dispute=mark) if d.scenario == "tools-call-image" else d
            for d in leg.details
        ),
    )
    return scorecard(
        legs={R1: {"server": leg, "client": measured_leg(R1, "client", [scenario("initialize")])}},
        signals={
            "labels": labels(),
            "triage": triage(),
            "p0_resolution": p0(),
            "stable_release": release(),
            "policy_signals": policy(),
            "spec_tracking": spec_tracking(),
        },
        tier=implied(2, [Blocker(check="server_conformance", tier=1)], []),
    )


def _dispute_row(markdown: str) -> str:
    return next(line for line in markdown.splitlines() if line.startswith("| `tools-call-image`"))


def test_the_markdown_table_links_the_issue() -> None:
    row = _dispute_row(render_markdown(_disputed(ISSUE)))
    assert f"| [`{LABEL}`]({ISSUE}) asks too much |" in row


def test_the_page_links_the_issue_between_the_reason_and_the_title() -> None:
    page = render_html(_disputed(ISSUE))
    assert (
        '<div class="msg">disputed (open): not in the SEP-1730 reading, still in the official; '
        f'the check reads an optional field; <a href="{ISSUE}">{LABEL}</a> \u201casks too much'
        "\u201d</div>"
    ) in page


def test_a_pull_request_is_linked_too() -> None:
    pull = "https://github.com/modelcontextprotocol/conformance/pull/12"
    assert f"[`modelcontextprotocol/conformance#12`]({pull})" in render_markdown(_disputed(pull))
    assert f'<a href="{pull}">modelcontextprotocol/conformance#12</a>' in render_html(
        _disputed(pull)
    )


@pytest.mark.parametrize(
    "issue",
    [
        # Another repository, a query, plain http, a release page: not what the disputes file
        # allows, so shown as written (a scorecard read back may hold anything).
        "https://github.com/someone/conformance/issues/7",
        f"{ISSUE}?x=1",
        "http://github.com/modelcontextprotocol/conformance/issues/7",
        "https://github.com/modelcontextprotocol/conformance/releases/tag/v1",
        "javascript:alert(1)",
    ],
)
def test_any_other_address_is_shown_as_written_and_never_linked(issue: str) -> None:
    markdown = render_markdown(_disputed(issue))
    assert f"| `{issue}` asks too much |" in _dispute_row(markdown)
    assert f"]({issue}" not in markdown
    page = render_html(_disputed(issue))
    assert f"the check reads an optional field; {issue} \u201casks too much" in page
    assert f'href="{issue}' not in page


def test_a_title_that_looks_like_an_issue_stays_text() -> None:
    # The title is the issue's, from GitHub: untrusted, never a link even of the linked shape.
    other = "https://github.com/modelcontextprotocol/conformance/issues/99"
    markdown = render_markdown(_disputed(ISSUE, title=other))
    assert f"| [`{LABEL}`]({ISSUE}) `{other}` |" in _dispute_row(markdown)
    page = render_html(_disputed(ISSUE, title=other))
    assert f'href="{other}"' not in page
    assert f"\u201c{other}\u201d" in page


def test_the_plain_text_formats_show_the_url() -> None:
    doc = _disputed(ISSUE)
    assert f"the check reads an optional field; {ISSUE} \u201casks too much\u201d" in " ".join(
        render_terminal(doc, color=False, width=400).split()
    )
    assert f"the check reads an optional field; {ISSUE} \u201casks too much\u201d" in (
        render_junit(doc)
    )
