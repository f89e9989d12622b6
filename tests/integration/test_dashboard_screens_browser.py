"""Every kind of dashboard page on any screen, in headless Chromium: a phone's 360 and 400 px
and a desktop's 1,400 px, checked by the W3C Nu HTML Checker (every page) and axe-core's WCAG
2.1 A/AA rules at both ends (one page of each kind; every page in the slow run), and measured:
the page itself never scrolls sideways (its scroll width is the screen's), only a wide table's
own region does, the grid's scenario column stays in view when its table is scrolled to the
other end, and the trend chart is as wide as its box.

A width is a frame that wide (`support.page_checks`: Chromium's window is never under 500 px).
The site is thirty nights of `support.nights` published as the nightly publishes them, with a
triage file and a base URL (so every part of a page is there: triage links, the badge panel).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from support import browser, page_checks
from support.nights import R1, alpha, beta, gamma, records
from tiercheck.cli.app import main
from tiercheck.history.store import HistoryStore

#: One page of every kind the site has: the index, the grid, a line's page (alpha-sdk: a
#: regression, a fix and an unmeasured night; beta-sdk: a failure every night and a harness
#: change), a night with a change and the night of the harness change, the list of nights, and
#: a scenario's page; then the drill-down's: a status view, a night's grid and two lines compared.
PAGES = (
    "index.html",
    "grid.html",
    "lines/alpha-sdk.html",
    "lines/beta-sdk.html",
    "nights/2026-10-12.html",
    "nights/2026-10-25.html",
    "nights/index.html",
    "scenarios/server-tools-call-image.html",
    "grid-failing.html",
    "nights/2026-10-12/grid.html",
    "compare/alpha-sdk/beta-sdk.html",
)
PHONE, NARROW, WIDE = 360, 400, 1400


@pytest.fixture(autouse=True, scope="module")
def _needs_chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Chromium, and one of it for every page of the module (`browser.shared`)."""
    browser.require_chromium()
    with browser.shared(tmp_path_factory.mktemp("browser")):
        yield


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("screens")
    triage = root / "triage.yaml"
    entry = {
        "line": "beta-sdk",
        "scenario": "auth/scope-step-up",
        "revision": R1,
        "leg": "client",
        "issue": "https://github.com/example/beta-sdk/issues/7",
        "note": "step-up is not implemented yet",
    }
    triage.write_text(yaml.safe_dump({"triage": [entry]}), "utf-8")
    db, out = root / "history.sqlite", root / "site"
    store = HistoryStore(db)
    for n in range(1, 31):
        store.append_many(records([alpha(n), beta(n), gamma(n)]))
    argv = ["publish", "--history", str(db), "--out", str(out), "--triage", str(triage)]
    assert main([*argv, "--base-url", "https://example.github.io/tiers/"]) == 0
    return out


@pytest.mark.parametrize("width", [PHONE, NARROW])
@pytest.mark.parametrize("path", PAGES)
def test_no_page_scrolls_sideways_on_a_phone(
    site: Path, tmp_path: Path, path: str, width: int
) -> None:
    found = page_checks.page_widths(tmp_path, site / path, width)
    assert found.viewport == width
    assert found.wide == ()
    assert found.scroll == width, found


def test_the_width_check_can_fail(site: Path, tmp_path: Path) -> None:
    # The chart as it was (900 px wide, whatever the screen): the page scrolls sideways.
    page = tmp_path / "line.html"
    text = (site / "lines/alpha-sdk.html").read_text("utf-8")
    assert text.count('width="100%"') == 1
    page.write_text(text.replace('width="100%"', 'width="900"'), "utf-8")
    found = page_checks.page_widths(tmp_path, page, NARROW)
    assert found.overflows
    # 900 px from the main column's left edge, 12 px in on a phone.
    assert found.scroll == 12 + 900
    assert any(w.startswith("svg") for w in found.wide)


