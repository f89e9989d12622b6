"""The site's Atom feed, badge panel and badge documents, from the thirty nights of
`support.nights` (worked out by hand there).

The feed is read by feedparser (a parser nobody here wrote: `bozo == 0` means well-formed XML
in a known encoding) and its elements checked against RFC 4287's requirements, cited where
each is checked. The badge documents are validated against the shields.io endpoint schema as
shields states it (`SHIELDS_ENDPOINT` below, with its source).
"""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import feedparser
import jsonschema
import pytest

from support.hostile_text import HOSTILE
from support.nights import records, thirty_nights
from support.schema_check import conforms
from tiercheck.cli.app import main
from tiercheck.dashboard.build import build_dashboard
from tiercheck.dashboard.feed import render_feed
from tiercheck.dashboard.model import LineHistory
from tiercheck.history.store import HistoryStore
from tiercheck.plaintext import HIDDEN, one_line
from tiercheck.publish.site import build_site
from tiercheck.render.xml import xml_text

A = "{http://www.w3.org/2005/Atom}"

#: The shields.io endpoint schema as shields states it: `endpointSchema` (Joi) in
#: https://github.com/badges/shields/blob/bf34c6c76c63ea99a20a361fdd32e9b5ca737793/services/endpoint-common.js
#: — `schemaVersion: 1`; `label: Joi.string().allow('').required()`; `message:
#: Joi.string().required()` (Joi refuses an empty string unless allowed); `color`,
#: `labelColor`, `namedLogo`, `logoSvg`, `style`: strings; `isError`: boolean; `cacheSeconds`:
#: an integer ≥ 0; `logoColor`, `logoWidth`, `logoPosition` only beside a logo; `namedLogo` or
#: `logoSvg`, not both; unknown keys refused (`allowAndStripUnknownKeys: false`). The
#: documentation page is https://shields.io/badges/endpoint-badge.
_STRING = {"type": "string", "minLength": 1}
SHIELDS_ENDPOINT: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["schemaVersion", "label", "message"],
    "properties": {
        "schemaVersion": {"const": 1},
        "label": {"type": "string"},
        "message": _STRING,
        "color": _STRING,
        "labelColor": _STRING,
        "isError": {"type": "boolean"},
        "namedLogo": _STRING,
        "logoSvg": _STRING,
        "logoColor": _STRING,
        "logoWidth": {"type": "number"},
        "logoPosition": {"type": "number"},
        "style": _STRING,
        "cacheSeconds": {"type": "integer", "minimum": 0},
    },
    "not": {"required": ["namedLogo", "logoSvg"]},
    "dependentSchemas": {
        "logoColor": {"required": ["namedLogo"]},
        "logoWidth": {"anyOf": [{"required": ["namedLogo"]}, {"required": ["logoSvg"]}]},
        "logoPosition": {"anyOf": [{"required": ["namedLogo"]}, {"required": ["logoSvg"]}]},
    },
}

#: RFC 3339 date-time (RFC 4287 §3.3 requires it, with an upper-case T and Z).
DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")
#: The entries' ids, worked out by hand: `urn:uuid:` + uuid5(uuid5(NAMESPACE_URL,
#: "tiercheck:dashboard:feed"), "LINE\nNIGHT\nKIND") (Python's uuid module, run by hand).
REGRESSED_12 = "urn:uuid:cac184b9-984a-5c82-840e-2a908fc7f322"  # alpha-sdk 2026-10-12 regression
RECOVERED_15 = "urn:uuid:88d0d93f-01ec-5bbf-a82e-eecc41fc7cc7"  # alpha-sdk 2026-10-15 recovery
REGRESSED_20 = "urn:uuid:2bcbc13b-b2b5-5c56-99d8-d8d38df6fbb9"  # alpha-sdk 2026-10-20 regression
RECOVERED_21 = "urn:uuid:c7934305-1e86-51e8-b08c-7473ee579e01"  # alpha-sdk 2026-10-21 recovery
FEED_ID = "urn:uuid:4f6cbad1-9731-5dc1-b40d-027370f5117a"  # uuid5(ns, "tiercheck-dashboard")


