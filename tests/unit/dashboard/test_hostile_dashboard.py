"""The published dashboard (what GitHub Pages serves) keeps hostile text inert in every field.

Each string of the hostile table (`support.hostile_text`) is written into every text field of
the dashboard's documents that a line, its SDK or the harness can fill (`support.
hostile_dashboard.filled_dashboard`), and every page is read back by an HTML parser: no element
or attribute but the ones the dashboard writes, no event handler, no link but to a page of the
site, and the string itself is there, whole, as text or as an attribute's value. The links
themselves are then made hostile: a `javascript:` or outside address is never a link.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

from support.hostile_dashboard import filled_dashboard, rich_dashboard
from support.hostile_text import HOSTILE
from tiercheck.config.triage import TriageEntry
from tiercheck.dashboard.build import Dashboard
from tiercheck.dashboard.html import render_index, render_line, render_scenario
from tiercheck.dashboard.triage import Triage, judge_triage
from tiercheck.plaintext import HIDDEN, clean, visible
from tiercheck.render.badge import badge_svg

SVG = "{http://www.w3.org/2000/svg}"
#: Every string but the 200 KB one (in every field of thirty nights, it only makes pages big).
CASES = sorted(name for name in HOSTILE if name != "huge")
#: The elements and attributes the dashboard's pages are made of, and nothing else.
TAGS = frozenset(
    " ".join(
        (
            "html head meta title style body header h1 h2 h3 main div span p a ul li strong code",
            "pre section",
            "nav table thead tbody tr th td details summary figure figcaption svg g text",
            "lineargradient stop clippath rect line circle polyline path",
        )
    ).split()
)
ATTRS = frozenset(
    " ".join(
        (
            "lang charset name content http-equiv class id href title rowspan colspan",
            "xmlns width height viewbox role aria-label x y x1 y1 x2 y2 cx cy r rx fill stroke",
            "stroke-width stroke-dasharray stroke-opacity stop-color stop-opacity offset",
            "clip-path text-anchor font-family font-size fill-opacity points d",
            "tabindex aria-hidden",
        )
    ).split()
)
#: A link of the site: a relative path of slugs (`../lines/x.html`, `api/v1/index.json`).
SITE_LINK = re.compile(r"(\.\./)*[\w.-]+(/[\w.-]+)*\.(html|json|svg)(#[\w-]+)?")
#: The one link from elsewhere a page shows: a triage entry's issue (given by the test).
ISSUE = "https://github.com/example/sdk/issues/1"


class _Page(HTMLParser):
    """Every element, attribute, comment and piece of text of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        self.comments: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs += [(tag, key, value or "") for key, value in attrs]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def _read(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    parsed.close()
    return parsed


def _triage(dashboard: Dashboard, note: str) -> list[TriageEntry]:
    """An entry with `note` for every failing scenario of every line, and one for a line that
    is gone (stale), made directly (the file's schema would refuse some notes)."""
    pairs = sorted({(r.line, p.scenario) for p in dashboard.scenarios.scenarios for r in p.lines})
    entries = [
        TriageEntry(line, scenario, None, None, ISSUE, note, source="t.yaml", index=i)
        for i, (line, scenario) in enumerate(pairs)
    ]
    return [*entries, TriageEntry(note, note, None, None, ISSUE, note, "t.yaml", len(entries))]


def _pages(dashboard: Dashboard, note: str = "a note") -> dict[str, str]:
    index = dashboard.index
    entries = _triage(dashboard, note)
    triage = Triage(entries)
    statuses = judge_triage(entries, dashboard.scenarios, [s.line for s in index.lines])
    pages = {"index.html": render_index(index, dashboard.lines, feed=False, triage=statuses)}
    for i, summary in enumerate(index.lines):
        history = dashboard.lines[summary.slug]
        pages[f"line {i}"] = render_line(
            summary,
            history,
            aliases=(HOSTILE["script"],),
            triage=triage,
            statuses=[s for s in statuses if s.entry.line == summary.line],
            # Its comparison with another line (here named as this one is).
            compare=[(summary.line, "compare/a/b.html")],
        )
    for i, scenario in enumerate(dashboard.scenarios.scenarios[:3]):
        pages[f"scenario {i}"] = render_scenario(scenario, index, triage=triage)
    return pages


def _inert(page: str, where: str) -> _Page:
    parsed = _read(page)
    assert parsed.tags <= TAGS, f"{where}: {sorted(parsed.tags - TAGS)}"
    assert {key for _, key, _ in parsed.attrs} <= ATTRS, where
    assert parsed.comments == [], where
    for tag, key, value in parsed.attrs:
        if key == "href":
            assert tag == "a", where
            assert SITE_LINK.fullmatch(value) or value == ISSUE, f"{where}: href={value!r}"
    return parsed


def test_the_filled_dashboard_reaches_every_part_of_every_page() -> None:
    # The control: with a plain word in every field, each page shows the word in its parts,
    # so the hostile strings below are tried wherever an untrusted string can go.
    pages = _pages(filled_dashboard("WORD"))
    index = pages["index.html"]
    for ident in ("last-night", "failing-scenarios"):
        assert f'id="{ident}"' in index
    assert 'id="status-WORD0"' in index
    line = pages["line 0"]
    for ident in ("regressions", "tier-changes", "clock", "unaddressed", "flaky", "recent-runs"):
        assert f'id="{ident}"' in line, ident
    assert "WORD" in line.split('id="unaddressed"')[1].split("</table>")[0]
    assert any("WORD" in text for text in _read(pages["scenario 0"]).text)
    # Triage notes reach the index (a stale entry), the line pages and the scenario pages.
    assert 'id="stale-triage"' in index
    assert 'id="triage"' in line
    assert any('class="triage"' in page for where, page in pages.items() if "scenario" in where)
    assert 'id="badge-snippets"' in line
    assert "WORD" in line.split('id="compare"')[1].split("</p>")[0]


@pytest.mark.parametrize("name", CASES)
def test_hostile_text_in_every_field_stays_text(name: str) -> None:
    payload = HOSTILE[name]
    shown = visible(clean(payload))
    for where, page in _pages(filled_dashboard(payload), note=payload).items():
        parsed = _inert(page, f"{where} with {name}")
        values = [value for _, _, value in parsed.attrs]
        # Nothing that hides or reorders text is left in the page (a name shown as `abcexe.abcd`,
        # a cell that reverses the next one's text): each is shown as `[U+202E]`.
        assert not HIDDEN.search(page), where
        # The string arrives whole (less its control characters, its hidden ones shown), never
        # as markup.
        assert any(shown in text for text in ("".join(parsed.text), *values)), where
        assert "javascript:" not in " ".join(v for _, k, v in parsed.attrs if k == "href")
        page.encode("utf-8")  # no lone surrogate


@pytest.mark.parametrize(
    "link",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "https://evil.example/x.html",
        "//evil.example/x.html",
        "data:text/html,<script>alert(1)</script>",
        'lines/x.html" onclick="alert(1)',
        "/etc/passwd",
    ],
)
def test_a_link_that_is_not_the_sites_is_no_link(link: str) -> None:
    for where, page in _pages(filled_dashboard("x", links=link)).items():
        parsed = _inert(page, f"{where} with link {link!r}")
        hrefs = [value for _, key, value in parsed.attrs if key == "href"]
        assert link not in hrefs, where
        # The built-in links of the site stay: "← all lines" on every page but the index.
        assert where == "index.html" or "../index.html" in hrefs, where


