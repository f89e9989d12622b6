"""The tier badge: a shields-style SVG drawn here, and the shields.io endpoint JSON.

`badge.svg` needs no network to render (no font or image is fetched: the text is drawn in the
viewer's sans-serif), and `badge.json` follows the shields.io endpoint schema
(`schemaVersion`, `label`, `message`, `color`) for a repository that prefers a live badge.
"""

from __future__ import annotations

import html
import json
from xml.sax.saxutils import escape

from tiercheck.scorecard.model import Scorecard

__all__ = ["TIER_COLORS", "badge_json", "badge_svg", "render_badge_json", "render_badge_svg"]

LABEL = "MCP tier"
#: Tier → colour (shields' named colours, as hex so the SVG needs no lookup).
TIER_COLORS = {1: "#44cc11", 2: "#dfb317", 3: "#e05d44"}
_NEUTRAL = "#9f9f9f"
# Verdana 11px averages about 6.5 px a character; shields pads each side by 5-6 px.
_CHAR_PX = 6.5
_PAD_PX = 12


def _width(text: str) -> int:
    return round(len(text) * _CHAR_PX + _PAD_PX)


def badge_svg(label: str, message: str, color: str) -> str:
    """A flat two-part badge, `label | message`, as a standalone SVG document.

    Text is escaped for where it goes: `&`, `<` and `>` in element text, and `"` and `'` too in
    the `aria-label` attribute (and the colour, an attribute as well)."""
    left, right = _width(label), _width(message)
    total = left + right
    label_x, message_x = left / 2, left + right / 2
    title = f"{label}: {message}"
    fill = html.escape(color, quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" '
        f'role="img" aria-label="{html.escape(title, quote=True)}">\n'
        f"  <title>{escape(title)}</title>\n"
        f'  <linearGradient id="s" x2="0" y2="100%">'
        f'<stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        f'<stop offset="1" stop-opacity=".1"/></linearGradient>\n'
        f'  <clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>\n'
        f'  <g clip-path="url(#r)">\n'
        f'    <rect width="{left}" height="20" fill="#555"/>\n'
        f'    <rect x="{left}" width="{right}" height="20" fill="{fill}"/>\n'
        f'    <rect width="{total}" height="20" fill="url(#s)"/>\n'
        f"  </g>\n"
        f'  <g fill="#fff" text-anchor="middle" '
        f'font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">\n'
        f'    <text x="{label_x:g}" y="15" fill="#010101" fill-opacity=".3">'
        f"{escape(label)}</text>\n"
        f'    <text id="label" x="{label_x:g}" y="14">{escape(label)}</text>\n'
        f'    <text x="{message_x:g}" y="15" fill="#010101" fill-opacity=".3">'
        f"{escape(message)}</text>\n"
        f'    <text id="message" x="{message_x:g}" y="14">{escape(message)}</text>\n'
        f"  </g>\n"
        f"</svg>\n"
    )


def badge_json(label: str, message: str, color: str) -> str:
    """The shields.io endpoint document for the same badge."""
    data = {"schemaVersion": 1, "label": label, "message": message, "color": color.lstrip("#")}
    return json.dumps(data, indent=2) + "\n"


def _tier_parts(doc: Scorecard) -> tuple[str, str]:
    tier = doc.implied_tier.tier
    return str(tier), TIER_COLORS.get(tier, _NEUTRAL)


def render_badge_svg(doc: Scorecard) -> str:
    """`MCP tier | N` for the scorecard's implied tier (the official reading)."""
    message, color = _tier_parts(doc)
    return badge_svg(LABEL, message, color)


def render_badge_json(doc: Scorecard) -> str:
    """The shields.io endpoint JSON of the scorecard's tier."""
    message, color = _tier_parts(doc)
    return badge_json(LABEL, message, color)
