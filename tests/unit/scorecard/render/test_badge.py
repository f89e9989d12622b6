"""The tier badge: a valid SVG saying "MCP tier | N", and the shields.io endpoint JSON."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from support.scorecards import mixed_scorecard, tier1_scorecard
from tiercheck.render.badge import badge_svg
from tiercheck.scorecard.render.badge import render_badge_json, render_badge_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(("doc", "tier"), [(tier1_scorecard(), "1"), (mixed_scorecard(), "3")])
def test_badge_svg_parses_as_xml_and_says_the_tier(doc, tier: str) -> None:
    root = ET.fromstring(render_badge_svg(doc))
    assert root.tag == f"{SVG}svg"
    texts = {t.get("id"): t.text for t in root.iter(f"{SVG}text") if t.get("id")}
    assert texts == {"label": "MCP tier", "message": tier}
    assert root.findtext(f"{SVG}title") == f"MCP tier: {tier}"
    # Nothing to fetch: no href to anywhere but the badge's own clip path and gradient.
    hrefs = [v for e in root.iter() for k, v in e.attrib.items() if "href" in k]
    assert hrefs == []


def test_badge_text_is_escaped() -> None:
    root = ET.fromstring(badge_svg("a<b", "x&y", "#123456"))
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("id")] == ["a<b", "x&y"]


def test_badge_json_follows_the_shields_endpoint_schema() -> None:
    data = json.loads(render_badge_json(tier1_scorecard()))
    assert data == {"schemaVersion": 1, "label": "MCP tier", "message": "1", "color": "44cc11"}