def _site(tmp_path: Path, nights: int, *, base_url: str | None = None) -> Path:
    out = tmp_path / f"site-{nights}"
    build_site(records(thirty_nights(nights)), out, base_url=base_url)
    return out


def _children(node: ET.Element, name: str) -> list[ET.Element]:
    return node.findall(f"{A}{name}")


def _check_rfc4287(text: str) -> ET.Element:
    """The feed read by feedparser without complaint, and what RFC 4287 requires of it."""
    parsed = feedparser.parse(text)
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    root = ET.fromstring(text)
    assert root.tag == f"{A}feed"
    # §4.1.1: exactly one id, title and updated; an author unless every entry has one.
    for name in ("id", "title", "updated"):
        assert len(_children(root, name)) == 1, name
    assert DATE_TIME.fullmatch(root.findtext(f"{A}updated") or "")
    assert _children(root, "author")
    assert root.findtext(f"{A}author/{A}name")
    assert len(_children(root, "generator")) <= 1
    alternates = [x for x in _children(root, "link") if x.get("rel") == "alternate"]
    assert len({(x.get("type"), x.get("hreflang")) for x in alternates}) == len(alternates)
    seen = set()
    for entry in _children(root, "entry"):
        # §4.1.2: exactly one id, title, updated; a content or an alternate link.
        for name in ("id", "title", "updated"):
            assert len(_children(entry, name)) == 1, name
        ident = entry.findtext(f"{A}id") or ""
        assert re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", ident)  # §4.2.6: an IRI
        assert (ident, entry.findtext(f"{A}updated")) not in seen
        seen.add((ident, entry.findtext(f"{A}updated")))
        assert DATE_TIME.fullmatch(entry.findtext(f"{A}updated") or "")
        assert _children(entry, "content") or [
            x for x in _children(entry, "link") if x.get("rel", "alternate") == "alternate"
        ]
        # §3.1.1.1: a text construct of type "text" holds no child elements.
        for name in ("title", "content"):
            node = entry.find(f"{A}{name}")
            assert node is not None
            assert node.get("type") == "text"
            assert len(node) == 0
    return root


def _entries(root: ET.Element) -> list[tuple[str | None, ...]]:
    return [
        (
            e.findtext(f"{A}id"),
            e.findtext(f"{A}title"),
            e.findtext(f"{A}updated"),
            next((x.get("href") for x in _children(e, "link")), None),
        )
        for e in _children(root, "entry")
    ]


def test_nights_12_15_and_20_give_the_hand_worked_feed(tmp_path: Path) -> None:
    # Night 12: alpha-sdk's tools-call-image fails (passed nights 1-11, same harness) and its
    # tier drops 1 → 2: one regression entry. beta-sdk's failure never passed (no entry);
    # gamma-sdk is green.
    root = _check_rfc4287((_site(tmp_path, 12) / "feed.atom").read_text("utf-8"))
    regressed = (
        REGRESSED_12,
        "alpha-sdk regressed on 2026-10-12",
        "2026-10-12T03:00:00Z",
        "lines/alpha-sdk.html",
    )
    assert _entries(root) == [regressed]
    assert root.findtext(f"{A}updated") == "2026-10-12T03:00:00Z"
    assert root.findtext(f"{A}id") == FEED_ID
    content = root.findtext(f"{A}entry/{A}content") or ""
    # In the order they began within the run: scenarios are read before the tier.
    assert content.splitlines() == [
        "alpha-sdk regressed on 2026-10-12 (Tier 1 → Tier 2).",
        "Began:",
        "- 2025-11-25 server tools-call-image: newly failing",
        "- lower tier",
    ]
    # Night 15: it passes again, Tier 1: a recovery, newest first.
    feed_15 = (_site(tmp_path, 15) / "feed.atom").read_text("utf-8")
    root = _check_rfc4287(feed_15)
    recovered = (
        RECOVERED_15,
        "alpha-sdk recovered on 2026-10-15",
        "2026-10-15T03:00:00Z",
        "lines/alpha-sdk.html",
    )
    assert _entries(root) == [recovered, regressed]
    # Night 20: alpha-sdk's server leg at 2025-11-25, measured before, is unmeasured: a
    # regression (its tier, judged on no run that night, is Tier 1 still).
    root = _check_rfc4287((_site(tmp_path, 20) / "feed.atom").read_text("utf-8"))
    unmeasured = (
        REGRESSED_20,
        "alpha-sdk regressed on 2026-10-20",
        "2026-10-20T03:00:00Z",
        "lines/alpha-sdk.html",
    )
    assert _entries(root) == [unmeasured, recovered, regressed]
    content = root.findtext(f"{A}entry/{A}content") or ""
    assert content.splitlines() == [
        "alpha-sdk regressed on 2026-10-20 (Tier 1).",
        "Began:",
        "- 2025-11-25 server: newly unmeasured",
    ]


