"""The header's version in every scorecard format: the official reading from GitHub releases,
and the release read from the checkout's tags only when the official one is none."""

from __future__ import annotations

from typing import Any

import pytest

from support.scorecards import edited, tier1_scorecard
from tiercheck.scorecard.model import Scorecard
from tiercheck.scorecard.readings import version_text
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.markdown import render_markdown
from tiercheck.scorecard.render.terminal import render_terminal

RELEASE = {"tag": "tower-mcp-v0.21.0", "version": "0.21.0", "stable": False}


def _doc(version: str | None, release: dict[str, Any] | None) -> Scorecard:
    def change(data: dict[str, Any]) -> None:
        data["version"] = version
        if release is not None:
            data["sdk"]["release"] = release

    return edited(tier1_scorecard(), change)


def _formats(doc: Scorecard, shown: str) -> list[tuple[str, str]]:
    """(rendered text, how its header line shows `shown`) for each scorecard format."""
    return [
        (render_terminal(doc, color=False, width=200), f"version {shown} · requirements"),
        (render_markdown(doc), f"**Version:** {shown}  \n"),
        (render_html(doc), f"· version {shown} · revisions"),
    ]


@pytest.mark.parametrize(
    ("version", "release", "expected"),
    [
        # The official reading is shown as it is, with or without a tag reading beside it.
        ("1.4.2", RELEASE, "1.4.2"),
        ("1.4.2", None, "1.4.2"),
        # None from GitHub, none from the tags.
        (None, None, "none"),
        # None from GitHub: the tag reading, and the tag when it is more than the version.
        (None, RELEASE, "none from GitHub releases · tags: 0.21.0 (tower-mcp-v0.21.0)"),
        (
            None,
            {"tag": "1.0.0", "version": "1.0.0", "stable": True},
            "none from GitHub releases · tags: 1.0.0",
        ),
    ],
)
def test_the_header_version(
    version: str | None, release: dict[str, Any] | None, expected: str
) -> None:
    doc = _doc(version, release)
    assert version_text(doc) == expected
    for text, line in _formats(doc, expected):
        assert line in text
        if version is not None:
            assert "tags:" not in text
