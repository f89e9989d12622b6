"""The hostile table (`support.hostile_text`) through every renderer, read back by real parsers.

Markdown (scorecard.md, assessment.md, remediation.md, matrix.md, the diff, the history, the
tracking issue's body and comments, the pull-request comment) is rendered by cmark-gfm, GitHub's
own renderer, with its table and autolink extensions and raw HTML let through: no link, image or
element may come from the SDK, no mention, reference or URL of it may be live text (outside
code), no tiercheck marker may appear, and every table row keeps its header's columns. HTML
pages are parsed (and, with Chromium, opened with JavaScript off): no element, attribute or link
from the SDK. JUnit and SVG are parsed by an XML parser and hold only XML characters.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from support import browser
from support.hostile_text import (
    HOSTILE,
    LOOKALIKES,
    MARKERS,
    PAYLOADS,
    hostile_matrix,
    hostile_runs,
    hostile_scorecard,
    hostile_state,
)
from support.scorecards import mixed_scorecard
from tiercheck.claim.header import TagFact
from tiercheck.claim.html import render_claim_html
from tiercheck.claim.markdown import render_assessment, render_remediation
from tiercheck.claim.pack import Claim, ClaimContext, build_claim
from tiercheck.dashboard.build import Dashboard, build_dashboard
from tiercheck.dashboard.html import line_badge_svg, render_index, render_line
from tiercheck.history.render import render_markdown as render_history_markdown
from tiercheck.history.report import history_report
from tiercheck.matrix.html import render_matrix_html
from tiercheck.matrix.text import render_matrix_junit, render_matrix_markdown
from tiercheck.notify.texts import (
    changed_comment,
    green_comment,
    issue_body,
    pr_comment,
    reopened_comment,
)
from tiercheck.scorecard.diff import diff_scorecards, render_diff_markdown
from tiercheck.scorecard.render.badge import render_badge_svg
from tiercheck.scorecard.render.html import render_html
from tiercheck.scorecard.render.junit import render_junit
from tiercheck.scorecard.render.markdown import render_markdown

CASES = sorted(HOSTILE)
#: Where tiercheck's own links may point (a dispute's issue: the conformance repository).
LINK_HOSTS = (
    "https://github.com/example-org/",
    "https://github.com/modelcontextprotocol/conformance/",
    "https://modelcontextprotocol.io/",
)
#: Characters that hide or reorder text, and characters no text file should hold.
HIDDEN = re.compile("[\u200b\u2060\u202e\x00\ud800-\udfff]")
NOT_XML = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# Each input is built once per hostile string; every renderer reads it and none changes it.
@functools.cache
def _claim(name: str) -> Claim:
    # The release tag the commit carries is the SDK's to name: its page is linked only when the
    # address built from it has the shape of a release page.
    context = ClaimContext(release=TagFact(HOSTILE[name], "2026-08-01T00:00:00Z", 0))
    return build_claim(
        hostile_scorecard(name), target_tier=1, snapshot=None, tree=None, context=context
    )


@functools.cache
def _dashboard(name: str) -> Dashboard:
    return build_dashboard(hostile_runs(name))


def _history(name: str) -> str:
    runs = hostile_runs(name)
    report = history_report(
        runs,
        sdk=HOSTILE[name],
        database="history.sqlite",
        as_of=datetime(2026, 12, 31, tzinfo=UTC),
        since=None,
    )
    return render_history_markdown(report)


MARKDOWN: dict[str, Callable[[str], str]] = {
    "scorecard.md": lambda n: render_markdown(hostile_scorecard(n)),
    "assessment.md": lambda n: render_assessment(_claim(n)),
    "remediation.md": lambda n: render_remediation(_claim(n)),
    "matrix.md": lambda n: render_matrix_markdown(hostile_matrix(n)),
    "diff.md": lambda n: render_diff_markdown(
        diff_scorecards(mixed_scorecard(), hostile_scorecard(n))
    ),
    "history.md": _history,
    "issue body": lambda n: issue_body(hostile_state(n)),
    "changed comment": lambda n: changed_comment(hostile_state(n)),
    "reopened comment": lambda n: reopened_comment(hostile_state(n)),
    "green comment": lambda n: green_comment(hostile_state(n)),
    "pr comment": lambda n: pr_comment({HOSTILE[n]: hostile_state(n)}, hostile_state(n).night),
}

HTML: dict[str, Callable[[str], str]] = {
    "scorecard.html": lambda n: render_html(hostile_scorecard(n)),
    "claim.html": lambda n: render_claim_html(_claim(n)),
    "matrix.html": lambda n: render_matrix_html(hostile_matrix(n)),
    "index.html": lambda n: render_index(_dashboard(n).index, _dashboard(n).lines),
    "line page": lambda n: render_line(
        _dashboard(n).index.lines[0], _dashboard(n).lines[_dashboard(n).index.lines[0].slug]
    ),
}

XML: dict[str, Callable[[str], str]] = {
    "junit.xml": lambda n: render_junit(hostile_scorecard(n)),
    "matrix junit.xml": lambda n: render_matrix_junit(hostile_matrix(n)),
    "badge.svg": lambda n: render_badge_svg(hostile_scorecard(n)),
    "line badge.svg": lambda n: line_badge_svg(_dashboard(n).index.lines[0]),
}


# -- reading the output back ---------------------------------------------------------------


class _Dom(HTMLParser):
    """Elements, attributes, links and the live text (outside code, pre and links)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.live: list[str] = []
        self.comments: list[str] = []
        self._inert: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [(tag, k, v or "") for k, v in attrs]
        if tag in ("code", "pre", "a", "style", "title", "svg"):
            self._inert.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._inert and self._inert[-1] == tag:
            self._inert.pop()

    def handle_data(self, data: str) -> None:
        if not self._inert:
            self.live.append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def _dom(html: str) -> _Dom:
    dom = _Dom()
    dom.feed(html)
    dom.close()
    return dom


