"""The pages a run writes beside its scorecard, and the site copies from the matrix, on any
screen in headless Chromium: `scorecard.html` (a mixed run, one with probes, one full of
hostile text, one of 200 KB texts), `claim.html` and the matrix's page never scroll sideways
on a phone's 360 px (a wide table scrolls in its own region; wider screens follow), and pass
axe-core's WCAG 2.1 A/AA rules at 400 and 1,400 px and the W3C Nu HTML Checker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support import browser, page_checks
from support.hostile_text import hostile_scorecard
from support.matrices import report_matrix
from support.scorecards import mixed_scorecard, probed_scorecard
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.pack import build_claim
from tiercheck.claim.policies import POLICY_PATHS
from tiercheck.claim.sources import read_tree
from tiercheck.governance.snapshot import load_snapshot
from tiercheck.matrix.html import render_matrix_html
from tiercheck.scorecard.render.html import render_html

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample-sdk"
PAGES = ("scorecard.html", "probed.html", "hostile.html", "huge.html", "claim.html", "matrix.html")
PHONE, NARROW, WIDE = 360, 400, 1400


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Chromium, and one of it for every page of the module (`browser.shared`)."""
    browser.require_chromium()
    with browser.shared(tmp_path_factory.mktemp("browser")):
        yield


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reports")
    claim = build_claim(
        mixed_scorecard(),
        target_tier=1,
        snapshot=load_snapshot(SAMPLE / "governance-snapshot.json"),
        tree=read_tree(SAMPLE, POLICY_PATHS),
    )
    rendered = {
        "scorecard.html": render_html(mixed_scorecard()),
        "probed.html": render_html(probed_scorecard()),
        "hostile.html": render_html(hostile_scorecard("all-at-once")),
        "huge.html": render_html(hostile_scorecard("huge")),
        "claim.html": render_claim_html(claim),
        "matrix.html": render_matrix_html(report_matrix()),
    }
    for name, html in rendered.items():
        (root / name).write_text(html, "utf-8")
    return root


@pytest.mark.parametrize("name", PAGES)
def test_no_report_page_scrolls_sideways_on_a_phone(pages: Path, tmp_path: Path, name: str) -> None:
    found = page_checks.page_widths(tmp_path, pages / name, PHONE)
    assert found.viewport == PHONE
    assert found.wide == ()
    assert found.scroll == PHONE, found


@pytest.mark.parametrize("width", [NARROW, WIDE])
@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_wcag_21_a_or_aa_violation(
    pages: Path, tmp_path: Path, name: str, width: int
) -> None:
    violations = page_checks.axe_violations(tmp_path, pages / name, width)
    assert violations == [], [(v["id"], v["help"]) for v in violations]


def test_every_report_page_passes_the_nu_html_checker(pages: Path) -> None:
    errors = page_checks.vnu_errors(sorted(pages.glob("*.html")))
    assert errors == [], "\n".join(errors[:20])
