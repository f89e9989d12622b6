"""The Atom feed of the kit (RFC 4287): entries in, one XML document out.

Every text is an Atom text construct of `type="text"` written by ElementTree, which escapes
`& < > "` itself, after dropping what XML 1.0 cannot hold and showing what hides or reorders
text as `[U+202E]` (`xml_text`): nothing given here can become markup in a reader, nor reverse
a title. Links are given as strings already checked by the caller (paths
inside the site, or the site's own base URL joined to one).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

from tiercheck.render.xml import xml_text

__all__ = ["ATOM_NS", "AtomEntry", "atom_feed"]

ATOM_NS = "http://www.w3.org/2005/Atom"


@dataclass(frozen=True)
class AtomEntry:
    """One `atom:entry`: its IRI id, title, RFC 3339 `updated`, plain-text content and link
    (none: the content stands alone, as RFC 4287 allows)."""

    id: str
    title: str
    updated: str
    link: str | None
    content: str


def _text(parent: ET.Element, name: str, text: str, **attrs: str) -> ET.Element:
    node = ET.SubElement(parent, name, attrs)
    node.text = xml_text(text)
    return node


def atom_feed(
    *,
    feed_id: str,
    title: str,
    updated: str,
    author: str,
    alternate: str,
    entries: Sequence[AtomEntry],
    self_link: str | None = None,
) -> str:
    """The feed document (UTF-8 XML with its declaration), entries in the order given."""
    feed = ET.Element("feed", {"xmlns": ATOM_NS})
    _text(feed, "id", feed_id)
    _text(feed, "title", title, type="text")
    _text(feed, "updated", updated)
    _text(ET.SubElement(feed, "author"), "name", author)
    ET.SubElement(feed, "link", {"rel": "alternate", "type": "text/html", "href": alternate})
    if self_link is not None:
        ET.SubElement(
            feed, "link", {"rel": "self", "type": "application/atom+xml", "href": self_link}
        )
    _text(feed, "generator", "tiercheck")
    for entry in entries:
        node = ET.SubElement(feed, "entry")
        _text(node, "id", entry.id)
        _text(node, "title", entry.title, type="text")
        _text(node, "updated", entry.updated)
        if entry.link is not None:
            attrs = {"rel": "alternate", "type": "text/html", "href": xml_text(entry.link)}
            ET.SubElement(node, "link", attrs)
        _text(node, "content", entry.content, type="text")
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, "unicode") + "\n"
