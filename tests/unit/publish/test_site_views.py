"""The grid and the nights in the published site: their documents follow their schemas, the
index links them, the pages stay small, and a new night rewrites only what it changes."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from support.nights import records, thirty_nights
from support.schema_check import conforms
from tiercheck.dashboard.grid import Grid
from tiercheck.dashboard.nightdiff import NightDiff, NightList
from tiercheck.document_schemas import DASHBOARD_SCHEMAS, schema_text
from tiercheck.model import from_json
from tiercheck.publish.site import build_site

#: The largest page a site may hold, in bytes. The pages that grow are the grid (a cell per
#: line for each scored scenario of the frozen sets, ~117 today: it grows with the lines and
#: the sets, never with the nights) and nothing else: a night's page holds one night's changes,
#: a line's page a bounded number of runs. bench/dashboard.py's year of nights of ten lines
#: has the grid as its largest page at 257 kB (~25 kB a line); 1 MB is four times that — room
#: for some thirty-five lines, every official SDK's branch and stable series — and still a page
#: that opens at once from a disk or GitHub Pages. A page past it is one that grows with the
#: history, which is the regression this bound is here to catch.
PAGE_BOUND = 1_000_000
#: The grid of the thirty nights' three lines: 101 kB when this was written; the bound above
#: over ten lines, scaled to three, with the fixed part (row headers) counted once.
SMALL_SITE_BOUND = 250_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("views") / "site"
    result = build_site(records(thirty_nights(30)), out)
    assert result.warnings == ()
    return out


def _json(site: Path, path: str) -> Any:
    return json.loads((site / path).read_text("utf-8"))


def test_every_new_document_follows_its_schema_and_reads_back(site: Path) -> None:
    documents: dict[str, tuple[str, type]] = {
        "api/v1/grid.json": ("dashboard_grid.schema.json", Grid),
        "api/v1/nights.json": ("dashboard_nights.schema.json", NightList),
    }
    nights = sorted((site / "api/v1/nights").glob("*.json"))
    assert len(nights) == 30
    for path in nights:
        documents[path.relative_to(site).as_posix()] = ("dashboard_night.schema.json", NightDiff)
    for path, (name, model) in documents.items():
        assert name in DASHBOARD_SCHEMAS
        assert (site / "api/v1/schemas" / name).read_text("utf-8") == schema_text(name)
        data = _json(site, path)
        conforms(data, json.loads(schema_text(name)))
        from_json(model, data)
        assert data["api_version"] == 1


def test_a_document_that_breaks_its_schema_is_refused() -> None:
    # The schemas can fail: a cell state outside the five is refused.
    schema = json.loads(schema_text("dashboard_grid.schema.json"))
    cell = {
        "line": "a",
        "state": "green",
        "disputed": False,
        "since": None,
        "since_run": None,
        "check": None,
        "message": None,
        "page": None,
    }
    table = {"revision": "r", "leg": "server", "scored": 1, "columns": [], "outside": []}
    row = {"scenario": "s", "category": "core", "page": None, "passes": 0, "fails": 0}
    doc = {
        "format": "tiercheck-dashboard-grid",
        "api_version": 1,
        "categories": ["core"],
        "category_rule": "x",
        "lines": ["a"],
        "tables": [{**table, "rows": [{**row, "cells": [cell]}]}],
    }
    with pytest.raises(jsonschema.ValidationError, match="green"):
        conforms(doc, schema)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def _links(site: Path, page: str) -> list[str]:
    parser = _Links()
    parser.feed((site / page).read_text("utf-8"))
    return parser.hrefs


def test_the_index_links_the_grid_and_the_latest_night(site: Path) -> None:
    hrefs = _links(site, "index.html")
    assert "grid.html" in hrefs
    assert "nights/2026-10-30.html" in hrefs
    assert "nights/index.html" in hrefs
    night = _links(site, "nights/2026-10-12.html")
    assert {"2026-10-11.html", "2026-10-13.html", "../grid.html"} <= set(night)
    assert "2026-10-31.html" not in _links(site, "nights/2026-10-30.html")


def test_every_page_is_under_the_bound(site: Path) -> None:
    pages = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}
    largest = max(pages, key=lambda p: pages[p])
    assert pages[largest] < SMALL_SITE_BOUND < PAGE_BOUND, (largest, pages[largest])


def test_a_new_night_rewrites_the_grid_the_index_and_the_two_last_nights_only(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site"
    build_site(records(thirty_nights(30)), out)
    result = build_site(records(thirty_nights(31)), out)
    written = set(result.written)
    assert {
        "grid.html",
        "index.html",
        "api/v1/grid.json",
        "api/v1/nights.json",
        "nights/index.html",
        "nights/2026-10-31.html",
        "api/v1/nights/2026-10-31.json",
        # Night 30 gains its link to night 31.
        "nights/2026-10-30.html",
        "api/v1/nights/2026-10-30.json",
        # The grid as of night 31 is new; the grid as of night 30 never changes.
        "nights/2026-10-31/grid.html",
        "api/v1/views.json",
    } <= written
    assert not {p for p in written if p.startswith(("nights/", "api/v1/nights/"))} - {
        "nights/index.html",
        "nights/2026-10-30.html",
        "nights/2026-10-31.html",
        "nights/2026-10-31/grid.html",
        "api/v1/nights/2026-10-30.json",
        "api/v1/nights/2026-10-31.json",
    }
    again = build_site(records(thirty_nights(31)), out)
    assert again.written == ()
