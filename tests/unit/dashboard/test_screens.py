"""The dashboard's pages for any screen and without colour, as markup (the browser side is
tests/integration/test_dashboard_screens_browser.py): every table in a region of its own that
scrolls and that the keyboard reaches, the trend chart sized by its box and told without
colour (a dash pattern and a marker per line, a titled marker per run, labels at the lines'
ends, its numbers in a table), and every status and score cell a symbol and words.

The site is thirty nights of `support.nights`; what is expected is worked out by hand from
that story: alpha-sdk's 2025-11-25 server leg has four scored scenarios, one of which fails on
nights 12 to 14 (75%), and it is not measured on night 20; every other leg passes every night.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support.nights import records, thirty_nights
from tiercheck.publish.site import build_site
from tiercheck.render.html import chip
from tiercheck.render.trend import trend_svg
from tiercheck.scorecard.model import HistoryTrendPoint

R1, R2 = "2025-11-25", "2026-07-28"
COLUMNS = [(R1, "server"), (R1, "client"), (R2, "server"), (R2, "client")]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("screens") / "site"
    build_site(records(thirty_nights(30)), out)
    return out


class _Tables(HTMLParser):
    """Each table's nearest enclosing `div`'s attributes, and every element's text by id (a
    space after each piece of text, so a row's cells read as words)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, dict[str, str | None]]] = []
        self.tables: list[dict[str, str | None]] = []
        self.ids: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.tables.append(next((x for t, x in reversed(self.open) if t == "div"), {}))
        if tag not in ("meta", "link", "br", "input"):
            self.open.append((tag, a))
        if a.get("id"):
            self.ids[a["id"] or ""] = ""

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for _, a in self.open:
            if a.get("id"):
                self.ids[a["id"] or ""] += data + " "


def _parse(site: Path, path: str) -> _Tables:
    parsed = _Tables()
    parsed.feed((site / path).read_text("utf-8"))
    return parsed


def _text(parsed: _Tables, ident: str) -> str:
    return " ".join(parsed.ids[ident].split())


def test_every_table_scrolls_in_a_named_region_the_keyboard_reaches(site: Path) -> None:
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    # index, grid, 3 line pages, 31 nights' pages and their list, 8 scenario pages; then the
    # drill-down: 4 status views, 30 nights' grids, 3 pairs of lines compared.
    assert len(pages) == 1 + 1 + 3 + 31 + 8 + 4 + 30 + 3
    tables = 0
    for path in pages:
        regions = _parse(site, path).tables
        tables += len(regions)
        for region in regions:
            assert region.get("class") == "scroll", path
            assert region.get("tabindex") == "0", path
            assert region.get("role") == "region", path
        labels = [r.get("aria-label") for r in regions]
        assert all(labels), path
        assert len(set(labels)) == len(labels), (path, labels)  # each region its own name
    # The index's lines; the grid's four; per line page the trend's numbers, the clock, the
    # early warning, what fails now (beta) and the recent runs; the list of nights; a
    # scenario page's "now" each.
    assert tables > 4 + 1 + 3 * 4 + 1 + 8


def test_the_trend_chart_is_sized_by_its_box_not_fixed(site: Path) -> None:
    page = (site / "lines/alpha-sdk.html").read_text("utf-8")
    (tag,) = re.findall(r"<svg [^>]*class=\"trend\"[^>]*>", page)
    assert 'width="100%"' in tag
    assert 'viewBox="0 0 640 240"' in tag
    assert "height=" not in tag  # the height follows from the viewBox
    assert 'width="900"' not in page
    assert "svg.trend { display: block; max-width: 900px; height: auto; }" in page


def test_the_trend_chart_tells_its_lines_apart_without_colour(site: Path) -> None:
    page = (site / "lines/alpha-sdk.html").read_text("utf-8")
    chart = page.split('class="trend"', 1)[1].split("</svg>", 1)[0]
    # A dash pattern per line: solid, dashed, dotted, dash-dot (alpha's 2025-11-25 server
    # line is broken in two by night 20).
    dashes = re.findall(r"<polyline [^>]*?(?:stroke-dasharray=\"([\d,]+)\")?/>", chart)
    assert sorted(dashes) == ["", "", "2,2", "6,3", "8,3,2,3"]
    # A titled marker per run and line: 30 runs × 4 lines, less night 20's unmeasured leg.
    titles = re.findall(r"<title>(\d{4}-\d\d-\d\d) (\S+) (\w+): (\d+)%</title>", chart)
    assert len(titles) == 30 * 4 - 1
    assert ("2026-10-12", R1, "server", "75") in titles
    assert ("2026-10-15", R1, "server", "100") in titles
    assert not any(t[0] == "2026-10-20" and t[1:3] == (R1, "server") for t in titles)
    # Four circles, squares, triangles and diamonds' worth: one shape per line.
    # The first line's markers are circles (night 20 has none), the second's squares (and the
    # plot's frame is a rect, an unmeasured tick an amber one); each also in its legend entry
    # and before its end label.
    assert chart.count("<circle ") == 29 + 1 + 1
    assert chart.count("<rect ") - chart.count('fill="#bf8700"') == 1 + 30 + 1 + 1
    # The labels at the lines' ends: all four end at 100%, so they stack 10 apart from the
    # 100% mark (y 24, text 3 below), right of a plot 640 - 2 × 24 - 124 = 468 wide.
    for k, (rev, leg) in enumerate(COLUMNS):
        assert f'<text x="516" y="{27 + 10 * k}.0" font-size="9">{rev} {leg} 100%</text>' in chart


