"""The HTML kit: a plain string that meets markup is escaped, elements and links are ours.

Every expected string is written out by hand.
"""

from __future__ import annotations

import pytest
from markupsafe import Markup

from tiercheck.render.element import Href, fragment, site, web
from tiercheck.render.html import (
    Css,
    Html,
    a,
    chip,
    el,
    join,
    link,
    page,
    table,
    td,
    th,
    tr,
    void,
)

HOSTILE = '<img src=x onerror="alert(1)">'
ESCAPED = "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"


def test_a_plain_string_meeting_markup_is_escaped_every_way() -> None:
    b = el("b", "x")
    assert b + HOSTILE == f"<b>x</b>{ESCAPED}"
    assert HOSTILE + b == f"{ESCAPED}<b>x</b>"
    assert join([b, HOSTILE]) == f"<b>x</b>{ESCAPED}"
    assert Html(", ").join([HOSTILE, b]) == f"{ESCAPED}, <b>x</b>"
    assert Html("<i>{}</i>").format(HOSTILE) == f"<i>{ESCAPED}</i>"
    assert Html("<i>%s</i>") % HOSTILE == f"<i>{ESCAPED}</i>"
    assert el("p", HOSTILE) == f"<p>{ESCAPED}</p>"


def test_escaping_drops_control_characters_and_writes_quotes_as_entities() -> None:
    assert Html.escape("a\x00b\x1b[31m\u202e 'q' \"d\" & c") == (
        "ab[31m[U+202E] &#x27;q&#x27; &quot;d&quot; &amp; c"
    )
    assert Html.escape(None) == ""
    assert Html.escape(7) == "7"


def test_markup_from_the_kit_or_markupsafe_goes_in_as_it_is() -> None:
    assert el("p", el("b", "x"), Markup("<i>y</i>")) == "<p><b>x</b><i>y</i></p>"


def test_attributes_in_order_escaped_and_named_from_keywords() -> None:
    got = el("td", "t", class_="v a", id="r-1", title='say "hi" <b>', aria_label="l", hidden=None)
    assert got == (
        '<td class="v a" id="r-1" title="say &quot;hi&quot; &lt;b&gt;" aria-label="l">t</td>'
    )
    assert void("input", type="checkbox", disabled=True, checked=False) == (
        '<input type="checkbox" disabled>'
    )
    assert void("br") == "<br>"
    assert el("span") == "<span></span>"


@pytest.mark.parametrize("name", ["script", "SCRIPT", "iframe", "object", "embed", "form", "a b"])
def test_an_element_that_runs_or_fetches_cannot_be_made(name: str) -> None:
    with pytest.raises(ValueError, match="not an element"):
        el(name)


@pytest.mark.parametrize("key", ["onclick", "onerror", "ONLOAD", "x y"])
def test_an_event_handler_cannot_be_made(key: str) -> None:
    with pytest.raises(ValueError, match="not an attribute"):
        el("p", "x", **{key: "alert(1)"})


def test_a_link_attribute_takes_only_an_href() -> None:
    with pytest.raises(TypeError, match="takes an Href"):
        el("a", "x", href="javascript:alert(1)")
    with pytest.raises(TypeError, match="takes an Href"):
        void("img", src="https://example.org/x.png")


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JAVASCRIPT:alert(1)",
        " javascript:alert(1)",
        "data:text/html,x",
        "vbscript:x",
        "//evil.example/x",
        "/etc/passwd",
        "lines/../../x.html",
        "lines/x.html#a b",
        'x.html" onclick="y',
        "",
    ],
)
def test_an_href_is_only_one_of_ours(url: str) -> None:
    with pytest.raises(ValueError, match="not a link"):
        Href(url)
    assert site(url) is None
    assert web(url) is None


def test_the_links_we_make() -> None:
    assert site("../lines/alpha-sdk.html") == Href("../lines/alpha-sdk.html")
    assert site("api/v1/index.json#top") == Href("api/v1/index.json#top")
    assert site("https://github.com/x") is None  # an address is not a path of the site
    assert web("https://github.com/o/r/blob/abc/README.md#L3") is not None
    assert web("http://example.org") is not None
    assert fragment("m12") == Href("#m12")
    assert fragment("m 1") is None