def gfm(markdown: str) -> str:
    """`markdown` as GitHub renders it: cmark-gfm with its extensions, raw HTML kept."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def row_cells(line: str) -> int:
    """How many cells GFM splits a table row into: a pipe ends a cell unless escaped, even
    inside a code span."""
    body = line.strip()
    cells, i, current = [], 0, ""
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            current += body[i : i + 2]
            i += 2
            continue
        if body[i] == "|":
            cells.append(current)
            current = ""
        else:
            current += body[i]
        i += 1
    cells.append(current)
    return len(cells) - 2  # the empty text before the first pipe and after the last


def _tables(markdown: str) -> list[list[str]]:
    tables: list[list[str]] = []
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        delimiter = i + 1 < len(lines) and re.fullmatch(r"\|( ?-+ ?\|)+", lines[i + 1])
        if line.startswith("|") and delimiter:
            rows = [line]
            for later in lines[i + 2 :]:
                if not later.startswith("|"):
                    break
                rows.append(later)
            tables.append(rows)
    return tables


def _links_are_ours(dom: _Dom, where: str) -> None:
    """Every link is tiercheck's: to a page of the site, an anchor, or https on GitHub or the
    specification's site, any SDK part of it percent-encoded."""
    for tag, key, value in dom.attrs:
        assert not key.startswith("on"), f"{where}: an event handler on <{tag}>"
        if key not in ("href", "src", "xlink:href", "action"):
            continue
        relative = re.fullmatch(r"(\.\./)?[\w./-]*\.(html|json|svg)(#[\w-]*)?", value)
        ours = value.startswith("#") or relative or value.startswith(LINK_HOSTS)
        assert ours, f"{where}: <{tag} {key}={value!r}>"
        assert not re.search(r"[\s<>\"'`()\[\]]", value), f"{where}: {value!r}"
        # An address of the very shape tiercheck links, written by the SDK, is never linked.
        assert not value.startswith(LOOKALIKES), f"{where}: {value!r}"


# -- the tests ----------------------------------------------------------------------------