def test_the_trend_chart_has_its_numbers_in_a_table_beside_it(site: Path) -> None:
    parsed = _parse(site, "lines/alpha-sdk.html")
    text = _text(parsed, "trend-table")
    assert text.startswith(
        "The chart's numbers: a table of the 30 run(s) Night Tier "
        "2025-11-25 server 2025-11-25 client 2026-07-28 server 2026-07-28 client "
        "2026-10-01 Tier 1 100% 100% 100% 100%"
    )
    assert "2026-10-12 Tier 2 (changed) 75% 100% 100% 100%" in text
    assert "2026-10-20 " in text
    night20 = text.split("2026-10-20 ", 1)[1].split(" 2026-10-21", 1)[0]
    assert night20.endswith("unmeasured 100% 100% 100%")
    assert text.count("%") == 30 * 4 - 1


def test_every_status_and_score_cell_says_it_in_a_symbol_and_words(site: Path) -> None:
    index = _parse(site, "index.html")
    for line in ("alpha-sdk", "beta-sdk", "gamma-sdk"):
        assert _text(index, f"status-{line}") == "✓ ok"
    assert _text(index, "score-alpha-sdk-2025-11-25-server") == "✓ 4/4 pass"
    # beta-sdk's auth/scope-step-up fails every night: 2 of its 3 client scenarios pass.
    assert _text(index, "score-beta-sdk-2025-11-25-client") == "✗ 2/3 · 1 fail"
    scores = [v for k, v in index.ids.items() if k.startswith("score-")]
    assert len(scores) == 3 * 4
    assert all(" ".join(v.split())[0] in "✓✗?–" for v in scores)
    scenario = _parse(site, "scenarios/client-auth-scope-step-up-aeafbbb1.html")
    assert _text(scenario, "now-beta-sdk-2025-11-25").startswith("beta-sdk 2025-11-25 ✗ failing")
    line = _parse(site, "lines/beta-sdk.html")
    assert "? no stable release assessed yet" in _text(line, "clock")


def _point(day: int, rates: dict[str, dict[str, float | None]]) -> HistoryTrendPoint:
    return HistoryTrendPoint(
        run_id=f"202612{day:02d}T030000Z",
        timestamp=f"2026-12-{day:02d}T03:00:00Z",
        commit=None,
        tier=1,
        tier_changed=False,
        pass_rate=rates,
    )


def test_end_labels_of_lines_ending_together_are_moved_apart() -> None:
    points = [
        _point(1, {R1: {"server": 1.0, "client": 0.5}}),
        _point(2, {R1: {"server": 0.5, "client": 0.5}}),
    ]
    svg = trend_svg("x", points, [(R1, "server"), (R1, "client")], end_labels=True)
    # 480 × 160, one legend line: the plot is 24 → 136 high; 50% is y 80. Both end there: the
    # first at 80 (text 83), the second pushed 10 below. Right of a 480 - 48 - 124 = 308 plot.
    assert '<text x="356" y="83.0" font-size="9">2025-11-25 server 50%</text>' in svg
    assert '<text x="356" y="93.0" font-size="9">2025-11-25 client 50%</text>' in svg
    # Without end labels, the chart is as it was: the plot spans 24 → 456.
    plain = trend_svg("x", points, [(R1, "server"), (R1, "client")])
    assert 'points="24.0,24.0 456.0,80.0"' in plain
    assert "50%</text>" not in plain


@pytest.mark.parametrize(
    ("verdict", "words", "symbol"),
    [
        ("pass", "ok", "✓"),
        ("fail", "regressed", "✗"),
        ("review", "harness changed", "!"),  # drawn in the colour of information
        ("warn", "stale", "!"),
        ("unmeasured", "no stable release assessed yet", "?"),
        ("skipped", "skipped", "–"),
    ],
)
def test_a_status_chip_says_it_in_a_symbol_and_words(verdict: str, words: str, symbol: str) -> None:
    shown = chip(verdict, words, symbol=True)
    assert shown.endswith(f'<span class="sym" aria-hidden="true">{symbol}</span> {words}</span>')
    assert chip(verdict, words).endswith(f'">{words}</span>')  # as before, without
    # Information is no verdict: a word, no symbol.
    assert chip("info", "triaged", symbol=True) == '<span class="chip info">triaged</span>'
