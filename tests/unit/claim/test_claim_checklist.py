"""The summary and the reviewer checklist say only what is true of the tiers judged.

A Tier 2 claim judges Tier 2 and Tier 3. Tier 3 asks for nothing, so no row applies to it; the
sample's row 4b (spec tracking) applies to neither tier (Tier 1 only), so there is nothing to fix
and nothing to check for it.
"""

from __future__ import annotations

from support.scorecards import sample_scorecard
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.markdown import render_assessment
from tiercheck.claim.pack import build_claim


def test_a_tier_2_claim_says_tier_3_asks_nothing_and_lists_nothing_to_fix() -> None:
    claim = build_claim(sample_scorecard(), target_tier=2, snapshot=None, tree=None)
    assert claim.tiers == (2, 3)
    row = next(r for r in claim.rows if r.id == "4b")
    assert (row.verdicts, row.review is not None) == (("n/a", "n/a"), True)
    text = render_assessment(claim)
    assert "- Tier 3: no row applies, so nothing blocks" in text
    assert "0/0 rows pass" not in text
    assert "(None)" not in text
    checklist = text[text.index("## Reviewer checklist") :].split("\n## ")[0]
    assert "**4b " not in checklist
    html = render_claim_html(claim).split('id="checklist"')[1].split("</section>")[0]
    assert "Reviewer checklist" in html
    assert "4b Spec tracking" not in html


def test_a_tier_1_claim_still_asks_to_check_row_4b() -> None:
    text = render_assessment(
        build_claim(sample_scorecard(), target_tier=1, snapshot=None, tree=None)
    )
    checklist = text[text.index("## Reviewer checklist") :].split("\n## ")[0]
    assert "**4b Spec tracking**: check that" in checklist
