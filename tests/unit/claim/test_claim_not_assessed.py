"""A claim on a run that measured nothing shows no implied tier (the scorecard's `not assessed`
state), in `assessment.md`, `claim.html` and `remediation.md`.

By hand: both legs of the registered example SDK were skipped for want of a command, so nothing
was measured ("no leg of example-sdk has a command configured"); the tier rules alone would
make it Tier 3, over no evidence.
"""

from __future__ import annotations

from support.scorecards import R1, legs_scorecard, measured_leg, scenario, skipped
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.markdown import render_assessment, render_remediation
from tiercheck.claim.pack import Claim, ClaimContext, build_claim
from tiercheck.scorecard.model import Scorecard
from tiercheck.scoring import LegVerdict

WHY = "nothing was measured: no leg of example-sdk has a command configured"


def _claim(server: LegVerdict) -> Claim:
    doc: Scorecard = legs_scorecard(server, skipped(R1, "client", "no client command"), exit_code=3)
    return build_claim(doc, target_tier=2, snapshot=None, tree=None, context=ClaimContext())


def test_the_claim_shows_no_tier_when_nothing_was_measured() -> None:
    claim = _claim(skipped(R1, "server", "no server command/url configured"))
    assert claim.scorecard.implied_tier.tier == 3
    assert f"**Implied tier**: not assessed ({WHY})" in render_assessment(claim)
    assert "**Implied tier**: not assessed · **Target**: Tier 2" in render_remediation(claim)
    page = render_claim_html(claim)
    assert 'aria-label="MCP tier: not assessed"' in page
    assert "<strong>Implied tier</strong>: not assessed (" in page
    assert "Tier 3 (official reading)" not in page


def test_one_leg_measured_keeps_the_tier() -> None:
    claim = _claim(measured_leg(R1, "server", [scenario("server-initialize")]))
    assert "**Implied tier**: Tier 3 (official reading)" in render_assessment(claim)
    assert "**Implied tier**: Tier 3 · **Target**: Tier 2" in render_remediation(claim)
    assert 'aria-label="MCP tier: 3"' in render_claim_html(claim)
