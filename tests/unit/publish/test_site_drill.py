"""The grid's drill-down pages in the published site: every one is linked from the index (by a
path of links), listed in `api/v1/views.json`, the grid as of a night is the grid that night
published, and an incremental build is byte for byte a cold one."""

from __future__ import annotations

import dataclasses
import json
import posixpath
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support.nights import records, thirty_nights
from tiercheck.history.record import RunRecord
from tiercheck.publish.site import build_site


class _Page(HTMLParser):
    """Each link of a page, and the text of each table's rows (cells as text, in order)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.rows: dict[str, list[list[str]]] = {}
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"] or "")
        elif tag == "table":
            self._table = a.get("id") or ""
            self.rows[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.rows[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.rows[self._table][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _read(site: Path, path: str) -> _Page:
    parsed = _Page()
    parsed.feed((site / path).read_text("utf-8"))
    return parsed


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """The site after night 12, and the same folder brought up to night 30."""
    root = tmp_path_factory.mktemp("drill")
    site = root / "site"
    build_site(records(thirty_nights(12)), site)
    shutil.copytree(site, root / "site-12")
    build_site(records(thirty_nights(30)), site)
    return {12: root / "site-12", 30: site}


def test_every_page_is_reached_from_the_index(sites: dict[int, Path]) -> None:
    site = sites[30]
    seen, todo = set(), ["index.html"]
    while todo:
        path = todo.pop()
        if path in seen or not path.endswith(".html"):
            continue
        seen.add(path)
        for href in _read(site, path).hrefs:
            if href.startswith(("https:", "http:", "#")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), href))
            todo.append(target.partition("#")[0])
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert pages - seen == set()
    # The new kinds of page are among them: four status views, thirty nights' grids and three
    # comparisons (alpha-beta, alpha-gamma, beta-gamma: three branch series).
    assert {p for p in pages if p.startswith("grid-")} == {
        "grid-failing.html",
        "grid-flaky.html",
        "grid-disputed.html",
        "grid-triaged.html",
    }
    assert len([p for p in pages if p.endswith("/grid.html")]) == 30
    assert sorted(p for p in pages if p.startswith("compare/")) == [
        "compare/alpha-sdk/beta-sdk.html",
        "compare/alpha-sdk/gamma-sdk.html",
        "compare/beta-sdk/gamma-sdk.html",
    ]


def test_views_json_lists_every_drill_down_page(sites: dict[int, Path]) -> None:
    site = sites[30]
    views = json.loads((site / "api/v1/views.json").read_text("utf-8"))
    assert views["format"] == "tiercheck-dashboard-views"
    listed = [s["page"] for s in views["statuses"]]
    listed += [n["page"] for n in views["nights"]]
    listed += [c["page"] for c in views["compare"]]
    pages = {
        p.relative_to(site).as_posix()
        for pattern in ("grid-*.html", "nights/*/grid.html", "compare/*/*.html")
        for p in site.glob(pattern)
    }
    assert sorted(listed) == sorted(pages)
    assert views["nights"][0] == {"night": "2026-10-30", "page": "nights/2026-10-30/grid.html"}
    # Night 30 by hand: beta fails step-up and ping; nothing is flaky, disputed or triaged.
    counts = {s["status"]: (s["rows"], s["cells"]) for s in views["statuses"]}
    assert counts == {"failing": (2, 2), "flaky": (0, 0), "disputed": (0, 0), "triaged": (0, 0)}
    differ = {(c["a"], c["b"]): c["differ"] for c in views["compare"]}
    assert differ == {
        ("alpha-sdk", "beta-sdk"): 2,
        ("alpha-sdk", "gamma-sdk"): 0,
        ("beta-sdk", "gamma-sdk"): 2,
    }


def test_the_grid_as_of_a_night_reads_as_that_nights_grid(sites: dict[int, Path]) -> None:
    # Night 30's site keeps night 12's grid: every table, row by row and cell by cell, the text
    # the grid published on night 12 showed.
    then = _read(sites[12], "grid.html").rows
    kept = _read(sites[30], "nights/2026-10-12/grid.html").rows
    assert (
        sorted(kept)
        == sorted(then)
        == [
            "grid-2025-11-25-client",
            "grid-2025-11-25-server",
            "grid-2026-07-28-client",
            "grid-2026-07-28-server",
        ]
    )
    assert kept == then
    image = next(r for r in kept["grid-2025-11-25-server"] if r[0] == "tools-call-image")
    assert image[1] == "✗ fail since 2026-10-12"
    # And the file night 12's own build wrote is the one night 30's keeps, byte for byte.
    old = (sites[12] / "nights/2026-10-12/grid.html").read_bytes()
    assert (sites[30] / "nights/2026-10-12/grid.html").read_bytes() == old


def test_the_pages_link_the_views(sites: dict[int, Path]) -> None:
    site = sites[30]
    index = _read(site, "index.html").hrefs
    assert {"grid-failing.html", "grid-flaky.html", "grid-disputed.html"} <= set(index)
    assert "grid-triaged.html" in _read(site, "grid.html").hrefs
    assert "2026-10-12/grid.html" in _read(site, "nights/2026-10-12.html").hrefs
    assert "2026-10-12/grid.html" in _read(site, "nights/index.html").hrefs
    line = _read(site, "lines/alpha-sdk.html").hrefs
    assert {"../compare/alpha-sdk/beta-sdk.html", "../compare/alpha-sdk/gamma-sdk.html"} <= set(
        line
    )
    night = _read(site, "nights/2026-10-12/grid.html").hrefs
    assert {"../../grid.html", "../2026-10-11/grid.html", "../../nights/2026-10-12.html"} <= set(
        night
    )
    compared = _read(site, "compare/alpha-sdk/beta-sdk.html")
    assert compared.rows["compare-2025-11-25-client"] == [
        ["Scenario", "alpha-sdk", "beta-sdk"],
        ["auth/scope-step-up", "✓ pass since 2026-10-01", "✗ fail since 2026-10-01"],
    ]


def _late(nights: int) -> list[RunRecord]:
    """The thirty nights, with a fourth line that starts on night 20."""
    runs = records(thirty_nights(nights))
    late = [
        dataclasses.replace(r, sdk="late-sdk", repo="example/late-sdk")
        for r in runs
        if r.sdk == "gamma-sdk" and r.timestamp.day >= 20
    ]
    return runs + late


def test_incremental_builds_are_byte_for_byte_a_cold_one(tmp_path: Path) -> None:
    site, cold = tmp_path / "site", tmp_path / "cold"
    for n in (12, 19, 25, 31):
        build_site(_late(n), site)
    build_site(_late(31), cold)
    assert _files(site) == _files(cold)
    # The late line joined: its comparisons are there, and an earlier night's grid has no
    # column for it.
    assert (site / "compare/alpha-sdk/late-sdk.html").is_file()
    assert "late-sdk" not in (site / "nights/2026-10-19/grid.html").read_text("utf-8")
    assert "late-sdk" in (site / "nights/2026-10-20/grid.html").read_text("utf-8")


def test_a_night_that_changes_nothing_rewrites_no_comparison_or_past_grid(tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_site(records(thirty_nights(30)), site)
    written = set(build_site(records(thirty_nights(31)), site).written)
    # Night 31 changes no cell's state: the comparisons and the status views are as they were,
    # and of the nights' grids only night 31's is new.
    assert not {p for p in written if p.startswith(("compare/", "grid-"))}
    assert {p for p in written if p.endswith("/grid.html")} == {"nights/2026-10-31/grid.html"}
