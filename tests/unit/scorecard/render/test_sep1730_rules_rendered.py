"""The three SEP-1730 readings no official check has, in every scorecard format and the claim's
header: the tier each side alone would earn, issues unaddressed for two months and the
release-date rule beside the official spec-tracking gap."""

from __future__ import annotations

import json
from typing import Any

from support.scorecards import edited, mixed_scorecard
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.json_format import render_json
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

ALONE = "server side alone: Tier 1 · client side alone: Tier 3 (SEP-1730: Tier 2)"
UNADDRESSED = "2 of 9 open issues unaddressed for 60+ days"
BY_DATE = "2026-07-28: after the release date (v1.0.0, +1 d)"


def _with_readings(doc: Scorecard) -> Scorecard:
    def change(data: dict[str, Any]) -> None:
        data["implied_tier"]["leg_tiers"] = {
            "server": 1,
            "client": 3,
            "sep1730_server": 1,
            "sep1730_client": 2,
        }
        data["checks"]["unaddressed_issues"] = {
            "status": "fail",
            "reason": None,
            "official": None,
            "sep1730": {
                "status": "fail",
                "days": 60,
                "open_issues": 9,
                "addressed": 7,
                "unaddressed_total": 2,
                "unaddressed": [
                    {"number": 4, "title": "<b>x</b>", "created_at": "x", "age_days": 75},
                    {"number": 8, "title": "y", "created_at": "y", "age_days": 61},
                ],
                "oldest_age_days": 75,
                "departures": "",
            },
            "disagrees_with_official": False,
        }
        data["checks"]["spec_tracking"]["by_release_date"] = [
            {
                "revision": "2026-07-28",
                "release": "v1.0.0",
                "days_after": 1,
                "status": "after the release date",
            }
        ]

    return edited(doc, change)


def test_every_format_shows_the_three_readings() -> None:
    doc = _with_readings(mixed_scorecard())
    terminal = " ".join(render_terminal(doc, color=False, width=400).split())
    markdown = render_markdown(doc)
    page = render_html(doc)
    for text in (terminal, markdown, page):
        assert ALONE in text
        assert UNADDRESSED in text
        assert "oldest" in text
        assert "75 days" in text
        assert BY_DATE in text
    # Beside the implied tier, never instead of it.
    assert doc.implied_tier.tier != 1
    data = json.loads(render_json(doc))
    assert data["implied_tier"]["tier"] == doc.implied_tier.tier
    assert data["implied_tier"]["leg_tiers"]["client"] == 3
    assert data["checks"]["unaddressed_issues"]["official"] is None


def test_older_scorecards_render_without_them() -> None:
    doc = mixed_scorecard()
    assert doc.implied_tier.leg_tiers is None
    assert doc.checks.unaddressed_issues is None
    assert "side alone" not in render_markdown(doc)
    assert "Unaddressed" not in render_markdown(doc)