def test_the_sites_own_links_stay_links() -> None:
    hrefs = {
        value
        for page in _pages(rich_dashboard()).values()
        for _, key, value in _read(page).attrs
        if key == "href"
    }
    assert {"lines/alpha-sdk.html", "api/v1/index.json", "api/v1/matrix.json"} <= hrefs
    assert "../lines/alpha-sdk/scorecard.html" in hrefs


@pytest.mark.parametrize(
    ("label", "message"),
    [
        ('say "hi"', "1"),
        ("it's", "2 · regressed"),
        ('x" onload="alert(1)', "3' onclick='alert(1)"),
        ("<script>alert(1)</script>", "&amp;"),
    ],
)
def test_the_badge_aria_label_keeps_quotes_inside(label: str, message: str) -> None:
    text = badge_svg(label, message, '#fff" onload="alert(1)')
    root = ET.fromstring(text)
    assert set(root.attrib) == {"width", "height", "role", "aria-label"}
    assert root.get("aria-label") == f"{label}: {message}"
    assert [e.tag for e in root.iter() if e.tag.endswith("script")] == []
    assert all(not key.startswith("on") for e in root.iter() for key in e.attrib)
    assert root.findtext(f"{SVG}title") == f"{label}: {message}"
    texts = {t.get("id"): t.text for t in root.iter(f"{SVG}text") if t.get("id")}
    assert texts == {"label": label, "message": message}
    # The colour is an attribute value too: its quote stays inside it.
    fills = [r.get("fill") for r in root.iter(f"{SVG}rect")]
    assert '#fff" onload="alert(1)' in fills


@pytest.mark.parametrize(
    "page",
    [
        "<p><img src=x onerror=alert(1)></p>",
        '<p title="x" onclick="alert(1)">y</p>',
        '<a href="javascript:alert(1)">x</a>',
        "<p><!-- tiercheck:line=x --></p>",
    ],
)
def test_the_reading_finds_what_got_through(page: str) -> None:
    # The control: markup let through by a page is an element, attribute, link or comment.
    with pytest.raises(AssertionError):
        _inert(page, "planted")
