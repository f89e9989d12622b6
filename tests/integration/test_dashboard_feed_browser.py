"""The badge panel, triage links and the Atom feed of thirty nights, in headless Chromium and
through checkers nobody here wrote (the W3C Nu HTML Checker, axe-core's WCAG 2.1 A/AA rules).

The site is built as the nightly builds it, in place night after night, with a triage file and
a base URL, from the story of `support.nights` (worked out by hand there): alpha-sdk's
`tools-call-image` (2025-11-25, server) fails on nights 12-14 (Tier 1 → 2), passes from night
15; its server leg at 2025-11-25 is unmeasured on night 20; beta-sdk's `auth/scope-step-up`
fails every night. The triage file links both failures, with a hostile note on beta's.

The Nu HTML Checker (from Maven Central) and axe-core (from npm) are installed into
`.venv/webcheck` (or `TIERCHECK_WEBCHECK`) as `support.page_checks` says; without them those
tests skip, saying so (or fail under TIERCHECK_REQUIRE_TOOLS=1).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from support import browser, page_checks
from support.browser import Text, id_text, site_page
from support.hostile_text import HOSTILE
from support.nights import R1, alpha, beta, gamma, records
from tiercheck.cli.app import main
from tiercheck.history.store import HistoryStore

BASE = "https://example.github.io/tiers/"
KEPT = (12, 15, 20)
#: A one-line note holding what could make markup, a ping or a link (the schema takes one line).
NOTE = " ".join(
    HOSTILE[k] for k in ("script", "img-onerror", "user-mention", "md-link", "autolink", "www")
)


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium() -> None:
    browser.require_chromium()


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    root = tmp_path_factory.mktemp("feed-nights")
    triage = root / "triage.yaml"
    entries = [
        {
            "line": "alpha-sdk",
            "scenario": "tools-call-image",
            "revision": R1,
            "leg": "server",
            "issue": "https://github.com/example/alpha-sdk/issues/12",
            "note": "MIME type missing",
        },
        {
            "line": "beta-sdk",
            "scenario": "auth/scope-step-up",
            "leg": "client",
            "issue": "https://github.com/example/beta-sdk/issues/7",
            "note": NOTE,
        },
    ]
    triage.write_text(yaml.safe_dump({"triage": entries}), "utf-8")
    db, site = root / "history.sqlite", root / "site"
    store = HistoryStore(db)
    kept: dict[int, Path] = {}
    for n in range(1, max(KEPT) + 1):
        store.append_many(records([alpha(n), beta(n), gamma(n)]))
        argv = ["publish", "--history", str(db), "--out", str(site)]
        assert main([*argv, "--triage", str(triage), "--base-url", BASE]) == 0
        if n in KEPT:
            kept[n] = root / f"site-{n:02d}"
            shutil.copytree(site, kept[n])
    return kept


def _page(tmp_path: Path, site: Path, path: str) -> Text:
    parsed = site_page(tmp_path, site, path)
    assert "img" not in parsed.tags
    return parsed


_id = id_text


def _feed_titles(tmp_path: Path, site: Path) -> list[str]:
    """The entries' titles as Chromium's XML parser reads the feed (an error shows instead)."""
    dom = browser.chromium(tmp_path, "--dump-dom", (site / "feed.atom").as_uri())
    assert "error on line" not in dom, dom[:500]
    assert "parsererror" not in dom, dom[:500]
    return re.findall(r"<title[^>]*>([^<]*) on (\d{4}-\d{2}-\d{2})</title>", dom)


def test_night_12_the_panel_the_link_and_the_feed(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[12]
    line = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert "triaged example/alpha-sdk#12 : MIME type missing" in _id(line, "streaks")
    assert "failing alpha-sdk 2025-11-25 server tools-call-image" in _id(line, "triage")
    # The grid's failing cell carries the same link.
    grid = _page(tmp_path, site, "grid.html")
    cell = _id(grid, "g-2025-11-25-server-tools-call-image-alpha-sdk")
    assert cell.startswith("✗ fail since 2026-10-12"), cell
    assert cell.endswith("example/alpha-sdk#12"), cell
    snippets = _id(line, "badge-snippets")
    assert f"[![MCP tier]({BASE}badges/alpha-sdk.svg)]({BASE}lines/alpha-sdk.html)" in snippets
    assert f'<a href="{BASE}lines/alpha-sdk.html"><img src="{BASE}badges/alpha-sdk.svg"' in (
        snippets
    )
    assert f".. image:: {BASE}badges/alpha-sdk.svg :alt: MCP tier :target: " in snippets
    urls = _id(line, "badge-urls")
    assert f"SVG: {BASE}badges/alpha-sdk.svg" in urls
    assert "https://img.shields.io/endpoint?url=https%3A%2F%2Fexample.github.io" in urls
    index = _page(tmp_path, site, "index.html")
    assert "link" in index.tags  # the feed's link in the head
    assert "stale-triage" not in index.ids
    assert _feed_titles(tmp_path, site) == [("alpha-sdk regressed", "2026-10-12")]


def test_night_15_the_recovery_and_the_stale_entry(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[15]
    assert _feed_titles(tmp_path, site) == [
        ("alpha-sdk recovered", "2026-10-15"),
        ("alpha-sdk regressed", "2026-10-12"),
    ]
    index = _page(tmp_path, site, "index.html")
    stale = _id(index, "stale-triage")
    assert "stale alpha-sdk 2025-11-25 server tools-call-image" in stale
    assert "the scenario passes now; remove the entry (triage.yaml: triage[0])" in stale
    line = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert _id(line, "triage").startswith("stale alpha-sdk")


def test_night_20_an_unmeasured_leg_is_neither(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[20]
    line = _page(tmp_path, site, "lines/alpha-sdk.html")
    assert _id(line, "triage").startswith("not measured alpha-sdk")
    index = _page(tmp_path, site, "index.html")
    assert "stale-triage" not in index.ids
    # The leg newly unmeasured is a regression of its own (it may hide a failure), not the
    # triaged failure come back, nor a fix.
    assert _feed_titles(tmp_path, site) == [
        ("alpha-sdk regressed", "2026-10-20"),
        ("alpha-sdk recovered", "2026-10-15"),
        ("alpha-sdk regressed", "2026-10-12"),
    ]


def test_a_hostile_note_is_text_on_every_page(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[12]
    for path in ("lines/beta-sdk.html", "scenarios/client-auth-scope-step-up-aeafbbb1.html"):
        page = _page(tmp_path, site, path)
        # The note arrives whole, as one piece of text (no element made of any part of it).
        assert any(NOTE in piece for piece in page.text)
        text = (site / path).read_text("utf-8")
        hrefs = set(re.findall(r'href="([^"]*)"', text))
        outside = {h for h in hrefs if h.startswith("http")}
        assert outside <= {"https://github.com/example/beta-sdk/issues/7"} | {
            h for h in hrefs if h.startswith((BASE, "https://img.shields.io/"))
        }, outside


# --- checkers nobody here wrote ---------------------------------------------------------------


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_page_passes_the_nu_html_checker(sites: dict[int, Path]) -> None:
    pages = [p for n in KEPT for p in _pages(sites[n])]
    errors = page_checks.vnu_errors(pages)
    assert errors == [], "\n".join(errors[:20])


@pytest.mark.parametrize(
    "path",
    [
        "index.html",
        "lines/alpha-sdk.html",
        "lines/beta-sdk.html",
        "scenarios/server-tools-call-image.html",
    ],
)
def test_axe_finds_no_wcag_21_a_or_aa_violation(
    sites: dict[int, Path], tmp_path: Path, path: str
) -> None:
    violations = page_checks.axe_violations(tmp_path, sites[12] / path)
    assert violations == [], [(v["id"], v["help"]) for v in violations]
