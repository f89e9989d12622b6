"""The site made of 100 KB everything (`support.hostile_site`: every name, message and reason,
with bidirectional overrides, isolates, zero-width characters and noncharacters all through)
validates: no Nu HTML Checker error on any page, no axe-core WCAG 2.1 A/AA violation on each
kind of page, and Chromium's rendering of them holds no character that hides or reorders text.
Its size per page is `tests/unit/publish/test_site_bounds.py`'s."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import browser
from support.browser import site_page
from support.hostile_site import huge_runs
from support.page_checks import axe_violations, vnu_errors
from tiercheck.plaintext import HIDDEN
from tiercheck.publish.site import build_site


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium() -> None:
    browser.require_chromium()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "site"
    build_site(huge_runs(), out)
    return out


def _kinds(site: Path) -> list[str]:
    """One page of each kind: the index, a line, a scenario, the grid, a night, the nights."""
    line = min(p.name for p in (site / "lines").glob("alpha-sdk*.html"))
    scenario = min(p.name for p in (site / "scenarios").glob("server-tools-call-image*.html"))
    return [
        "index.html",
        f"lines/{line}",
        f"scenarios/{scenario}",
        "grid.html",
        "nights/2026-10-12.html",
        "nights/index.html",
    ]


def test_every_page_passes_the_nu_html_checker(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= 20
    assert vnu_errors(pages) == []


@pytest.mark.parametrize("kind", range(6))
def test_axe_finds_no_wcag_21_a_or_aa_violation(site: Path, tmp_path: Path, kind: int) -> None:
    page = site / _kinds(site)[kind]
    violations = axe_violations(tmp_path, page)
    assert [(v["id"], v["help"]) for v in violations] == []


@pytest.mark.parametrize("kind", range(6))
def test_the_rendered_text_shows_no_reordering_character(
    site: Path, tmp_path: Path, kind: int
) -> None:
    parsed = site_page(tmp_path, site, _kinds(site)[kind])
    text = "".join(parsed.text)
    assert text
    assert not HIDDEN.search(text)
    # What the overrides were is shown, in the order it was written.
    if kind < 4:
        assert "abc[U+202E]dcba.exe" in text
