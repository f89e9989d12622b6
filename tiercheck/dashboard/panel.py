"""A line's badge panel (pure): the badge, its stable URLs, and the text to paste for it.

The badge's paths never move (`badges/<line>.svg`, `badges/<line>.json`: see
`tiercheck.publish.site`). With the site's base URL (`tier-check publish --base-url`) the panel
shows absolute URLs, and the shields.io endpoint URL built on the JSON document; without it, it
shows them relative to the site's root and says so. Every snippet is shown as text in a
`pre`/`code` block a reader selects and copies: no script.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from tiercheck.dashboard.model import LineSummary
from tiercheck.errors import UsageError
from tiercheck.render.badge import badge_snippets
from tiercheck.render.element import Child, site
from tiercheck.render.html import Html, el, join, link

__all__ = ["badge_panel", "check_base_url"]

#: An https address of a site's root: a host, then path segments of plain characters, ending
#: in `/` (no query, fragment, credentials, space, quote, bracket or parenthesis).
_BASE_URL = re.compile(r"https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/([A-Za-z0-9._~-]+/)*")


def check_base_url(text: str) -> str:
    """`--base-url`: the site's https address, with a `/` added at its end when missing;
    UsageError (one line) for anything else."""
    url = text if text.endswith("/") else f"{text}/"
    if not _BASE_URL.fullmatch(url):
        msg = (
            f"publish: --base-url {text!r:.80}: expected the site's https address, e.g. "
            "https://OWNER.github.io/REPO/ (no query or fragment)"
        )
        raise UsageError(msg)
    return url


def badge_panel(summary: LineSummary, base_url: str | None) -> Html:
    """The panel of `summary`'s line, for its page (`lines/<line>.html`)."""
    paths = (summary.links.badge_svg, summary.links.badge_json, summary.links.page)
    if any(site(path) is None for path in paths):
        # Not paths the site makes (a document from elsewhere): nothing to paste.
        return join((el("h2", "Badge", id="badge"), el("p", "No badge URL.", id="badge-urls")))
    root = base_url or ""
    image = f"{root}{summary.links.badge_svg}"
    endpoint = f"{root}{summary.links.badge_json}"
    target = f"{root}{summary.links.page}"
    urls: list[tuple[str, str]] = [("SVG", image), ("shields endpoint JSON", endpoint)]
    if base_url:
        urls.append(("shields.io", f"https://img.shields.io/endpoint?url={quote(endpoint, '')}"))
    where: Child = (
        f"Absolute, under the site's address {base_url}."
        if base_url
        else "These URLs are relative to the site's root: put the site's address before them "
        "(tier-check publish --base-url shows them whole)."
    )
    items = [
        el("li", f"{name}: ", link(url, url) if base_url else el("code", url)) for name, url in urls
    ]
    blocks = [
        join(
            (
                el("h3", name, id=f"badge-{kind}"),
                el("pre", el("code", text), class_="snippet"),
            )
        )
        for (name, text), kind in zip(
            badge_snippets(image, target).items(), ("markdown", "html", "rst"), strict=True
        )
    ]
    return join(
        (
            el("h2", "Badge", id="badge"),
            el(
                "p",
                "The badge's URLs never move: a README may link it for good. ",
                el("span", where, class_="msg"),
            ),
            el("ul", *items, id="badge-urls"),
            el("section", *blocks, id="badge-snippets"),
        )
    )
