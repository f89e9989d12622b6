"""HTML and SVG are built in the render kit (`tiercheck/render/`) alone: the code says so.

Every module under `tiercheck/` but the kit is read, and each string literal (an f-string's
literal parts read together, a placeholder standing for what it formats) that is not a
docstring is searched for markup: a start tag of an HTML or SVG element (`<td>`, `<a href`,
`<svg `; the shapes `<line `, `<rect `… only with an attribute, so a placeholder like
`runs/<line>/` in a path is none), an end tag (`</span>`), a tag whose name is formatted in
(`f"<{tag}>"`), a doctype, or a character entity (`&lt;`, `&#39;`), which is escaping by hand.

Markdown is not HTML, but GitHub's Markdown takes a few HTML elements of its own (a `<br>` in a
table cell). `MARKDOWN` lists, per module that writes Markdown outside the kit, exactly which of
those it may write; anything else in it is flagged as everywhere, and an entry that no longer
matches anything fails too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.code_rules import parse, walk

PACKAGE = Path(__file__).resolve().parents[3] / "tiercheck"
KIT = PACKAGE / "render"


def _words(*lines: str) -> list[str]:
    return [word for line in lines for word in line.split()]


_ELEMENTS = _words(
    "a abbr article aside b blockquote body br caption code col colgroup dd del details dfn div",
    "dl dt em figcaption figure footer h1 h2 h3 h4 h5 h6 head header hr html i iframe img input",
    "ins kbd label legend li link main mark meta nav ol optgroup option p pre q s samp script",
    "section select small span strong style sub summary sup table tbody td template textarea",
    "tfoot th thead time title tr u ul var video",
    "svg g text tspan defs desc symbol marker pattern mask clipPath linearGradient",
    "radialGradient filter foreignObject",
)
#: SVG shapes: always drawn with attributes, so only `<line ` is a tag, `<line>` a placeholder.
_SHAPES = _words("line rect circle ellipse path polyline polygon stop use image")

# `(?<!\?P)`: a regular expression's named group, `(?P<pre>…)`, is no tag.
_START = re.compile(rf"(?<!\?P)<({'|'.join(_ELEMENTS)})(?=[\s/>])", re.IGNORECASE)
_SHAPE = re.compile(rf"(?<!\?P)<({'|'.join(_SHAPES)})(?=\s)", re.IGNORECASE)
_END = re.compile(rf"</({'|'.join(_ELEMENTS + _SHAPES)})\s*>", re.IGNORECASE)
_FORMATTED_TAG = re.compile("</?\x00")
_DOCTYPE = re.compile(r"<!doctype", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|nbsp);|&#[0-9]+;|&#x[0-9a-f]+;", re.IGNORECASE)
_RULES = (_START, _SHAPE, _END, _FORMATTED_TAG, _DOCTYPE, _ENTITY)

#: Module → the markup it may write: Markdown's own HTML, in Markdown.
MARKDOWN: dict[str, frozenset[str]] = {
    # A line break inside a GFM table cell, which has no Markdown of its own for one.
    "tiercheck.notify.texts": frozenset({"<br"}),
}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (of the module, a class or a function)."""
    found = set()
    for node in walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _literal(node: ast.JoinedStr) -> str:
    """An f-string's literal parts, a NUL for each placeholder."""
    return "".join(
        part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else "\x00"
        for part in node.values
    )


def _strings(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal that is not a docstring."""
    tree = parse(source)
    skip = _docstrings(tree)
    # A format spec (`{name:<{width}}`) is part of its placeholder, not text.
    specs = {
        id(node.format_spec)
        for node in walk(tree)
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None
    }
    for node in walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)
            if id(node) not in specs:
                yield node.lineno, _literal(node)
    for node in walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.lineno, node.value


def markup_outside_kit(source: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Each piece of markup `source` builds, as "'<td' (line 3)", in the order written, but
    those in `allowed`."""
    found = []
    for line, text in _strings(source):
        for rule in _RULES:
            found += [
                (line, m.start(), m.group(0).replace("\x00", "{…}")) for m in rule.finditer(text)
            ]
    pieces = [
        f"{piece!r} (line {line})" for line, _, piece in sorted(found) if piece not in allowed
    ]
    return list(dict.fromkeys(pieces))


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> list[tuple[str, str]]:
    return [
        (_module(path), path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
        if KIT not in path.parents and "__pycache__" not in path.parts
    ]


def test_no_module_outside_the_kit_builds_html_or_svg() -> None:
    found = {
        name: markup_outside_kit(source, MARKDOWN.get(name, frozenset()))
        for name, source in _modules()
    }
    assert {name: pieces for name, pieces in found.items() if pieces} == {}


def test_every_markdown_allowance_is_still_used() -> None:
    sources = dict(_modules())
    unused = {
        name: sorted(allowed - {p.split("'")[1] for p in markup_outside_kit(sources[name])})
        for name, allowed in MARKDOWN.items()
        if name in sources
    }
    stale = {name: pieces for name, pieces in unused.items() if pieces}
    stale.update({name: ["(no such module)"] for name in MARKDOWN if name not in sources})
    assert stale == {}, "remove what a module no longer writes from MARKDOWN"


def test_the_renderers_are_read() -> None:
    names = {name for name, _ in _modules()}
    assert {"tiercheck.scorecard.render.html", "tiercheck.dashboard.html"} <= names
    assert not any(name.startswith("tiercheck.render") for name in names)


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        ('def cell(x):\n    return f"<td>{x}</td>"\n', ["'<td' (line 2)", "'</td>' (line 2)"]),
        ("ROW = '<tr class=\"r\">'\n", ["'<tr' (line 1)"]),
        (
            "def a(u, t):\n    return f'<a href=\"{u}\">{t}</a>'\n",
            ["'<a' (line 2)", "'</a>' (line 2)"],
        ),
        ('CHART = "<svg xmlns=\\"x\\">"\n', ["'<svg' (line 1)"]),
        ("DOT = '<circle cx=\"1\"/>'\n", ["'<circle' (line 1)"]),
        ('def open_tag(tag):\n    return f"<{tag}>"\n', ["'<{…}' (line 2)"]),
        ("def e(s):\n    return s.replace('<', '&lt;')\n", ["'&lt;' (line 2)"]),
        ('PAGE = "<!DOCTYPE html>"\n', ["'<!DOCTYPE' (line 1)"]),
        # Not markup: docstrings, a placeholder in a path, a shape's name without attributes,
        # XML read by a regex that names no HTML or SVG element, a comparison.
        ('"""Writes `<td>` cells."""\n', []),
        ('LAYOUT = "runs/<line>/<stamp>-<key>.json"\n', []),
        ("HEAD = r'<groupId>\\s*([^<]+)</groupId>'\n", []),
        ("def f(a, b):\n    return a < b\n", []),
        ("SEMVER = r'(?P<pre>[0-9A-Za-z.-]+)'\n", []),
        ('def row(n, w):\n    return f"{n:<{w}}|"\n', []),
    ],
)
def test_planted_markup_is_found(planted: str, found: list[str]) -> None:
    assert markup_outside_kit(planted) == found


def test_an_allowance_lets_only_what_it_names() -> None:
    planted = 'LINES = ["<details>", "<summary>x</summary>", "<div>"]\n'
    allowed = frozenset({"<details", "<summary", "</summary>"})
    assert markup_outside_kit(planted, allowed) == ["'<div' (line 1)"]
