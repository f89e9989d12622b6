"""The tier badge of the kit: a shields-style SVG drawn here, and the shields.io endpoint JSON.

`badge.svg` needs no network to render (no font or image is fetched: the text is drawn in the
viewer's sans-serif), and `badge.json` follows the shields.io endpoint schema
(`schemaVersion`, `label`, `message`, `color`) for a repository that prefers a live badge.
"""

from __future__ import annotations

import json

from tiercheck.render.element import Href
from tiercheck.render.html import el as html_el
from tiercheck.render.html import void
from tiercheck.render.svg import Svg, el, join, svg

__all__ = [
    "NOT_ASSESSED",
    "TIER_COLORS",
    "badge_json",
    "badge_snippets",
    "badge_svg",
    "tier_badge",
    "tier_badge_json",
    "tier_text",
]

LABEL = "MCP tier"
#: Tier → colour (shields' named colours, as hex so the SVG needs no lookup).
TIER_COLORS = {1: "#44cc11", 2: "#dfb317", 3: "#e05d44"}
_NEUTRAL = "#9f9f9f"
# Verdana 11px averages about 6.5 px a character; shields pads each side by 5-6 px.
_CHAR_PX = 6.5
_PAD_PX = 12


def _width(text: str) -> int:
    return round(len(text) * _CHAR_PX + _PAD_PX)


def _lines(indent: str, *parts: Svg) -> Svg:
    """`parts` each on its own line at `indent`, the line after them one step less in."""
    return join(("", *parts), f"\n{indent}") + f"\n{indent[:-2]}"


def badge_svg(label: str, message: str, color: str, *, ids: str = "") -> Svg:
    """A flat two-part badge, `label | message`, as a standalone SVG document.

    The label and message are escaped by the SVG kit wherever they go: in element text and in
    the `aria-label` attribute (`"` and `'` too), and so is the colour, an attribute as well.
    `ids` prefixes the badge's ids (and the references to them), so that several badges set
    inline in one page each keep ids of their own."""
    left, right = _width(label), _width(message)
    total = left + right
    label_x, message_x = f"{left / 2:g}", f"{left + right / 2:g}"
    title = f"{label}: {message}"
    gradient = el(
        "linearGradient",
        el("stop", offset="0", stop_color="#bbb", stop_opacity=".1"),
        el("stop", offset="1", stop_opacity=".1"),
        id=f"{ids}s",
        x2="0",
        y2="100%",
    )
    clip = el("clipPath", el("rect", width=total, height="20", rx="3", fill="#fff"), id=f"{ids}r")
    shape = el(
        "g",
        _lines(
            "    ",
            el("rect", width=left, height="20", fill="#555"),
            el("rect", x=left, width=right, height="20", fill=color),
            el("rect", width=total, height="20", fill=f"url(#{ids}s)"),
        ),
        clip_path=f"url(#{ids}r)",
    )
    shade = {"fill": "#010101", "fill_opacity": ".3"}
    words = el(
        "g",
        _lines(
            "    ",
            el("text", label, x=label_x, y="15", **shade),
            el("text", label, id=f"{ids}label", x=label_x, y="14"),
            el("text", message, x=message_x, y="15", **shade),
            el("text", message, id=f"{ids}message", x=message_x, y="14"),
        ),
        fill="#fff",
        text_anchor="middle",
        font_family="Verdana,Geneva,DejaVu Sans,sans-serif",
        font_size="11",
    )
    body = _lines("  ", el("title", title), gradient, clip, shape, words)
    return svg(body, width=total, height="20", role="img", aria_label=title) + "\n"


def badge_json(label: str, message: str, color: str) -> str:
    """The shields.io endpoint document for the same badge."""
    data = {"schemaVersion": 1, "label": label, "message": message, "color": color.lstrip("#")}
    return json.dumps(data, indent=2) + "\n"


#: The badge's message for a run that measured nothing (no tier to show).
NOT_ASSESSED = "not assessed"


def tier_text(tier: int | None) -> str:
    """`Tier N`, or `not assessed` for None (a run that measured nothing): the words every
    page, list and feed uses for a run's tier."""
    return NOT_ASSESSED if tier is None else f"Tier {tier}"


def _tier_parts(tier: int | None) -> tuple[str, str]:
    if tier is None:
        return NOT_ASSESSED, _NEUTRAL
    return str(tier), TIER_COLORS.get(tier, _NEUTRAL)


def tier_badge(tier: int | None) -> Svg:
    """`MCP tier | N`, to inline or to save as `badge.svg`; `MCP tier | not assessed`, in
    grey, for None (a run that measured nothing)."""
    message, color = _tier_parts(tier)
    return badge_svg(LABEL, message, color)


def tier_badge_json(tier: int | None) -> str:
    """The shields.io endpoint JSON of the same badge."""
    message, color = _tier_parts(tier)
    return badge_json(LABEL, message, color)


def badge_snippets(image: str, target: str, alt: str = LABEL) -> dict[str, str]:
    """The badge `image` linked to `target`, as a README writes it: Markdown, HTML and
    reStructuredText, by name. Both URLs are ours (the site's own paths, or its base URL joined
    to them: no space, quote, bracket or parenthesis); the HTML is made by the HTML kit."""
    html = html_el("a", void("img", src=Href(image), alt=alt), href=Href(target))
    return {
        "Markdown": f"[![{alt}]({image})]({target})",
        "HTML": str(html),
        "reStructuredText": f".. image:: {image}\n   :alt: {alt}\n   :target: {target}",
    }