def test_the_cell_counter_sees_a_broken_row() -> None:
    # The control: a row with one pipe too many loses a cell in GFM, and the counter says so.
    header, broken = "| a | b |", "| `x|y` | z |"
    html = gfm(f"{header}\n|---|---|\n{broken}\n")
    assert "<td>z</td>" not in html  # cmark-gfm dropped the extra cell: the text is gone
    assert (row_cells(header), row_cells(broken)) == (2, 3)
    assert row_cells("| `x\\|y` | z |") == 2


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("renderer", sorted(MARKDOWN))
def test_markdown_keeps_sdk_text_inert(renderer: str, name: str) -> None:
    markdown = MARKDOWN[renderer](name)
    where = f"{renderer} with {name}"
    for marker in MARKERS:
        assert marker not in markdown, where
    assert not HIDDEN.search(markdown), where
    html = gfm(markdown)
    dom = _dom(html)
    assert set(dom.tags) <= {
        "h1",
        "h2",
        "h3",
        "h4",
        "p",
        "strong",
        "em",
        "code",
        "pre",
        "ul",
        "ol",
        "li",
        "a",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "blockquote",
        "details",
        "summary",
        "br",
        "input",
        "del",
    }, f"{where}: {sorted(set(dom.tags))}"
    assert dom.comments == [], where
    _links_are_ours(dom, where)
    live = "".join(dom.live)
    for payload in PAYLOADS:
        assert payload not in live, f"{where}: {payload!r} is live text"
    for table in _tables(markdown):
        width = row_cells(table[0])
        for line in table[2:]:
            assert row_cells(line) == width, f"{where}: {line[:200]!r}"


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("renderer", sorted(HTML))
def test_html_pages_keep_sdk_text_inert(renderer: str, name: str) -> None:
    page = HTML[renderer](name)
    where = f"{renderer} with {name}"
    dom = _dom(page)
    assert not {"script", "img", "iframe", "object", "embed", "form", "base"} & set(dom.tags)
    assert "onerror" not in {k for _, k, _ in dom.attrs}
    for marker in MARKERS:
        assert marker not in page, where
    assert all("tiercheck:" not in c for c in dom.comments), where
    _links_are_ours(dom, where)
    page.encode("utf-8")  # no lone surrogate


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("renderer", sorted(XML))
def test_xml_is_well_formed_and_holds_only_xml_characters(renderer: str, name: str) -> None:
    text = XML[renderer](name)
    assert not NOT_XML.search(text), f"{renderer} with {name}"
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag in ("testsuites", "{http://www.w3.org/2000/svg}svg")


@pytest.mark.parametrize("renderer", ["scorecard.md", "matrix.md", "issue body", "pr comment"])
def test_a_huge_string_stays_bounded(renderer: str) -> None:
    # 200 KB in every field: the Markdown cuts each to its cap instead of carrying it whole.
    assert len(MARKDOWN[renderer]("huge")) < 100_000


def test_the_claim_body_still_fits_one_issue_with_a_huge_string() -> None:
    assert len(render_assessment(_claim("huge"))) < 65_536


def test_chromium_finds_no_element_or_request_from_sdk_text(tmp_path: Path) -> None:
    browser.require_chromium()
    # Every hostile string at once, in each page, opened with JavaScript off.
    combined = "all-at-once"
    pages = {
        "scorecard.html": HTML["scorecard.html"](combined),
        "claim.html": HTML["claim.html"](combined),
        "matrix.html": HTML["matrix.html"](combined),
        "index.html": HTML["index.html"](combined),
    }
    for file_name, html in pages.items():
        page = tmp_path / file_name
        page.write_text(html, encoding="utf-8")
        net_log = tmp_path / f"{page.stem}.netlog.json"
        dom_text = browser.chromium(
            tmp_path,
            "--blink-settings=scriptEnabled=false",
            f"--log-net-log={net_log}",
            "--dump-dom",
            page.as_uri(),
        )
        dom = _dom(dom_text)
        assert not {"script", "img", "iframe"} & set(dom.tags), file_name
        _links_are_ours(dom, file_name)
        browser.assert_nothing_fetched(browser.requests(net_log), page)


#: The Markdown renderers: each makes Markdown only through `tiercheck.render.markdown`.
_MARKDOWN_MODULES = (
    "scorecard/render/markdown",
    "claim/markdown",
    "matrix/text",
    "history/render",
    "scorecard/diff",
    "scorecard/render/probes",
    "notify/texts",
)


@pytest.mark.parametrize("module", _MARKDOWN_MODULES)
def test_markdown_renderers_escape_nothing_themselves(module: str) -> None:
    source = (Path(__file__).parents[3] / "tiercheck" / f"{module}.py").read_text()
    assert "tiercheck.render.markdown" in source
    home_made = re.findall(r"""\.replace\(\s*["'](?:\||<|`|\\\\\|)["']""", source)
    assert home_made == [], f"{module}.py escapes Markdown itself: {home_made}"