def test_a_and_link_link_ours_and_leave_the_rest_as_text() -> None:
    assert (
        a("all <lines>", site("../index.html")) == '<a href="../index.html">all &lt;lines&gt;</a>'
    )
    assert a("x", None) == "x"
    assert link("spec", "https://modelcontextprotocol.io/a?b=1&c=2") == (
        '<a href="https://modelcontextprotocol.io/a?b=1&amp;c=2">spec</a>'
    )
    assert link("evil", "javascript:alert(1)") == "evil"
    assert link("none", None) == "none"


def test_chip() -> None:
    assert chip("pass") == '<span class="chip pass">pass</span>'
    assert chip("Needs Review", "<b>") == '<span class="chip review">&lt;b&gt;</span>'
    assert chip("whatever") == '<span class="chip info">whatever</span>'


def test_table_wraps_text_and_takes_cells_and_rows_made_by_the_kit() -> None:
    got = table(
        ["A", th("B", class_="rot")],
        [["<1>", el("b", "2")], [td("x", colspan="2")], tr(td("r"), id="row-1")],
        numeric=(1,),
        body_id="body",
        class_="heat",
        id="t",
    )
    assert got == (
        '<table class="heat" id="t"><thead><tr><th>A</th><th class="rot">B</th></tr></thead>'
        '<tbody id="body"><tr><td>&lt;1&gt;</td><td class="num"><b>2</b></td></tr>'
        '<tr><td colspan="2">x</td></tr><tr id="row-1"><td>r</td></tr></tbody></table>'
    )


def test_the_page_shell() -> None:
    got = page("T <1>", el("span", "H"), "m & m", el("p", "body"), css=Css("p { color: red; }"))
    assert got.startswith(
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n"
        "<title>T &lt;1&gt;</title>\n<style>\n:root {"
    )
    assert got.endswith(
        "p { color: red; }</style>\n</head>\n<body>\n"
        '<header><h1><span>H</span></h1><div class="meta">m &amp; m</div></header>\n'
        "<main>\n<p>body</p>\n</main>\n</body>\n</html>\n"
    )


def test_a_style_sheet_cannot_end_its_element() -> None:
    with pytest.raises(ValueError, match="no '<'"):
        Css("p {} </style><script>alert(1)</script>")


def test_what_hides_or_reorders_text_is_shown_by_its_code_point() -> None:
    # A file named so that it reads `abcexe.abcd`, an isolate, a zero-width space in a mention,
    # and noncharacters (the Nu checker refuses them in a page): each is shown, never acted on.
    assert Html.escape("abc\u202edcba.exe") == "abc[U+202E]dcba.exe"
    assert el("td", "\u2067x\u2069 @\u200bu") == "<td>[U+2067]x[U+2069] @[U+200B]u</td>"
    assert el("p", "a", title="\ufffe\U0010ffff\ufdd0") == (
        '<p title="[U+FFFE][U+10FFFF][U+FDD0]">a</p>'
    )


def test_a_web_address_that_hides_or_reorders_text_is_no_link() -> None:
    assert link("x", "https://example.com/a\u202ecod.exe") == "x"
    assert link("x", "https://example.com/a") == '<a href="https://example.com/a">x</a>'


def test_a_short_text_is_escaped_once_and_a_long_one_never_kept() -> None:
    from tiercheck.render import html as kit

    kit._short_text.cache_clear()
    hostile = "a\u202e<b>&\u200b"
    first = Html.escape(hostile)
    assert type(first) is Html
    assert Html.escape(hostile) == first == "a[U+202E]&lt;b&gt;&amp;[U+200B]"
    assert kit._short_text.cache_info().hits == 1
    long = "x\u202e" * 400  # longer than a page shows: cut, its mark in a span, not kept
    shown = Html.escape(long)
    assert shown.count('<span class="cut">') == 1
    assert "[U+202E]" in shown
    assert kit._short_text.cache_info().currsize == 1
    # A number, None and markup take their own way, as before.
    assert (Html.escape(7), Html.escape(None), Html.escape(Html("<i>x</i>"))) == (
        "7",
        "",
        "<i>x</i>",
    )
    # An attribute's text is cut as a page's is, its mark as text; a short one is remembered.
    titled = el("span", "x", title=long)
    assert '<span class="cut">' not in titled
    assert "[cut: 800 characters" in titled
    assert el("span", "x", title=hostile) == el("span", "x", title=hostile)
