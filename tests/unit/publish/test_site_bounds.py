"""A site made of 100 KB everything keeps every page within the 1 MB `docs/dashboard.md`
promises: each text a page shows is cut at `PAGE_CHARS` (the render kit), saying so with its
length and a digest, and the page links the JSON document where it is whole.

The history is `support.hostile_site`'s: every name, message and reason 100 KB, with
bidirectional overrides, isolates, zero-width characters and noncharacters all through, as a
history stored before the bounds would hold it (so the pages, not the history, must bound it).
Before the page bound, this site's largest line page was 23.9 MB, its index 6.9 MB and its
grid 4.1 MB (thirty nights); 13 of its 48 pages were past 1 MB.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from support.hostile_site import huge_runs
from tiercheck.plaintext import HIDDEN
from tiercheck.publish.site import build_site

#: The most bytes a page of the site may have (docs/dashboard.md).
PAGE_BOUND = 1_000_000
#: A mark in a page: the whole text's length and the start of its SHA-256.
MARK = re.compile(r"… \[cut: ([0-9]+) characters, sha256 ([0-9a-f]{16})…\]")
NOTE = re.compile(r'<p class="note">A text longer than 1,000 characters[^<]*<a href="([^"]+)">')


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bounds") / "site"
    build_site(huge_runs(), out)
    return out


def _pages(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): p.read_text("utf-8")
        for p in sorted(site.rglob("*"))
        if p.suffix in (".html", ".svg", ".atom")
    }


def test_every_page_of_a_site_made_of_100_kb_texts_stays_under_1_mb(site: Path) -> None:
    pages = _pages(site)
    # index, grid, nights (13 and their list), 3 lines, their badges, scenarios, the feed
    assert len([p for p in pages if p.endswith(".html")]) >= 20
    sizes = {path: len(text.encode("utf-8")) for path, text in pages.items()}
    assert max(sizes.values()) <= PAGE_BOUND, max(sizes.items(), key=lambda kv: kv[1])
    # The documents the pages link for the whole text are far bigger: the texts are there.
    assert (site / "api/v1/grid.json").stat().st_size > 10 * PAGE_BOUND


def test_no_page_holds_a_character_that_hides_or_reorders_text(site: Path) -> None:
    for path, text in _pages(site).items():
        assert not HIDDEN.search(text), path


def test_a_cut_text_says_so_and_its_page_links_where_it_is_whole(site: Path) -> None:
    pages = _pages(site)
    line = next(p for p in pages if p.startswith("lines/alpha-sdk"))
    scenario = next(p for p in pages if p.startswith("scenarios/server-tools-call-image"))
    for path, source in (
        ("index.html", "api/v1/index.json"),
        ("grid.html", "api/v1/grid.json"),
        ("nights/2026-10-12.html", "../api/v1/nights/2026-10-12.json"),
        (line, f"../api/v1/lines/{Path(line).stem}.json"),
        (scenario, "../api/v1/scenarios.json"),
    ):
        text = pages[path]
        assert NOTE.findall(text) == [source], path
        document = json.loads(((site / path).parent / source).read_text("utf-8"))
        texts = {(len(t), _digest(t)) for t in _strings(document)}
        marks = {(int(length), digest) for length, digest in MARK.findall(text)}
        # A mark names a text of the linked document by its length and digest (or a text the
        # page made of several, such as "NAME: REASON", whose parts are there).
        assert marks & texts, path
    # A page that cut nothing says nothing of it.
    assert "A text longer than" not in pages["nights/index.html"]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _strings(data: object) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []
