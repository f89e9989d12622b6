"""The scorecard's tier badge (`badge.svg`, `badge.json`): the kit's badge of its implied tier.

The official reading's tier, the one `implied_tier.tier` holds; drawn by `render.badge`.
"""

from __future__ import annotations

from tiercheck.render.badge import tier_badge, tier_badge_json
from tiercheck.scorecard.model import Scorecard

__all__ = ["render_badge_json", "render_badge_svg"]


def render_badge_svg(doc: Scorecard) -> str:
    """`badge.svg`: the scorecard's tier badge as a document of its own."""
    return str(tier_badge(doc.implied_tier.tier))


def render_badge_json(doc: Scorecard) -> str:
    """The shields.io endpoint JSON of the scorecard's tier."""
    return tier_badge_json(doc.implied_tier.tier)
