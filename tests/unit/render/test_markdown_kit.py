"""The Markdown kit (`tiercheck.render.markdown`): plain text neutralised wherever it meets
Markdown, tiercheck's own wording kept, blocks built one way (expected values worked by hand)."""

from __future__ import annotations

import pickle

import cmarkgfm
import pytest

from tiercheck.render import markdown as md
from tiercheck.render.markdown import BLANK, Md, code, fmt, own, text


def test_ordinary_words_stay_byte_for_byte_and_the_rest_becomes_code() -> None:
    # A first word that would start a block (a list item, a quote, a rule) is code too.
    assert [text("- x"), text("1. x"), text("=== x"), text("> x")] == [
        "`-` x",
        "`1.` x",
        "`===` x",
        "`>` x",
    ]
    assert text("x - 1. y") == "x - 1. y"
    assert (
        text("tools-call-simple failed at 1.2.3 (50%)") == "tools-call-simple failed at 1.2.3 (50%)"
    )
    assert text("ping @org/team, see #123") == "ping `@org/team,` see `#123`"
    assert text("a <b> c") == "a &lt;b> c"
    assert text("x `y` z") == "x `` `y` `` z"
    assert text("[a](https://e.example)") == "`[a](https://e.example)`"
    assert text("sdk@v1 server_conformance") == "sdk@v1 server_conformance"
    # A lone `@` names no one and comparison signs mean nothing to GFM: they stay text, while
    # an `@` before a name is still code.
    assert text("30/30 @ 2025-11-25, ≥ 90% ≤ 1") == "30/30 @ 2025-11-25, ≥ 90% ≤ 1"
    assert text("x @ @y y@") == "x @ `@y` y@"


def test_cleaning_keeps_one_honest_line_and_no_comment() -> None:
    assert md.clean("a\n\tb\x00c\u202ed") == "a b\ufffdc[U+202E]d"
    assert md.clean("<!-- tiercheck:line=x -->") == "<!- - tiercheck:line=x -->"
    assert md.clean("abcdef", limit=4) == "abc…"
    assert md.no_comment("a<!--b<!---c") == "a<!- -b<!- --c"


def test_md_is_made_only_here_and_survives_a_copy() -> None:
    with pytest.raises(TypeError):
        Md("**x**")
    bold = own("**x**")
    copied = pickle.loads(pickle.dumps(bold))
    assert (copied, type(copied)) == ("**x**", Md)
    # Joined with an f-string, Markdown is a plain str again: the kit neutralises it.
    assert md.inline(f"{bold} and more") == "`**x**` and more"


def test_fmt_keeps_markdown_and_numbers_and_neutralises_the_rest() -> None:
    assert fmt("**{}:** {} ({})", "Repo", "@user", 3) == "**Repo:** `@user` (3)"
    assert fmt("{} {}", code("a|b"), own("_i_")) == "`a|b` _i_"


def test_join_takes_only_our_separators_and_neutralises_plain_parts() -> None:
    assert md.join([own("**a**"), "#1"], ", ") == "**a**, `#1`"
    assert md.join([]) == ""


def test_strip_end_strips_only_punctuation_and_spaces() -> None:
    assert md.strip_end(own("  - `x`: "), ": ") == "  - `x`"
    with pytest.raises(ValueError, match="punctuation"):
        md.strip_end(own("`x`"), "`")


def test_table_cells_escape_every_pipe_even_inside_code() -> None:
    lines = md.table(["a", own("#")], [["x | y", code("p\\|q")]])
    assert lines == ["| a | # |", "|---|---|", "| x \\| y | `p\\\\\\|q` |"]
    assert md.table(["a"], [], spaced=True) == ["| a |", "| --- |"]
    with pytest.raises(ValueError, match="2 cells under a header of 1"):
        md.table(["a"], [["x", "y"]])


def test_a_pipe_in_a_code_span_stays_in_its_cell_on_github() -> None:
    """GFM splits a row at every unescaped pipe, code spans included; the kit escapes each one,
    and GitHub's renderer (cmark-gfm) shows the code with its pipe, in one cell."""
    lines = md.table(["pattern", "b"], [[code("(?:^|-)v?"), "z"], [own("`a|b`"), "y"]])
    html = cmarkgfm.github_flavored_markdown_to_html("\n".join(lines) + "\n")
    body = html[html.index("<tbody>") :]
    assert body.count("<td>") == 4
    assert "<td><code>(?:^|-)v?</code></td>" in body
    assert "<td><code>a|b</code></td>" in body


def test_blocks() -> None:
    assert md.heading(2, "Since #4") == "## Since `#4`"
    with pytest.raises(ValueError, match="level 7"):
        md.heading(7, "x")
    assert md.bullet("x", 3) == "   - x"
    assert md.task("@me") == "- [ ] `@me`"
    assert md.numbered(2, md.bold("fix")) == "2. **fix**"
    assert md.quote(md.italic("note")) == "> _note_"
    assert md.details("<b> & 3", ["- x"]) == [
        "<details>",
        "<summary>&lt;b&gt; &amp; 3</summary>",
        "",
        "`-` x",
        "",
        "</details>",
    ]


def test_a_code_block_outruns_every_backtick_run_in_it() -> None:
    assert md.code_block(["echo ok"], "sh") == ["```sh", "echo ok", "```"]
    assert md.code_block(["a ```` b\nc\x1b"]) == ["`````", "a ```` b", "c\ufffd", "`````"]


def test_links_point_only_at_checked_https_urls() -> None:
    url = md.github_url("o/r", "blob", "v1 (x)", "a b.md")
    assert url == "https://github.com/o/r/blob/v1%20%28x%29/a%20b.md"
    assert md.github_url("not a repo") is None
    assert md.https_url("http://e.example/") is None
    assert md.https_url("https://user@e.example/") is None
    assert md.https_url("https://e.example:8443/") is None
    assert md.https_url("https://e.example/a", ["other.example"]) is None
    assert md.https_url("https://e.example/a(b)") == "https://e.example/a%28b%29"
    assert md.link("spec", md.https_url("https://e.example/s")) == "[spec](https://e.example/s)"
    assert md.link("spec", None) == "spec"


def test_leading_lines_cut_between_lines_and_close_an_open_fence() -> None:
    lines = [own("aaaa"), own("```sh"), own("bb"), own("```"), own("c")]
    # "aaaa\n" is 5, "```sh\n" 6, "bb\n" 3, and a closing "```\n" needs 4 more.
    assert md.leading_lines(lines, 18) == ["aaaa", "```sh", "bb", "```"]
    assert md.leading_lines(lines, 17) == ["aaaa", "```sh", "```"]
    assert md.leading_lines(lines, 4) == []


def test_a_document_neutralises_plain_lines_and_ends_with_one_newline() -> None:
    assert md.document([own("# T"), BLANK, "# not a heading", BLANK, BLANK]) == (
        "# T\n\n`#` not a heading\n"
    )
