"""The claim shows the scenarios the disputes file names: SEP-1730 leaves an open one out,
the official reading counts it, and a resolved one counts again.

By hand: the server leg at 2025-11-25 runs three scored scenarios; `tools-call-image` fails and
its dispute (conformance#7) is open. Officially 2/3; SEP-1730 reads 2/2, one disputed scenario
left out. Once the dispute is resolved SEP-1730 reads 2/3 again.
"""

from __future__ import annotations

import dataclasses
import json

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
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.pack import Claim, ClaimContext, build_claim, claim_to_dict
from tiercheck.governance.disputes import DisputeMark
from tiercheck.scorecard.model import Scorecard
from tiercheck.tier import Blocker

ISSUE = "https://github.com/modelcontextprotocol/conformance/issues/7"
LABEL = "modelcontextprotocol/conformance#7"
REASON = "the check reads a field the spec makes optional"


def _scorecard(state: str, *, disputed: bool = True, issue: str = ISSUE) -> Scorecard:
    mark = DisputeMark(
        state=state,  # type: ignore[arg-type]
        verified=state == "open",
        issue=issue,
        reason=REASON,
        why="hand-made",
        title="tools-call-image asks for too much",
    )
    server = [
        scenario("server-initialize"),
        scenario("tools-list"),
        scenario("tools-call-image", passed=False, failing=[check("image-check", "bad")]),
    ]
    leg = measured_leg(R1, "server", server)
    if disputed:
        leg = dataclasses.replace(
            leg,
            details=tuple(
                dataclasses.replace(d, dispute=mark) if d.scenario == "tools-call-image" else d
                for d in leg.details
            ),
        )
    blockers = [Blocker(check="server_conformance", tier=1)]
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
        tier=implied(2, blockers, []),
    )


def _claim(doc: Scorecard) -> Claim:
    return build_claim(doc, target_tier=1, snapshot=None, tree=None, context=ClaimContext())


def _server_row(text: str) -> str:
    return next(line for line in text.splitlines() if "| Server conformance |" in line)


def test_an_open_dispute_is_left_out_of_sep1730_and_counted_officially() -> None:
    claim = _claim(_scorecard("open"))
    data = claim_to_dict(claim)
    (entry,) = data["conformance"]["disputed"]
    assert entry == {
        "leg": "server",
        "revision": R1,
        "scenario": "tools-call-image",
        "result": "failed",
        "scored": True,
        "state": "open",
        "verified": True,
        "issue": ISSUE,
        "reason": REASON,
        "title": "tools-call-image asks for too much",
    }
    json.dumps(data)  # the claim.json form
    row = _server_row(render_assessment(claim))
    assert "66.7%: 2/3 @ 2025-11-25" in row  # the official figure, the disputed one counted
    assert "SEP-1730 without 1 disputed scenario: 100% (2/2)" in row
    text = render_assessment(claim)
    assert "`tools-call-image` @ 2025-11-25: failed, dispute open (" in text
    # The issue the reviewed file names is linked, named as GitHub names it.
    assert f"(the check reads a field the spec makes optional, [`{LABEL}`]({ISSUE}))" in text
    page = render_claim_html(claim)
    assert "dispute open" in page
    assert f'<code><a href="{ISSUE}">{LABEL}</a></code>' in page


#: Addresses the disputes file would refuse (a scorecard read back may hold anything): each is
#: shown as written, never linked.
NOT_LINKED = [
    "https://github.com/someone/conformance/issues/7",
    f"{ISSUE}?x=1",
    "http://github.com/modelcontextprotocol/conformance/issues/7",
    "https://github.com/modelcontextprotocol/conformance/releases/tag/v1",
]


@pytest.mark.parametrize("issue", NOT_LINKED)
def test_an_issue_of_another_shape_is_shown_as_written_and_never_linked(issue: str) -> None:
    claim = _claim(_scorecard("open", issue=issue))
    text = render_assessment(claim)
    assert f"(the check reads a field the spec makes optional, `{issue}`)" in text
    assert f"]({issue}" not in text
    page = render_claim_html(claim)
    assert f"<code>{issue}</code>" in page.replace("&amp;", "&")
    assert f'href="{issue}' not in page


def test_a_resolved_dispute_counts_again() -> None:
    claim = _claim(_scorecard("resolved"))
    row = _server_row(render_assessment(claim))
    assert "66.7%: 2/3 @ 2025-11-25" in row
    assert "SEP-1730 without" not in row
    text = render_assessment(claim)
    assert "failed, dispute resolved, counted again, unverified (" in text


def test_no_dispute_adds_nothing() -> None:
    claim = _claim(_scorecard("open", disputed=False))
    assert claim_to_dict(claim)["conformance"]["disputed"] == []
    assert "Disputed" not in render_assessment(claim)
    assert "Disputed" not in render_claim_html(claim)
