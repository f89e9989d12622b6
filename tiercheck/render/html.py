"""The HTML kit: every tiercheck page is composed of `Html` values made here.

`Html` is markup (a markupsafe `Markup`): joining, adding or formatting it escapes any plain
`str` it meets, after dropping control characters (`tiercheck.plaintext.clean`) and showing the
characters that hide or reorder text as `[U+202E]` (`tiercheck.plaintext.visible`), so text from
the SDK under test can only ever be text, read in its own order. Elements come from `el`
(with an end tag) and `void` (`br`, `input`); links from `a` and `link`, which take only our
own URLs (`Href`), and from `github_link`, which links an issue, pull request or release only
through the one check of its address (`element.github_page`); the shared pieces are the page
shell (`page`: inline styles, no script, the Content-Security-Policy that lets nothing be
fetched; its styles fit any screen from 360 px up), the verdict chip (`chip`), the table
(`table`, `td`, `th`, `tr`) and the region a wide table scrolls in (`scroll_region`).
"""

from __future__ import annotations

import functools
import html
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Self

from markupsafe import Markup

from tiercheck.plaintext import PAGE_CHARS, page_text
from tiercheck.render.element import (
    GITHUB_PAGE_KINDS,
    Attr,
    Child,
    GithubPageKind,
    Href,
    element,
    github_page,
    joined,
    web,
)

__all__ = [
    "Cell",
    "Css",
    "Html",
    "Row",
    "a",
    "chip",
    "el",
    "github_link",
    "join",
    "link",
    "page",
    "scroll_region",
    "table",
    "td",
    "th",
    "tr",
    "void",
]


class Html(Markup):
    """HTML markup. A plain value meeting it is escaped as `html.escape(visible(clean(value)))`
    does: control characters dropped, bidirectional controls, zero-width characters and
    noncharacters shown as `[U+202E]`, `& < > " '` written as entities; one longer than
    `PAGE_CHARS` is cut (`plaintext.page_text`), its mark in a `<span class="cut">`, which
    `page` links to the document holding the whole text. (An attribute's value is cut the
    same, its mark as text: `element`.)"""

    __slots__ = ()

    @classmethod
    def escape(cls, s: object, /) -> Self:
        """`s` as it is when it is markup already, else as escaped text (None as nothing)."""
        if type(s) is cls:
            return s
        if hasattr(s, "__html__"):
            return cls(s.__html__())
        # A page repeats its short texts (a verdict, a scenario's name, a class) hundreds of
        # times: each is escaped once and remembered; a long one every time, never kept.
        text = _short_text(s) if type(s) is str and len(s) <= _REMEMBERED else _text(s)
        return str.__new__(cls, text)


#: What starts the mark of a text `Html.escape` cut (no text can hold it: `<` is escaped).
_CUT_START = '<span class="cut">'
#: The longest text `Html.escape` remembers (of the 8,192 it keeps, the most recent).
_REMEMBERED = 256


def _text(value: object) -> str:
    """`value` as escaped page text: what `Html.escape` makes of a plain value."""
    shown, mark = page_text(value)
    if not mark:
        return html.escape(shown, quote=True)
    return f"{html.escape(shown, quote=True)}{_CUT_START}{html.escape(mark)}</span>"


_short_text = functools.lru_cache(maxsize=8192)(_text)


class Cell(Html):
    """A table cell made by `td` or `th`, which `table` takes as it is."""

    __slots__ = ()


class Row(Html):
    """A table row made by `tr`, which `table` takes as it is."""

    __slots__ = ()


@dataclass(frozen=True)
class Css:
    """A style sheet of ours, inlined by `page`; it cannot hold a `<` (and so no `</style>`)."""

    text: str

    def __post_init__(self) -> None:
        if "<" in self.text:
            raise ValueError("a style sheet holds no '<'")


def el(name: str, *children: Child, **attrs: Attr) -> Html:
    """`<name attrs>children</name>`: keywords are attributes (`class_` is `class`,
    `aria_label` is `aria-label`), in the order given; None and False leave one out."""
    return element(Html, name, children, attrs, end="tag")


