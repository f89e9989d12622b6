"""Elements, attributes and links, shared by the HTML and the SVG kit.

`element` is the one builder of a tag: its name and attribute names must be plain names, never
an event handler (`on…`) nor an element that runs or fetches (`script`, `iframe`, …); every
attribute value and every child that is a plain `str` goes through the markup class's own
escaping; a link attribute (`href`, `src`, …) takes only an `Href`, which cannot hold anything
but one of our own URLs.

`github_page` is the one gate for a link to an issue, a pull request or a release on GitHub
that a document names (a dispute's issue, a triage entry's issue, the release a commit
carries): only an https URL of exactly that shape passes, so text that merely looks like one
(from the SDK, or from a document read back) stays text in every format.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from markupsafe import Markup

from tiercheck.plaintext import clean, page_text, visible

__all__ = [
    "GITHUB_PAGE_KINDS",
    "ISSUE_PAGES",
    "RELEASE_PAGES",
    "Attr",
    "Child",
    "GithubPage",
    "GithubPageKind",
    "Href",
    "element",
    "fragment",
    "github_page",
    "joined",
    "site",
    "web",
]

M = TypeVar("M", bound=Markup)

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_ATTR = re.compile(r"[A-Za-z][A-Za-z0-9:-]*")
#: Elements a report never needs, each of which runs, fetches or submits something.
_REFUSED = frozenset({"script", "iframe", "object", "embed", "base", "form", "foreignobject"})
_LINKS = frozenset({"href", "src", "xlink:href", "action", "formaction", "srcset", "poster"})

_SITE = re.compile(r"(\.\./)*[A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*")
_ANCHOR = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Href:
    """A link target that is one of ours: an http(s) address, a path inside the site (relative,
    no scheme, no `..` but leading ones, each segment a slug) with an optional anchor, or an
    anchor on the page; none holds a character that hides or reorders text
    (`plaintext.HIDDEN`). Anything else cannot be made (ValueError)."""

    url: str

    def __post_init__(self) -> None:
        if not _ours(self.url):
            raise ValueError(f"not a link tiercheck makes: {self.url!r}")


#: What an attribute may be given: text (escaped), a number, True (a bare attribute), None or
#: False (left out), or a link.
Attr = str | int | bool | Href | None
#: What an element may hold: markup as it is, anything else as escaped text (None as nothing).
Child = Markup | str | int | None


def _ours(url: str) -> bool:
    if visible(url) != url:
        return False  # a character that hides or reorders text: shown as text, never linked
    if url.startswith(("https://", "http://")):
        return True
    path, _, anchor = url.partition("#")
    if anchor and not _ANCHOR.fullmatch(anchor):
        return False
    return (not path and bool(anchor)) or bool(_SITE.fullmatch(path))


def web(url: str | None) -> Href | None:
    """`url` as a link when it is an http(s) address, else None (the text stays unlinked): one
    that holds a character that hides or reorders text is none."""
    if url and url.startswith(("https://", "http://")) and _ours(url):
        return Href(url)
    return None


def site(path: str) -> Href | None:
    """A relative path inside the published site (`lines/x.html`, `../index.html#top`), or None
    when `path` is not one."""
    return Href(path) if not path.startswith("#") and _ours(path) and ":" not in path else None


def fragment(anchor: str) -> Href | None:
    """`#anchor` on the same page, or None when `anchor` is not a plain name."""
    return Href(f"#{anchor}") if _ANCHOR.fullmatch(anchor) else None


GithubPageKind = Literal["issue", "pull request", "release"]
#: Every kind of page `github_page` accepts; an issue or pull request; a release.
GITHUB_PAGE_KINDS: tuple[GithubPageKind, ...] = ("issue", "pull request", "release")
ISSUE_PAGES: tuple[GithubPageKind, ...] = ("issue", "pull request")
RELEASE_PAGES: tuple[GithubPageKind, ...] = ("release",)

#: An owner and a repository name as GitHub allows them (a name is never `.` or `..`).
_GITHUB_REPO = r"[A-Za-z0-9][A-Za-z0-9-]{0,38}/(?!\.\.?/)[A-Za-z0-9._-]{1,100}"
#: A release tag of plain segments (`v1.2.0`, `mcp/v1.2.0`, `@scope/pkg@1.2.0`): no segment
#: starts with a dot, and nothing a URL would read as more than a path is allowed.
_TAG_SEGMENT = r"[A-Za-z0-9@_+-][A-Za-z0-9@._+-]{0,199}"
_GITHUB_PAGE = re.compile(
    rf"https://github\.com/(?P<repo>{_GITHUB_REPO})/"
    rf"(?:(?P<list>issues|pull)/(?P<number>[1-9][0-9]{{0,9}})"
    rf"|releases/tag/(?P<tag>{_TAG_SEGMENT}(?:/{_TAG_SEGMENT}){{0,9}}))"
)


@dataclass(frozen=True)
class GithubPage:
    """An issue, pull request or release page on github.com that `github_page` accepted."""

    url: str
    #: OWNER/NAME, as the URL spells it.
    repo: str
    kind: GithubPageKind
    #: The issue or pull request number, or the release's tag.
    ref: str

    @property
    def label(self) -> str:
        """How GitHub names it: `OWNER/NAME#N` for an issue or pull request, the tag for a
        release."""
        return self.ref if self.kind == "release" else f"{self.repo}#{self.ref}"


def github_page(
    url: object,
    *,
    repo: str | None = None,
    kinds: Collection[GithubPageKind] = GITHUB_PAGE_KINDS,
) -> GithubPage | None:
    """`url` when it is exactly `https://github.com/OWNER/NAME/issues/N`, `…/pull/N` or
    `…/releases/tag/TAG` (a page of one of `kinds`; of the repository `repo` when given), with
    nothing before or after it: no query, fragment, credentials, port, other host or escape.
    None for anything else, which every format then shows as plain text."""
    if not isinstance(url, str):
        return None
    found = _GITHUB_PAGE.fullmatch(url)
    if found is None:
        return None
    if repo is not None and found["repo"].lower() != repo.lower():
        return None
    kind: GithubPageKind
    if found["tag"] is not None:
        kind, ref = "release", found["tag"]
    else:
        kind, ref = ("issue" if found["list"] == "issues" else "pull request"), found["number"]
    if kind not in kinds:
        return None
    return GithubPage(url=url, repo=found["repo"], kind=kind, ref=ref)


@functools.cache  # the keywords the package's code writes: a few dozen
def _attr_name(key: str) -> tuple[str, bool]:
    """A keyword as an attribute name (`class_` → `class`, `aria_label` → `aria-label`), and
    whether that attribute is a link (which takes only an `Href`)."""
    name = key.rstrip("_").replace("_", "-")
    if not _ATTR.fullmatch(name) or name.lower().startswith("on"):
        raise ValueError(f"not an attribute tiercheck writes: {key!r}")
    return name, name.lower() in _LINKS


def _attributes(cls: type[M], attrs: Mapping[str, Attr]) -> str:
    if not attrs:
        return ""
    out = []
    for key, value in attrs.items():
        name, is_link = _attr_name(key)
        if is_link and not isinstance(value, Href | None):
            raise TypeError(f"{name} takes an Href, not {type(value).__name__}")
        if value is None or value is False:
            continue
        if value is True:
            out.append(f" {name}")
            continue
        if isinstance(value, Href):
            # A link is never cut: it holds nothing that hides or reorders text (`Href`).
            out.append(f' {name}="{html.escape(clean(value.url), quote=True)}"')
            continue
        # A long text is cut as a page's text is (`plaintext.page_text`), its mark as text.
        text: object = value
        if isinstance(value, str):
            text = _attr_text(value) if len(value) <= _REMEMBERED else "".join(page_text(value))
        out.append(f' {name}="{cls.escape(text)}"')
    return "".join(out)


#: The longest attribute text remembered (a class, a title, an id; of the 4,096 most recent).
_REMEMBERED = 256


@functools.lru_cache(maxsize=4096)
def _attr_text(value: str) -> str:
    return "".join(page_text(value))


@functools.cache  # the element names the package's code writes: a few dozen
def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name) or name.lower() in _REFUSED:
        raise ValueError(f"not an element tiercheck writes: {name!r}")


def element(
    cls: type[M],
    name: str,
    children: Sequence[Child],
    attrs: Mapping[str, Attr],
    *,
    end: Literal["tag", "void", "self"],
) -> M:
    """`<name attrs>children</name>` as markup of `cls`; `end` "void" writes no end tag (an
    HTML `br`), "self" closes a childless element in its start tag (SVG's `<rect …/>`)."""
    _check_name(name)
    start = f"<{name}{_attributes(cls, attrs)}"
    if end == "void" or (end == "self" and not children):
        if children:
            raise ValueError(f"<{name}> holds nothing")
        return str.__new__(cls, start + ("/>" if end == "self" else ">"))
    inner = "".join(_escaped(cls, children))
    return str.__new__(cls, f"{start}>{inner}</{name}>")


def joined(cls: type[M], parts: Iterable[Child], sep: str = "") -> M:
    """`parts` one after another as markup of `cls`, the text `sep` between (`_escaped`)."""
    return str.__new__(cls, str.join(cls.escape(sep), _escaped(cls, parts)))


def _escaped(cls: type[M], parts: Iterable[Child]) -> Iterator[str]:
    """Each part as markup of `cls`: markup as it is (its `__html__` is itself), without
    wrapping it again; a plain value escaped by `cls.escape`."""
    return (p if isinstance(p, Markup) else cls.escape(p) for p in parts)