def test_the_feed_is_the_same_bytes_every_build_and_absolute_under_a_base_url(
    tmp_path: Path,
) -> None:
    site = _site(tmp_path, 30, base_url="https://example.github.io/tiers/")
    text = (site / "feed.atom").read_text("utf-8")
    root = _check_rfc4287(text)
    # Night 25's harness change (beta-sdk) is marked, never a regression: the entries are
    # alpha-sdk's two regressions and their recoveries.
    assert [e[0] for e in _entries(root)] == [
        RECOVERED_21,
        REGRESSED_20,
        RECOVERED_15,
        REGRESSED_12,
    ]
    assert {e[3] for e in _entries(root)} == {
        "https://example.github.io/tiers/lines/alpha-sdk.html"
    }
    links = {x.get("rel"): x.get("href") for x in _children(root, "link")}
    assert links == {
        "alternate": "https://example.github.io/tiers/index.html",
        "self": "https://example.github.io/tiers/feed.atom",
    }
    again = tmp_path / "again"
    build_site(records(thirty_nights(30)), again, base_url="https://example.github.io/tiers/")
    assert (again / "feed.atom").read_text("utf-8") == text


def test_the_index_links_the_feed_in_its_head(tmp_path: Path) -> None:
    index = (_site(tmp_path, 12) / "index.html").read_text("utf-8")
    head = index.split("</head>")[0]
    assert (
        '<link rel="alternate" type="application/atom+xml" '
        'title="tiercheck: regressions and recoveries" href="feed.atom">'
    ) in head


def _hostile_histories(text: str) -> dict[str, LineHistory]:
    """The thirty nights' histories with `text` as every line's name (and its number) and as
    the scenario of every regression that began or ended: what an SDK's registry entry and
    the harness could write."""
    dashboard = build_dashboard(records(thirty_nights(16)))
    out = {}
    for i, (slug, history) in enumerate(sorted(dashboard.lines.items())):
        runs = tuple(
            dataclasses.replace(
                run,
                started=tuple(f"newly-failing:R/server/{text}" for _ in run.started),
                ended=tuple(f"newly-failing:R/server/{text}" for _ in run.ended),
            )
            for run in history.runs
        )
        out[slug] = dataclasses.replace(history, line=f"{text}{i}", slug=f"{text}{i}", runs=runs)
    return out


@pytest.mark.parametrize("name", sorted(n for n in HOSTILE if n != "huge"))
def test_hostile_line_names_and_scenarios_stay_text_in_the_feed(name: str) -> None:
    text = render_feed(_hostile_histories(HOSTILE[name]), latest=None)
    root = _check_rfc4287(text)
    # No title reverses or hides text: what would is shown as `[U+202E]`.
    assert not HIDDEN.search(text)
    # Only Atom's own elements; no link but a page of the site (a hostile slug: no link).
    atom = ("feed", "id", "title", "updated", "author", "name", "link", "generator")
    assert {e.tag for e in root.iter()} <= {f"{A}{n}" for n in (*atom, "entry", "content")}
    for link in root.iter(f"{A}link"):
        assert re.fullmatch(r"[\w./-]+\.html", link.get("href") or ""), link.get("href")
    entries = list(root.iter(f"{A}entry"))
    assert len(entries) == 2
    # One line, cut at 200 characters (what is shown of it is the string itself).
    shown = xml_text(one_line(HOSTILE[name]))[:150]
    for entry in entries:
        assert shown in (entry.findtext(f"{A}title") or "")
        assert shown in (entry.findtext(f"{A}content") or "")


