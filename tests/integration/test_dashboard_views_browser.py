"""The cross-SDK grid and the night pages of thirty nights, checked in headless Chromium, by the
Nu HTML Checker and by axe-core.

The site is brought up to date night by night in one folder, as the nightly does, and kept as
it was after nights 12, 15, 20 and 30. The nights are the story of `support.nights`; the
expected cells and entries are worked out by hand from it (see each test), never read from
tiercheck's output:

* night 12: alpha-sdk's tools-call-image (2025-11-25 server) fails for the first time (check
  `tools-call-image-check`, "wrong answer"): a failing cell dated 2026-10-12, linked to the
  scenario page's row of alpha-sdk at 2025-11-25, and the night's one newly failing entry;
* night 15: it passes again: a pass since 2026-10-15 and the night's one fixed entry;
* night 20: alpha-sdk's 2025-11-25 server leg is unmeasured: all 30 rows of that table are
  "unmeasured" in alpha's column (0 of 30 pass), and the night lists the leg as newly
  unmeasured with its reason;
* night 25 (kept in the site of night 30): beta-sdk's new harness: not compared.
"""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support import browser
from support.browser import Text, id_text, site_page
from support.nights import records, thirty_nights
from support.page_checks import axe_violations, vnu_errors
from tiercheck.dashboard.build import scenario_slug
from tiercheck.publish.site import build_site

KEPT = (12, 15, 20, 30)
IMAGE = "g-2025-11-25-server-tools-call-image"


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium() -> None:
    browser.require_chromium()


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    root = tmp_path_factory.mktemp("views")
    site = root / "site"
    kept: dict[int, Path] = {}
    for n in range(1, 31):
        build_site(records(thirty_nights(n)), site)
        if n in KEPT:
            kept[n] = root / f"site-{n:02d}"
            shutil.copytree(site, kept[n])
    return kept


def _page(tmp_path: Path, site: Path, path: str) -> tuple[Text, str]:
    parsed = site_page(tmp_path, site, path)
    return parsed, " ".join(" ".join(parsed.text).split())


_id = id_text


