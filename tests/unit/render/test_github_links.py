"""The one gate for a link to an issue, pull request or release on GitHub (`github_page`), and
the two renderings over it (`markdown.github_link`, `html.github_link`): only an https address
of exactly that shape is linked, anything else is plain text.

Every expected string is written out by hand.
"""

from __future__ import annotations

import pytest

from tiercheck.render import html
from tiercheck.render import markdown as md
from tiercheck.render.element import ISSUE_PAGES, RELEASE_PAGES, GithubPage, github_page

CONFORMANCE = "modelcontextprotocol/conformance"
ISSUE = "https://github.com/modelcontextprotocol/conformance/issues/7"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (ISSUE, GithubPage(ISSUE, CONFORMANCE, "issue", "7")),
        (
            "https://github.com/o-1/r.s_x/pull/1234567890",
            GithubPage(
                "https://github.com/o-1/r.s_x/pull/1234567890",
                "o-1/r.s_x",
                "pull request",
                "1234567890",
            ),
        ),
        (
            "https://github.com/o/r/releases/tag/v1.2.0",
            GithubPage("https://github.com/o/r/releases/tag/v1.2.0", "o/r", "release", "v1.2.0"),
        ),
        # A tag of a module in a subfolder, and a package's scoped tag.
        (
            "https://github.com/o/r/releases/tag/mcp/v1.2.0",
            GithubPage(
                "https://github.com/o/r/releases/tag/mcp/v1.2.0", "o/r", "release", "mcp/v1.2.0"
            ),
        ),
        (
            "https://github.com/o/r/releases/tag/@s/pkg@1.0.0+b",
            GithubPage(
                "https://github.com/o/r/releases/tag/@s/pkg@1.0.0+b",
                "o/r",
                "release",
                "@s/pkg@1.0.0+b",
            ),
        ),
    ],
)
def test_the_pages_it_accepts(url: str, expected: GithubPage) -> None:
    assert github_page(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "http://github.com/modelcontextprotocol/conformance/issues/7",
        "https://github.com.evil.example/modelcontextprotocol/conformance/issues/7",
        "https://evil.example/modelcontextprotocol/conformance/issues/7",
        "https://user@github.com/modelcontextprotocol/conformance/issues/7",
        "https://github.com:443/modelcontextprotocol/conformance/issues/7",
        "https://www.github.com/modelcontextprotocol/conformance/issues/7",
        "https://GITHUB.com/modelcontextprotocol/conformance/issues/7",
        f"{ISSUE}?x=1",
        f"{ISSUE}#issuecomment-1",
        f"{ISSUE}/",
        f"{ISSUE}\n",
        f" {ISSUE}",
        "https://github.com/modelcontextprotocol/conformance/issues/07",
        "https://github.com/modelcontextprotocol/conformance/issues/0",
        "https://github.com/modelcontextprotocol/conformance/issues/12345678901",
        "https://github.com/modelcontextprotocol/conformance/issues/7a",
        "https://github.com/modelcontextprotocol/conformance/issues",
        "https://github.com/modelcontextprotocol/conformance/blob/main/README.md",
        "https://github.com/modelcontextprotocol/../issues/7",
        "https://github.com/-x/r/issues/7",
        "https://github.com/o/r/issues/%37",
        "https://github.com/o/r/releases/tag/",
        "https://github.com/o/r/releases/tag/v1 2",
        "https://github.com/o/r/releases/tag/v1%202",
        "https://github.com/o/r/releases/tag/../../x",
        "https://github.com/o/r/releases/tag/.hidden",
        "https://github.com/o/r/releases/tag/v1/",
        "https://github.com/o/r/releases/tag/v1)x",
        "https://github.com/o/r/releases/tag/https://github.com/o/r/issues/7",
        'https://github.com/o/r/releases/tag/v1"onmouseover="x',
        "https://github.com/o/r/releases/tag/v1<script>",
        "https://github.com/o/r/releases/tag/" + "x" * 201,
        "javascript:alert(1)//https://github.com/o/r/issues/7",
        "",
    ],
)
def test_anything_else_is_refused(url: str) -> None:
    assert github_page(url) is None


def test_what_is_not_a_string_is_refused() -> None:
    assert github_page(None) is None
    assert github_page(7) is None
    assert github_page(["https://github.com/o/r/issues/7"]) is None


def test_the_repository_and_the_kinds_asked_for() -> None:
    assert github_page(ISSUE, repo=CONFORMANCE, kinds=ISSUE_PAGES) is not None
    # GitHub's owners and names are the same in any case.
    assert github_page(ISSUE, repo="ModelContextProtocol/Conformance") is not None
    assert github_page(ISSUE, repo="modelcontextprotocol/conformance2") is None
    assert github_page("https://github.com/evil/conformance/issues/7", repo=CONFORMANCE) is None
    assert github_page(ISSUE, kinds=RELEASE_PAGES) is None
    assert github_page("https://github.com/o/r/releases/tag/v1", kinds=ISSUE_PAGES) is None


def test_its_label_is_the_name_github_gives_it() -> None:
    labels = [
        page.label if page else None
        for page in (
            github_page(ISSUE),
            github_page("https://github.com/o/r/pull/12"),
            github_page("https://github.com/o/r/releases/tag/mcp/v1.2.0"),
        )
    ]
    assert labels == ["modelcontextprotocol/conformance#7", "o/r#12", "mcp/v1.2.0"]


def test_markdown_links_an_accepted_page_and_leaves_the_rest_as_text() -> None:
    assert md.github_link(None, ISSUE) == (
        "[`modelcontextprotocol/conformance#7`]"
        "(https://github.com/modelcontextprotocol/conformance/issues/7)"
    )
    assert md.github_link("1.2.0", "https://github.com/o/r/releases/tag/v1.2.0") == (
        "[1.2.0](https://github.com/o/r/releases/tag/v1.2.0)"
    )
    # Refused: the URL as written, in code; or the label given, as text.
    assert md.github_link(None, f"{ISSUE}?x=1") == (
        "`https://github.com/modelcontextprotocol/conformance/issues/7?x=1`"
    )
    assert md.github_link(None, "https://evil.example/a)b") == "`https://evil.example/a)b`"
    assert md.github_link("1.2.0", "javascript:alert(1)") == "1.2.0"
    assert md.github_link(None, ISSUE, repo="o/r") == (
        "`https://github.com/modelcontextprotocol/conformance/issues/7`"
    )


def test_html_links_an_accepted_page_and_leaves_the_rest_as_text() -> None:
    assert html.github_link(None, ISSUE) == (
        '<a href="https://github.com/modelcontextprotocol/conformance/issues/7">'
        "modelcontextprotocol/conformance#7</a>"
    )
    assert html.github_link("<1.2.0>", "https://github.com/o/r/releases/tag/v1.2.0") == (
        '<a href="https://github.com/o/r/releases/tag/v1.2.0">&lt;1.2.0&gt;</a>'
    )
    assert html.github_link(None, 'https://evil.example/"x"') == (
        "https://evil.example/&quot;x&quot;"
    )
    assert html.github_link("v1", "https://github.com/o/r/releases/tag/v1<b>") == "v1"
    assert html.github_link(None, ISSUE, kinds=RELEASE_PAGES) == (
        "https://github.com/modelcontextprotocol/conformance/issues/7"
    )
