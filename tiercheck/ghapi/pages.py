"""Paging through a GitHub listing: its pages followed by `Link rel="next"`, up to a bound."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

__all__ = ["PER_PAGE", "Fetch", "Page", "next_link", "pages"]

#: Items asked for per page of a listing (GitHub's maximum).
PER_PAGE = 100

#: GET one page: `(url, params)` → (JSON body, `Link` header).
Fetch = Callable[[str, dict[str, Any] | None], tuple[Any, object]]


class Page(NamedTuple):
    """One page of a listing: its JSON body, and whether GitHub links a next one."""

    body: Any
    more: bool


def next_link(link: object) -> str | None:
    """The `rel="next"` URL of a `Link` header (None for no header, or one of another type)."""
    if not link or not isinstance(link, str):
        return None
    for part in link.split(","):
        url, _, params = part.partition(";")
        if 'rel="next"' in params:
            return url.strip().strip("<>")
    return None


def pages(fetch: Fetch, url: str, params: dict[str, Any], max_pages: int) -> Iterator[Page]:
    """Each page of a paginated listing, up to `max_pages` pages: the last one's `more` says
    whether pages were left."""
    next_url: str | None = url
    next_params: dict[str, Any] | None = params
    for _ in range(max_pages):
        if next_url is None:
            return
        body, link = fetch(next_url, next_params)
        # The next URL already carries the query string.
        next_url, next_params = next_link(link), None
        yield Page(body, next_url is not None)
