"""The published dashboard with every branch of its pages filled, and with one string in every
field of its documents that a line, its SDK or the harness can write.

`rich_dashboard` is the thirty nights (`support.nights`) with the scorecard and claim pages and
the matrix published, an old badge name, and the documents edited so that each part of a page
has something to show: a flaky scenario on the line's page and in its streaks, an issue
unaddressed for two months, a line with no
run on the latest night, a line with no legs, a scenario line that is not scored.

`filled` writes one string into every text field of a document, but for the fields whose
values are a closed vocabulary the pages switch on (a state, a status, a kind, a rule), so a
page rendered from it shows that string wherever an untrusted string can reach the page.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar

from support.nights import records, thirty_nights
from tiercheck.dashboard.build import Dashboard, LinePages, build_dashboard
from tiercheck.scorecard.model import HistoryFlaky, HistoryUnaddressed

__all__ = ["CLOSED", "LINKS", "filled", "filled_dashboard", "rich_dashboard"]

T = TypeVar("T")

#: Fields whose values are tiercheck's own words, which the pages look up or compare.
CLOSED = frozenset({"state", "status", "kind", "rule", "api_version"})
#: The fields that hold a link of the site (built from slugs by `tiercheck.dashboard`).
LINKS = frozenset(
    {"page", "runs", "badge_svg", "badge_json", "scorecard_html", "claim_html", "matrix"}
)


@functools.cache
def rich_dashboard() -> Dashboard:
    """The thirty nights' dashboard, with every part of every page given something to show."""
    built = build_dashboard(
        records(thirty_nights()),
        pages={"alpha-sdk": LinePages(scorecard_html=True, claim_html=True)},
        matrix=True,
        aliases={"old-alpha": "alpha-sdk"},
    )
    index, lines, scenarios = built.index, dict(built.lines), built.scenarios
    first, second, third = index.lines
    flaky = HistoryFlaky(
        revision="2025-11-25", leg="server", scenario="tools-list", commit="ab" * 20, flips=2
    )
    ground = HistoryUnaddressed(
        status="unaddressed",
        run_id="20261030T030000Z",
        timestamp="2026-10-30T03:00:00Z",
        days=60,
        issues=2,
        oldest_number=41,
        oldest_title="Crash on start",
        oldest_age_days=75,
        reason=None,
    )
    lines[first.slug] = dataclasses.replace(lines[first.slug], flaky=(flaky,), unaddressed=ground)
    beta = lines[second.slug]
    streaks = tuple(dataclasses.replace(s, flaky=True) for s in beta.streaks[:1])
    lines[second.slug] = dataclasses.replace(beta, streaks=streaks + beta.streaks[1:])
    late = dataclasses.replace(second, night="2000-01-01")
    empty = dataclasses.replace(third, legs=())
    page = scenarios.scenarios[0]
    unscored = tuple(dataclasses.replace(r, scored=False) for r in page.lines[:1])
    page = dataclasses.replace(page, lines=unscored + page.lines[1:])
    return Dashboard(
        index=dataclasses.replace(index, lines=(first, late, empty)),
        lines=lines,
        scenarios=dataclasses.replace(scenarios, scenarios=(page, *scenarios.scenarios[1:])),
    )


def _fill(value: Any, text: str, links: str | None) -> Any:
    if isinstance(value, str):
        return text
    if isinstance(value, tuple):
        return tuple(_fill(v, text, links) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return filled(value, text, links=links)
    return value


def filled(doc: T, text: str, *, links: str | None = None) -> T:
    """`doc` with `text` in every text field (in tuples and nested documents too) but the
    `CLOSED` ones; a `LINKS` field's text gets `links` instead, or keeps its own when None."""
    assert dataclasses.is_dataclass(doc)
    assert not isinstance(doc, type)
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(doc):
        value = getattr(doc, field.name)
        if field.name in CLOSED or value is None:
            continue
        if field.name in LINKS and isinstance(value, str):
            if links is not None:
                changes[field.name] = links
            continue
        changes[field.name] = _fill(value, text, links)
    return dataclasses.replace(doc, **changes)


def filled_dashboard(text: str, *, links: str | None = None) -> Dashboard:
    """`rich_dashboard` with `text` in every untrusted field (and `links` in its links); each
    line's slug is the text and its number, so the pages still find each line's history."""
    rich = rich_dashboard()
    index = filled(rich.index, text, links=links)
    summaries = tuple(
        dataclasses.replace(line, slug=f"{text}{i}") for i, line in enumerate(index.lines)
    )
    lines = {
        mine.slug: dataclasses.replace(
            filled(rich.lines[old.slug], text, links=links), slug=mine.slug
        )
        for mine, old in zip(summaries, rich.index.lines, strict=True)
    }
    return Dashboard(
        index=dataclasses.replace(index, lines=summaries),
        lines=lines,
        scenarios=filled(rich.scenarios, text, links=links),
    )