def void(name: str, **attrs: Attr) -> Html:
    """An element with no content and no end tag: `<br>`, `<input type="checkbox" disabled>`."""
    return element(Html, name, (), attrs, end="void")


def join(parts: Iterable[Child], sep: str = "") -> Html:
    """`parts` one after another with the text `sep` between (plain parts escaped)."""
    return joined(Html, parts, sep)


def a(text: Child, href: Href | None) -> Html:
    """`text` linked to `href`; without one (a URL that was not ours), the text alone."""
    return el("a", text, href=href) if href is not None else Html.escape(text)


def link(text: str, url: str | None) -> Html:
    """`text`, linked to `url` when it is an http(s) address."""
    return a(text, web(url))


def github_link(
    text: Child,
    url: object,
    *,
    repo: str | None = None,
    kinds: Collection[GithubPageKind] = GITHUB_PAGE_KINDS,
) -> Html:
    """`text` (None: the page's own name, `OWNER/NAME#N` or the tag) linked to `url` when
    `element.github_page` accepts it (an issue, pull request or release page of one of `kinds`,
    of `repo` when given); otherwise plain escaped text: `text`, or the URL as written."""
    page = github_page(url, repo=repo, kinds=kinds)
    if page is None:
        return Html.escape(url if text is None else text)
    return el("a", page.label if text is None else text, href=Href(page.url))


_CHIP_CLASS = {
    "pass": "pass",
    "fail": "fail",
    "warn": "review",
    "skip": "skip",
    "partial": "review",
    "needs review": "review",
    "inconclusive": "review",
    "unmeasured": "review",
    "partially-measured": "review",
    "skipped": "skip",
    "n/a": "skip",
}


#: A verdict's symbol, shown before its words when a chip asks for it (never colour alone).
_CHIP_SYMBOL = {"pass": "✓", "fail": "✗", "review": "!", "skip": "–"}
#: Verdicts whose symbol is not their colour's: no verdict at all, and "review" (shown in the
#: colour of information: at risk, harness changed).
_CHIP_SYMBOL_OF = {
    "unmeasured": "?",
    "inconclusive": "?",
    "partially-measured": "?",
    "review": "!",
}


def chip(verdict: str, text: str | None = None, *, symbol: bool = False) -> Html:
    """A coloured verdict label: `text` (else the verdict) in the verdict's colour; with
    `symbol`, the verdict's symbol before the words (✓ ✗ ! ? –; hidden from screen readers,
    which read the words), so the label never says it by colour alone."""
    cls = _CHIP_CLASS.get(verdict.lower(), "info")
    mark = _CHIP_SYMBOL_OF.get(verdict.lower()) or _CHIP_SYMBOL.get(cls)
    if not symbol or mark is None:
        return el("span", text or verdict, class_=f"chip {cls}")
    sym = el("span", mark, class_="sym", aria_hidden="true")
    return el("span", sym, " ", text or verdict, class_=f"chip {cls}")


def scroll_region(content: Child, label: str, **attrs: Attr) -> Html:
    """`content` (a wide table) in a box of its own that scrolls sideways when the screen is
    narrower than it, so the page itself never does: a region named `label` that the keyboard
    can reach (`tabindex="0"`) to scroll it."""
    return el(
        "div", content, class_="scroll", tabindex="0", role="region", aria_label=label, **attrs
    )


def td(*children: Child, **attrs: Attr) -> Cell:
    """A data cell with attributes of its own (`rowspan`, `class_`, `title`, …)."""
    return element(Cell, "td", children, attrs, end="tag")


def th(*children: Child, **attrs: Attr) -> Cell:
    """A header cell with attributes of its own."""
    return element(Cell, "th", children, attrs, end="tag")


def tr(*cells: Child, **attrs: Attr) -> Row:
    """A row with attributes of its own (`id`); its cells made by `td` and `th`."""
    return element(Row, "tr", cells, attrs, end="tag")