def test_every_badge_document_validates_against_the_shields_endpoint_schema(
    tmp_path: Path,
) -> None:
    site = _site(tmp_path, 12)
    found = sorted((site / "badges").glob("*.json"))
    badges = [p for p in found if p.name != "aliases.json"]  # the site's record, no badge
    assert [p.stem for p in badges] == ["alpha-sdk", "beta-sdk", "gamma-sdk"]
    for path in badges:
        conforms(json.loads(path.read_text("utf-8")), SHIELDS_ENDPOINT)
    # Night 12: alpha-sdk dropped to Tier 2 with a regression open (shields' yellow, as hex).
    assert json.loads((site / "badges/alpha-sdk.json").read_text("utf-8")) == {
        "schemaVersion": 1,
        "label": "MCP tier",
        "message": "2 · regressed",
        "color": "dfb317",
    }


@pytest.mark.parametrize(
    "bad",
    [
        {"schemaVersion": 2, "label": "a", "message": "b"},
        {"schemaVersion": 1, "label": "a", "message": ""},
        {"schemaVersion": 1, "label": "a"},
        {"schemaVersion": 1, "label": "a", "message": "b", "colour": "red"},
        {"schemaVersion": 1, "label": "a", "message": "b", "namedLogo": "x", "logoSvg": "<svg/>"},
    ],
)
def test_the_shields_schema_refuses_what_shields_refuses(bad: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        conforms(bad, SHIELDS_ENDPOINT)


def _pre(page: str) -> list[str]:
    import html

    return [
        html.unescape(x)
        for x in re.findall(r'<pre class="snippet"><code>(.*?)</code></pre>', page, re.S)
    ]


def test_the_badge_panel_without_a_base_url_is_relative_and_says_so(tmp_path: Path) -> None:
    page = (_site(tmp_path, 12) / "lines/alpha-sdk.html").read_text("utf-8")
    assert "These URLs are relative to the site&#x27;s root" in page
    # Written by hand: the README snippets of a badge at badges/alpha-sdk.svg.
    assert _pre(page) == [
        "[![MCP tier](badges/alpha-sdk.svg)](lines/alpha-sdk.html)",
        '<a href="lines/alpha-sdk.html"><img src="badges/alpha-sdk.svg" alt="MCP tier"></a>',
        ".. image:: badges/alpha-sdk.svg\n   :alt: MCP tier\n   :target: lines/alpha-sdk.html",
    ]
    assert "img.shields.io" not in page


def test_the_badge_panel_under_a_base_url_is_absolute(tmp_path: Path) -> None:
    site = _site(tmp_path, 12, base_url="https://example.github.io/tiers/")
    page = (site / "lines/alpha-sdk.html").read_text("utf-8")
    base = "https://example.github.io/tiers/"
    assert _pre(page) == [
        f"[![MCP tier]({base}badges/alpha-sdk.svg)]({base}lines/alpha-sdk.html)",
        f'<a href="{base}lines/alpha-sdk.html"><img src="{base}badges/alpha-sdk.svg" '
        'alt="MCP tier"></a>',
        f".. image:: {base}badges/alpha-sdk.svg\n   :alt: MCP tier\n"
        f"   :target: {base}lines/alpha-sdk.html",
    ]
    shields = (
        "https://img.shields.io/endpoint?url="
        "https%3A%2F%2Fexample.github.io%2Ftiers%2Fbadges%2Falpha-sdk.json"
    )
    assert f'<a href="{shields}">' in page


@pytest.mark.parametrize(
    "url",
    [
        "http://example.github.io/tiers/",
        "https://example.github.io/tiers/?x=1",
        "https://example.github.io/t iers/",
        "https://user@example.github.io/",
        "javascript:alert(1)",
        "https://example.github.io/tiers/)](https://evil.example",
    ],
)
def test_a_base_url_that_is_not_an_https_site_address_is_refused(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.sqlite"
    HistoryStore(db).append_many(records(thirty_nights(2)))
    code = main(["publish", "--history", str(db), "--out", str(tmp_path / "s"), "--base-url", url])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "--base-url" in err
    assert "https://" in err
    assert not (tmp_path / "s" / "index.html").exists()