class _Table(HTMLParser):
    """Each table's header cells (tag, scope, colspan) per row, and every link."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, str | None]]]] = {}
        self.captions: list[str] = []
        self.hrefs: dict[str, str] = {}
        self._table: str | None = None
        self._cell: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self._table = a.get("id") or ""
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("th", "td") and self._table is not None:
            self.tables[self._table][-1].append((tag, a.get("scope")))
            self._cell = a.get("id")
        elif tag == "caption":
            self.captions.append(self._table or "")
        elif tag == "a" and self._cell and a.get("href"):
            self.hrefs[self._cell] = a["href"] or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag in ("td", "th"):
            self._cell = None


def _structure(site: Path) -> _Table:
    parsed = _Table()
    parsed.feed((site / "grid.html").read_text("utf-8"))
    return parsed


def test_the_grid_is_a_table_a_screen_reader_can_follow(sites: dict[int, Path]) -> None:
    found = _structure(sites[12])
    # One table per revision × leg, each with a caption.
    assert sorted(found.tables) == [
        "grid-2025-11-25-client",
        "grid-2025-11-25-server",
        "grid-2026-07-28-client",
        "grid-2026-07-28-server",
    ]
    assert sorted(found.captions) == sorted(found.tables)
    rows = found.tables["grid-2025-11-25-server"]
    # The header: Scenario, three lines, the count — every one a column header.
    assert rows[0] == [("th", "col")] * 5
    groups = [r for r in rows[1:] if r == [("th", "rowgroup")]]
    data = [r for r in rows[1:] if r[0] == ("th", "row") and len(r) == 5]
    # The frozen set's 30 scored scenarios (hand count of requirements/2025-11-25.yaml's
    # server list) in 5 categories: core, tools, resources, prompts, elicitation (logging and
    # completion: utilities — 6).
    assert len(data) == 30 + 1  # 30 scenarios and the footer's "Passes" row
    assert len(groups) == 6
    assert len(rows) == 1 + 6 + 31


def test_night_12_the_failing_cell_and_its_link(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[12]
    grid, _ = _page(tmp_path, site, "grid.html")
    assert _id(grid, f"{IMAGE}-alpha-sdk") == "✗ fail since 2026-10-12"
    # A pass since night 1: the date is there for a screen reader (visually hidden).
    assert _id(grid, f"{IMAGE}-beta-sdk") == "✓ pass since 2026-10-01"
    assert _id(grid, f"{IMAGE}-count") == "passes in 2 of 3 line(s)"
    # alpha passes server-initialize, ping and tools-list of the set's 30; 26 are not run.
    assert _id(grid, "g-2025-11-25-server-total-alpha-sdk") == (
        "3 of 30 1 fail · 0 unmeasured · 26 not run"
    )
    step_up = scenario_slug("client", "auth/scope-step-up")  # a `/` in it: a slug and digest
    assert _id(grid, f"g-2025-11-25-{step_up}-beta-sdk") == "✗ fail since 2026-10-01"
    href = _structure(site).hrefs[f"{IMAGE}-alpha-sdk"]
    assert href == "scenarios/server-tools-call-image.html#now-alpha-sdk-2025-11-25"
    scenario, _ = _page(tmp_path, site, href.split("#")[0])
    row = _id(scenario, "now-alpha-sdk-2025-11-25")
    assert "tools-call-image-check" in row
    assert "wrong answer" in row
    night, _ = _page(tmp_path, site, "nights/2026-10-12.html")
    assert _id(night, "newly-failing-alpha-sdk") == (
        "2025-11-25 server tools-call-image : passed → failed wrong answer"
    )
    assert _id(night, "unchanged-beta-sdk") == "Nothing changed."
    assert _id(night, "unchanged-gamma-sdk") == "Nothing changed."
    entry = 'href="../scenarios/server-tools-call-image.html#now-alpha-sdk-2025-11-25"'
    assert entry in (site / "nights/2026-10-12.html").read_text("utf-8")


def test_night_15_the_fix(sites: dict[int, Path], tmp_path: Path) -> None:
    grid, _ = _page(tmp_path, sites[15], "grid.html")
    assert _id(grid, f"{IMAGE}-alpha-sdk") == "✓ pass since 2026-10-15"
    assert _id(grid, f"{IMAGE}-count") == "passes in 3 of 3 line(s)"
    night, _ = _page(tmp_path, sites[15], "nights/2026-10-15.html")
    assert _id(night, "fixed-alpha-sdk") == ("2025-11-25 server tools-call-image : failed → passed")


def test_night_20_the_unmeasured_leg(sites: dict[int, Path], tmp_path: Path) -> None:
    grid, _ = _page(tmp_path, sites[20], "grid.html")
    assert _id(grid, f"{IMAGE}-alpha-sdk") == "? unmeasured since 2026-10-20"
    assert _id(grid, "g-2025-11-25-server-resources-list-alpha-sdk") == (
        "? unmeasured since 2026-10-20"
    )
    assert _id(grid, "g-2025-11-25-server-total-alpha-sdk") == (
        "0 of 30 0 fail · 30 unmeasured · 0 not run"
    )
    night, _ = _page(tmp_path, sites[20], "nights/2026-10-20.html")
    assert _id(night, "legs-unmeasured-alpha-sdk") == (
        "2025-11-25 server: measured → unmeasured server never became ready within 30 s"
    )


def test_night_30_links_and_the_harness_change(sites: dict[int, Path], tmp_path: Path) -> None:
    site = sites[30]
    index, _ = _page(tmp_path, site, "index.html")
    assert _id(index, "views") == (
        "API (JSON) · cross-SDK grid · only failing · only flaky · only disputed · only triaged"
        " · night 2026-10-30 against the night before · all nights"
        " · regressions and recoveries (Atom feed)"
    )
    nights, _ = _page(tmp_path, site, "nights/index.html")
    # Hand count: night 12 one newly failing, night 15 one fixed, night 20 one leg newly
    # unmeasured, night 25 beta not compared; every night three lines, and its grid.
    assert _id(nights, "night-2026-10-12") == "2026-10-12 3 1 0 0 0 0 0 grid"
    assert _id(nights, "night-2026-10-15") == "2026-10-15 3 0 1 0 0 0 0 grid"
    assert _id(nights, "night-2026-10-20") == "2026-10-20 3 0 0 1 0 0 0 grid"
    assert _id(nights, "night-2026-10-25") == "2026-10-25 3 0 0 0 0 0 1 grid"
    night, text = _page(tmp_path, site, "nights/2026-10-25.html")
    assert (
        "not compared : referee changed on 2026-10-25 (harness 0.2.0-alpha.10 → 0.2.0-alpha.12)"
        in text
    )
    assert _id(night, "unchanged-beta-sdk") == "No scenario compared."
    grid, _ = _page(tmp_path, site, "grid.html")
    assert _id(grid, "g-2025-11-25-server-ping-beta-sdk") == "✗ fail since 2026-10-25"


def test_the_pages_pass_the_nu_html_checker(sites: dict[int, Path]) -> None:
    site = sites[30]
    pages = [site / "grid.html", *sorted((site / "nights").glob("*.html"))]
    assert len(pages) == 32  # the grid, thirty nights and their list
    assert vnu_errors(pages) == []


def test_the_drill_down_pages_pass_the_nu_html_checker(sites: dict[int, Path]) -> None:
    site = sites[30]
    pages = [
        *sorted(site.glob("grid-*.html")),
        *sorted(site.glob("nights/*/grid.html")),
        *sorted(site.glob("compare/*/*.html")),
    ]
    # Four status views, thirty nights' grids, three comparisons.
    assert len(pages) == 4 + 30 + 3
    assert vnu_errors(pages) == []


def test_the_nu_html_checker_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html lang="en"><title>t</title><p id="a"><p id="a">')
    assert any("Duplicate ID" in line for line in vnu_errors([bad]))


@pytest.mark.parametrize(
    ("night", "path"),
    [
        (12, "grid.html"),
        (20, "grid.html"),
        (12, "nights/2026-10-12.html"),
        (20, "nights/2026-10-20.html"),
        (30, "nights/2026-10-25.html"),
        (30, "nights/index.html"),
        (12, "grid-failing.html"),
        (30, "grid-flaky.html"),  # no row: the page says so
        (12, "nights/2026-10-12/grid.html"),
        (30, "nights/2026-10-20/grid.html"),
        (12, "compare/alpha-sdk/beta-sdk.html"),
        (30, "compare/alpha-sdk/gamma-sdk.html"),  # no difference
        (30, "lines/alpha-sdk.html"),  # its links to the comparisons
    ],
)
def test_axe_finds_no_wcag_21_a_or_aa_violation(
    sites: dict[int, Path], tmp_path: Path, night: int, path: str
) -> None:
    violations = axe_violations(tmp_path, sites[night] / path)
    assert [(v["id"], v["help"]) for v in violations] == []


def test_axe_can_fail(sites: dict[int, Path], tmp_path: Path) -> None:
    page = tmp_path / "grid.html"
    text = (sites[12] / "grid.html").read_text("utf-8")
    # Header cells emptied and a link's text removed: what a screen reader cannot follow.
    page.write_text(re.sub(r">\s*alpha-sdk\s*</a>", "></a>", text, count=1), "utf-8")
    found = {v["id"] for v in axe_violations(tmp_path, page)}
    assert "link-name" in found
