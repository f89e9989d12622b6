"""The dashboard's Atom feed of regressions and recoveries (pure): `feed.atom`.

One entry per change of a line's state, read from the line's history document, whose
`started` and `ended` keys are the regressions of `tiercheck.history.regression` (the one rule
the pages and the tracking issues read too):

* ``regression`` — a night on which one or more regressions began;
* ``recovery`` — a night on which the line's last open regression was undone.

Several runs of a line on one night make one entry of each kind (the night's latest run gives
its time). An entry's id is `urn:uuid:` of a name-based UUID (version 5) of line, night and
kind, so it never changes from build to build; `updated` is the time of the run, never the
clock, so the same history gives the same feed, byte for byte.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tiercheck.dashboard.model import LineHistory, RunEntry
from tiercheck.plaintext import one_line
from tiercheck.render.atom import AtomEntry, atom_feed
from tiercheck.render.badge import tier_text
from tiercheck.render.element import site

__all__ = [
    "FEED",
    "FEED_NAMESPACE",
    "FeedChange",
    "entry_id",
    "feed_changes",
    "feed_latest",
    "render_feed",
]

#: The feed's path in the site.
FEED = "feed.atom"
#: The namespace of the entries' UUIDs (itself the version-5 UUID of this name in the URL
#: namespace): changing it would change every id, so it never changes.
FEED_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "tiercheck:dashboard:feed")


def entry_id(line: str, night: str, kind: str) -> str:
    """`urn:uuid:…` of a line's change of `kind` on `night` (YYYY-MM-DD)."""
    # A lone surrogate (no UTF-8 for it) is replaced: any other name is hashed as it is.
    name = (
        "\n".join((line, night, kind)).encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    )
    return f"urn:uuid:{uuid.uuid5(FEED_NAMESPACE, name)}"


@dataclass(frozen=True)
class FeedChange:
    """One change of a line's state on one night."""

    line: str
    slug: str
    night: str
    kind: str
    #: The time of the night's latest run that made it (ISO-8601 UTC).
    updated: str
    #: What began (regression) or was undone (recovery): regression keys, in order.
    keys: tuple[str, ...]
    tier_before: int | None
    tier_after: int | None


def _said(key: str) -> str:
    kind, _, where = key.partition(":")
    words = {
        "lower-tier": "lower tier",
        "newly-failing": "newly failing",
        "unmeasured": "newly unmeasured",
    }
    what = words.get(kind, kind)
    return f"{one_line(where.replace('/', ' '), 200)}: {what}" if where else what


def _line_changes(history: LineHistory) -> list[FeedChange]:
    found: dict[tuple[str, str], FeedChange] = {}
    before: RunEntry | None = None
    for run in history.runs:
        night = run.timestamp[:10]
        kinds = []
        if run.started:
            kinds.append(("regression", run.started))
        if run.ended and not run.regressions:
            kinds.append(("recovery", run.ended))
        for kind, keys in kinds:
            old = found.get((night, kind))
            kept = old.keys if old else ()
            found[(night, kind)] = FeedChange(
                line=history.line,
                slug=history.slug,
                night=night,
                kind=kind,
                updated=run.timestamp,
                keys=(*kept, *(k for k in keys if k not in kept)),
                tier_before=old.tier_before if old else (before.tier if before else None),
                tier_after=run.tier,
            )
        if run.tier is not None:  # a night that measured nothing has no tier to go from
            before = run
    return list(found.values())


def feed_changes(histories: Iterable[LineHistory]) -> list[FeedChange]:
    """Every line's changes, newest first (then by line, regression before recovery)."""
    changes = [c for h in histories for c in _line_changes(h)]
    changes.sort(key=lambda c: (c.line, c.kind))
    changes.sort(key=lambda c: c.updated, reverse=True)
    return changes


def _entry(change: FeedChange, link: str | None) -> AtomEntry:
    tier = (
        f"{tier_text(change.tier_before)} → {tier_text(change.tier_after)}"
        if change.tier_before is not None and change.tier_before != change.tier_after
        else tier_text(change.tier_after)
    )
    verb = "regressed" if change.kind == "regression" else "recovered"
    line = one_line(change.line, 200)
    heading = "Began" if change.kind == "regression" else "Undone"
    content = "\n".join(
        (
            f"{line} {verb} on {change.night} ({tier}).",
            f"{heading}:",
            *(f"- {_said(k)}" for k in change.keys),
        )
    )
    return AtomEntry(
        id=entry_id(change.line, change.night, change.kind),
        title=f"{line} {verb} on {change.night}",
        updated=change.updated,
        link=link,
        content=content,
    )


def render_feed(
    histories: Mapping[str, LineHistory], *, latest: str | None, base_url: str | None = None
) -> str:
    """`feed.atom`: every line's regressions and recoveries, newest first.

    `latest` is the newest run's time (the feed's `updated` when no line ever changed);
    `base_url` (the site's address, ending in `/`) makes the links absolute and adds the
    feed's `self` link; without it they are relative to the feed."""
    root = base_url or ""
    changes = feed_changes(histories.values())
    updated = max((c.updated for c in changes), default=latest or "1970-01-01T00:00:00Z")
    return atom_feed(
        feed_id=f"urn:uuid:{uuid.uuid5(FEED_NAMESPACE, base_url or 'tiercheck-dashboard')}",
        title="tiercheck dashboard: regressions and recoveries",
        updated=updated,
        author="tiercheck",
        alternate=f"{root}index.html",
        self_link=f"{root}{FEED}" if base_url else None,
        # A line's page only when its slug is one the site makes (else the entry has no link).
        entries=[
            _entry(c, f"{root}{page}" if site(page := f"lines/{c.slug}.html") else None)
            for c in changes
        ],
    )


def feed_latest(histories: Sequence[LineHistory]) -> str | None:
    """The newest run's time of any line."""
    return max((h.runs[-1].timestamp for h in histories if h.runs), default=None)
