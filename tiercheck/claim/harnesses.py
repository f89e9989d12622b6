"""The claim's section on `--compare-harness` (pure): where the harness the SDK's CI pins and
the referee disagree, so that a reviewer (and the maintainer) sees why a green CI is not yet
the tier claimed. Read from the scorecard's `harness_comparison`; never a row's verdict.

Scenario names, check ids and messages are another harness's text: each is a plain `Segment`,
neutralised by the claim's Markdown and HTML renderers.
"""

from __future__ import annotations

from tiercheck.claim.pack import Claim
from tiercheck.claim.wording import Block, Segment
from tiercheck.scorecard.harnesses import COMPARISON_NOTE, comparison_summary, leg_text

__all__ = ["COMPARISON_TITLE", "comparison_block", "comparison_paragraphs"]

#: The section's title in the claim.
COMPARISON_TITLE = "The CI's harness beside the referee"


def comparison_paragraphs(claim: Claim) -> tuple[tuple[Segment, ...], ...]:
    """What was compared and each leg, without the table (the short form)."""
    block = claim.scorecard.harness_comparison
    if block is None:
        return ()
    return (
        (
            Segment(f"Harness {block.version} beside the referee {block.referee}: "),
            Segment(f"{COMPARISON_NOTE}."),
        ),
        (Segment(comparison_summary(block) + "."),),
        *((Segment(leg_text(leg) + "."),) for leg in block.legs),
    )


def comparison_block(claim: Claim) -> Block | None:
    """The section: what was compared, each leg, and a row per disagreement; None without
    `--compare-harness`."""
    block = claim.scorecard.harness_comparison
    if block is None:
        return None
    rows = tuple(
        (
            (Segment(d.revision),),
            (Segment(d.leg),),
            (Segment(d.scenario, code=True),),
            (Segment(d.kind),),
            (Segment(d.check, code=True),) if d.check else (Segment("—"),),
            (Segment(d.referee or "—"),),
            (Segment(d.ci or "—"),),
            (Segment(d.message or ""),),
        )
        for d in block.disagreements
    )
    header = (
        (
            "Revision",
            "Leg",
            "Scenario",
            "Disagreement",
            "Check",
            "Referee",
            block.version,
            "Message",
        )
        if rows
        else ()
    )
    return Block(comparison_paragraphs(claim), header, rows)
