"""The SVG kit: the badge and the trend charts are composed of `Svg` values made here.

`Svg` is markup (a markupsafe `Markup`) escaped for XML: a plain value meeting it loses its
control characters, shows the characters that hide or reorder text and the noncharacters as
`[U+202E]` (`plaintext.visible`; XML 1.0 cannot hold U+FFFE and U+FFFF), one longer than a page
shows is cut (`plaintext.page_text`), and `& < > " '` become entities, so a label is safe in
element text and in an attribute (`aria-label`) alike. An SVG element with no children closes
itself (`<rect …/>`); none may carry a link. An `Svg` placed in an `Html` page goes in as it
is (inline SVG).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Self

from markupsafe import Markup

from tiercheck.plaintext import page_text
from tiercheck.render.element import Child, element, joined

__all__ = ["XMLNS", "Svg", "el", "join", "svg"]

XMLNS = "http://www.w3.org/2000/svg"

#: What an SVG attribute may be given: text or a number (escaped), or None (left out).
SvgAttr = str | int | None


class Svg(Markup):
    """SVG markup. A plain value meeting it is escaped for XML text and attributes alike."""

    __slots__ = ()

    @classmethod
    def escape(cls, s: object, /) -> Self:
        """`s` as it is when it is markup already, else as escaped text (None as nothing)."""
        if type(s) is cls:
            return s
        if hasattr(s, "__html__"):
            return cls(s.__html__())
        # One longer than a page shows is cut, as on a page (`plaintext.page_text`).
        return cls(html.escape("".join(page_text(s)), quote=True))


def el(name: str, *children: Child, **attrs: SvgAttr) -> Svg:
    """`<name attrs>children</name>`, or `<name attrs/>` with no children; keywords are
    attributes (`stroke_width` is `stroke-width`; `viewBox` stays as written), in order."""
    if not all(isinstance(v, str | int | None) for v in attrs.values()):
        raise TypeError("an SVG attribute is text or a number, never a link")
    return element(Svg, name, children, attrs, end="self")


def join(parts: Iterable[Child], sep: str = "") -> Svg:
    """`parts` one after another with the text `sep` between (plain parts escaped)."""
    return joined(Svg, parts, sep)


def svg(*children: Child, **attrs: SvgAttr) -> Svg:
    """The root `<svg xmlns=…>` element, its other attributes after the namespace."""
    return el("svg", *children, xmlns=XMLNS, **attrs)
