"""The grid and a night's page with one hostile string in every field a line, its SDK or the
harness can write (scenario names, line names, checks, messages, reasons): it stays text."""

from __future__ import annotations

import dataclasses
import functools
import re
from html.parser import HTMLParser

import pytest

from support.hostile_dashboard import filled
from support.hostile_text import HOSTILE
from support.nights import records, thirty_nights, with_disputes
from tiercheck.config.requirements import load_requirement_set
from tiercheck.dashboard.grid import Grid, build_grid, runs_by_line
from tiercheck.dashboard.grid_html import render_grid, render_night, render_nights
from tiercheck.dashboard.nightdiff import NightDiff, NightList, build_nights
from tiercheck.dashboard.triage import Triage
from tiercheck.dashboard.views import comparison, status_grid
from tiercheck.dashboard.views_html import (
    NightGridPages,
    render_comparison,
    render_status,
    status_links,
)
from tiercheck.plaintext import HIDDEN, clean, visible

CASES = sorted(name for name in HOSTILE if name != "huge")
_TAGS = (
    "html head meta title style body header h1 h2 h3 main div span p a ul li strong code nav "
    "section table caption thead tbody tfoot tr th td"
)
TAGS = frozenset(_TAGS.split())
_ATTRS = "lang charset name content http-equiv class id href scope colspan aria-hidden"
# A wide table's scroll region: `div tabindex="0" role="region" aria-label`.
ATTRS = frozenset([*_ATTRS.split(), "aria-labelledby", "tabindex", "role", "aria-label"])
SITE_LINK = re.compile(r"(\.\./)*[\w.-]+(/[\w.-]+)*\.(html|json)(#[\w-]+)?|#[\w-]+")
R1 = "2025-11-25"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(tag, key, value or "") for key, value in attrs]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@functools.cache
def _documents() -> tuple[Grid, NightDiff, NightList]:
    """Night 12 (a failure with its message), with a dispute so every part is shown."""
    # Disputed in the lines where it passes, so alpha-sdk's failure is still newly failing.
    image = (R1, "server", "tools-call-image")
    docs = [
        d if d.sdk.name == "alpha-sdk" else with_disputes(d, {image: "open"})
        for d in thirty_nights(12)
    ]
    by_line = runs_by_line(records(docs))
    found = load_requirement_set(R1)
    sets = {R1: {"server": found.server, "client": found.client}}
    pages = {("server", "tools-call-image"): "scenarios/server-tools-call-image.html"}
    grid = build_grid(by_line, sets, scenario_pages=pages)
    assert any(c.disputed for t in grid.tables for r in t.rows for c in r.cells)
    table = grid.tables[0]
    grid = dataclasses.replace(grid, tables=(dataclasses.replace(table, outside=("x",)),))
    listing, nights = build_nights(by_line)
    return grid, nights["2026-10-12"], listing


def _pages(text: str) -> dict[str, str]:
    grid, night, listing = _documents()
    failing, cells = status_grid(grid, "failing", [], Triage())
    compared = comparison(grid, "alpha-sdk", "beta-sdk")
    assert compared.differ  # the failing cell of alpha's is one
    flaky = [(text, text, text, text, 2)]
    return {
        "grid": render_grid(filled(grid, text), night=text, links=status_links()),
        "night": render_night(filled(night, text)),
        "nights": render_nights(filled(listing, text)),
        "failing": render_status(filled(failing, text), "failing", cells, triage=Triage()),
        "flaky": render_status(filled(failing, text), "flaky", 1, triage=Triage(), flaky=flaky),
        "night's grid": NightGridPages().render(filled(grid, text), text, text),
        "comparison": render_comparison(
            filled(compared, text), ("lines/alpha-sdk.html", "lines/beta-sdk.html")
        ),
    }


def test_the_filled_pages_show_the_word_in_their_parts() -> None:
    pages = _pages("WORD")
    assert "WORD" in pages["grid"].split("<tbody>")[1]  # a row's scenario
    assert "(disputed)" in pages["grid"]
    assert 'id="newly-failing-WORD"' in pages["night"]
    # The drill-down pages: a row's scenario in each, the lines' names, the flaky list.
    for where in ("failing", "night's grid", "comparison"):
        assert "WORD" in pages[where].split("<tbody>")[1], where
    assert "(disputed)" in pages["night's grid"]
    assert "WORD" in pages["flaky"].split('id="flaky"')[1]
    assert "WORD and WORD" in pages["comparison"]


@pytest.mark.parametrize("name", CASES)
def test_hostile_text_in_every_field_stays_text(name: str) -> None:
    shown = visible(clean(HOSTILE[name]))
    for where, page in _pages(HOSTILE[name]).items():
        # Nothing that hides or reorders text is left: it is shown as `[U+202E]`.
        assert not HIDDEN.search(page), where
        parsed = _Page()
        parsed.feed(page)
        assert parsed.tags <= TAGS, (where, sorted(parsed.tags - TAGS))
        assert {key for _, key, _ in parsed.attrs} <= ATTRS, where
        hrefs = [value for _, key, value in parsed.attrs if key == "href"]
        assert all(SITE_LINK.fullmatch(h) for h in hrefs), (where, hrefs)
        values = [value for _, _, value in parsed.attrs]
        assert any(shown in text for text in ("".join(parsed.text), *values)), where
        page.encode("utf-8")