def test_every_page_passes_the_nu_html_checker(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    # index, grid, lines, nights and their list, scenarios; status views, nights' grids, pairs
    assert len(pages) == 1 + 1 + 3 + 31 + 8 + 4 + 30 + 3
    errors = page_checks.vnu_errors(pages)
    assert errors == [], "\n".join(errors[:20])


@pytest.mark.parametrize("width", [NARROW, WIDE])
@pytest.mark.parametrize("path", PAGES)
def test_axe_finds_no_wcag_21_a_or_aa_violation_on_a_phone_or_a_desktop(
    site: Path, tmp_path: Path, path: str, width: int
) -> None:
    violations = page_checks.axe_violations(tmp_path, site / path, width)
    assert violations == [], [(v["id"], v["help"]) for v in violations]


@pytest.mark.slow
@pytest.mark.parametrize("width", [NARROW, WIDE])
def test_axe_finds_no_wcag_21_a_or_aa_violation_on_any_page_of_the_site(
    site: Path, tmp_path: Path, width: int
) -> None:
    # Every page, not one of each kind: the slow run's (CONTRIBUTING.md lists it).
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 81
    found = {}
    for page in pages:
        violations = page_checks.axe_violations(tmp_path, page, width)
        if violations:
            found[str(page.relative_to(site))] = sorted({v["id"] for v in violations})
    assert found == {}


def test_axe_can_fail_at_a_width(site: Path, tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    text = (site / "index.html").read_text("utf-8")
    # A link with no text: what a screen reader cannot follow.
    broken = text.replace(">alpha-sdk</a>", "></a>", 1)
    assert broken != text
    page.write_text(broken, "utf-8")
    found = {v["id"] for v in page_checks.axe_violations(tmp_path, page, NARROW)}
    assert "link-name" in found


_GRID_ENDS = """
var region = document.querySelector("div.scroll");
var row = region.querySelector("tbody tr:nth-child(2)");
function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.right]; }
var before = {region: box(region), head: box(row.querySelector("th"))};
region.scrollLeft = region.scrollWidth;
put({wider: region.scrollWidth - region.clientWidth, before: before, region: box(region),
     head: box(row.querySelector("th")), last: box(row.querySelector("td:last-child"))});
"""


def test_the_grid_scrolls_in_its_region_and_its_scenario_column_stays_in_view(
    site: Path, tmp_path: Path
) -> None:
    found = page_checks.in_page(tmp_path, site / "grid.html", _GRID_ENDS, NARROW)
    assert isinstance(found, dict)
    assert found["wider"] > 0  # three lines and the count do not fit 376 px: the region scrolls
    left, right = found["region"]
    assert (left, right) == (12, NARROW - 12)  # the main column, 12 px in on each side
    # Scrolled to the far end: the last column is in view, and so is the row's scenario, held
    # at the region's left edge (before scrolling, half of the collapsed 1 px border in).
    assert found["before"]["head"][0] == left + 0.5
    head_left, head_right = found["head"]
    assert head_left == left
    assert head_right < right
    last_left, last_right = found["last"]
    assert head_right <= last_left
    assert last_right <= right + 0.5


_CHART = """
var svg = document.querySelector("svg.trend");
put({chart: svg.getBoundingClientRect().width, box: svg.parentElement.clientWidth,
     view: svg.getAttribute("viewBox")});
"""


@pytest.mark.parametrize(("width", "chart"), [(PHONE, 336), (NARROW, 376), (WIDE, 900)])
def test_the_trend_chart_is_as_wide_as_its_box(
    site: Path, tmp_path: Path, width: int, chart: int
) -> None:
    # On a phone the main column is the screen less 12 px each side; on a desktop the chart
    # stops at 900 px.
    found = page_checks.in_page(tmp_path, site / "lines/alpha-sdk.html", _CHART, width)
    assert isinstance(found, dict)
    assert found["view"] == "0 0 640 240"
    assert found["chart"] == chart
    assert found["chart"] <= found["box"]