def table(
    header: Sequence[str | Cell],
    rows: Iterable[Row | Sequence[Child]],
    numeric: Sequence[int] = (),
    *,
    body_id: str | None = None,
    **attrs: Attr,
) -> Html:
    """A table: a text of `header` becomes a `th`; a row made by `tr` is taken whole, any other
    row is its cells, each a `td` (right-aligned in the `numeric` columns) unless made by `td`.
    `body_id` names the `tbody`; keywords are the table's attributes."""
    head = tr(*(h if isinstance(h, Cell) else th(h) for h in header))
    body = [
        row
        if isinstance(row, Row)
        else tr(
            *(
                c if isinstance(c, Cell) else td(c, class_="num" if i in numeric else None)
                for i, c in enumerate(row)
            )
        )
        for row in rows
    ]
    return el("table", el("thead", head), el("tbody", *body, id=body_id), **attrs)


#: The page's shared styles; a renderer adds its own after them.
_CSS = """
:root { color-scheme: light; --ink:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#f6f8fa;
  --pass:#1a7f37; --fail:#cf222e; --warn:#9a6700; --info:#0969da; --skip:#6e7781; }
* { box-sizing: border-box; }
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
  color: var(--ink); margin: 0; background: #fff; }
header { background: var(--bg); border-bottom: 1px solid var(--line); padding: 16px 24px; }
header h1 { font-size: 20px; margin: 0 0 6px; display: flex; gap: 12px; align-items: center; }
header .meta { color: var(--muted); font-size: 13px; }
main { padding: 8px 24px 32px; max-width: 1200px; }
h2 { font-size: 16px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 14px; margin: 18px 0 6px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.chip { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  font-weight: 600; color: #fff; white-space: nowrap; }
.chip.pass { background: var(--pass); } .chip.fail { background: var(--fail); }
.chip.review { background: var(--warn); } .chip.info { background: var(--info); }
.chip.skip { background: var(--skip); }
.msg { color: var(--muted); font-size: 12px; }
ul.blockers li { margin: 2px 0; }
.note { color: var(--muted); border-left: 3px solid var(--line); padding-left: 8px; }
main, header { overflow-wrap: break-word; }
header h1 { flex-wrap: wrap; } header h1 > span { min-width: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; position: relative; max-width: 100%; margin: 6px 0 12px; }
.scroll > table { margin: 0; }
.scroll:focus-visible { outline: 2px solid var(--info); outline-offset: 2px; }
@media (max-width: 640px) {
  header { padding: 12px; } main { padding: 4px 12px 24px; }
  header h1 { font-size: 17px; }
}
"""

# Nothing may be fetched at view time: no scripts, styles, images or fonts from elsewhere.
_SHELL = Html(
    "<!DOCTYPE html>\n"
    '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
    "style-src 'unsafe-inline'; img-src data:\">\n"
    "<title>{title}</title>\n{head}<style>{css}</style>\n</head>\n<body>\n"
    '<header><h1>{heading}</h1><div class="meta">{meta}</div></header>\n'
    "<main>\n{body}\n</main>\n</body>\n</html>\n"
)


def page(
    title: str,
    heading: Child,
    meta: Child,
    body: Child,
    *,
    css: Css | None = None,
    head: Html | None = None,
    data: Href | None = None,
) -> Html:
    """A whole document: the shared styles then `css`, inline; no script, no external
    reference. `title` is text; `heading`, `meta` and `body` are markup or text; `head` is
    more of the head (a `link rel="alternate"`, made by `void`), each element on its line.
    `data` is the document the page is made from (its JSON): when the page cut a text
    (`Html.escape`), a note before the body says so and links there, where each is whole."""
    styles = Html(_CSS + (css.text if css else ""))
    more = Html(head + Html("\n")) if head else Html()
    parts = [Html.escape(p) for p in (heading, meta, body)]
    if data is not None and any(_CUT_START in p for p in parts):
        note = el(
            "p",
            f"A text longer than {PAGE_CHARS:,} characters is cut on this page where it says "
            "[cut: …], with its length and the start of its SHA-256; the texts are whole in ",
            el("a", data.url, href=data),
            ".",
            class_="note",
        )
        parts[2] = Html(note + Html("\n") + parts[2])
    heading, meta, body = parts
    return _SHELL.format(
        # The title is text of its own: a cut one keeps its mark as text.
        title="".join(page_text(title)),
        head=more,
        css=styles,
        heading=heading,
        meta=meta,
        body=body,
    )
