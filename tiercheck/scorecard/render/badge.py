"""The scorecard's tier badge (`badge.svg`, `badge.json`): the kit's badge of its implied tier.

The official reading's tier, the one `implied_tier.tier` holds; drawn by `render.badge`. A run
that measured nothing shows no tier: `MCP tier | not assessed`, in grey
(`scorecard.remediation.not_assessed`).
"""

from __future__ import annotations

from tiercheck.render.badge import tier_badge, tier_badge_json
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.remediation import not_assessed

__all__ = ["render_badge_json", "render_badge_svg"]


def _tier(doc: Scorecard) -> int | None:
    """The tier the badge shows: None when nothing was measured."""
    return None if not_assessed(doc) else doc.implied_tier.tier


def render_badge_svg(doc: Scorecard) -> str:
    """`badge.svg`: the scorecard's tier badge as a document of its own."""
    return str(tier_badge(_tier(doc)))


def render_badge_json(doc: Scorecard) -> str:
    """The shields.io endpoint JSON of the scorecard's tier."""
    return tier_badge_json(_tier(doc))
