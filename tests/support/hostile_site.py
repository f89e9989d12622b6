"""A history whose every text an SDK, its repository or the harness writes is 100 KB, with
characters that hide or reorder text all through it: what the published site must still keep
within its bound per page (`docs/dashboard.md`: 1 MB).

`huge_runs` are the thirty nights' records (`support.nights`) with that text in every such
field of every run — the line's name, repository, ref and commit, the harness's and Node's
versions, each scenario's name, check and message, each leg's reason, the unaddressed issue's
title and reason — as a history recorded before the bounds would hold them (the records are
edited directly, past `record_of`'s cut). Each value starts with what it replaces, so the lines
and scenarios stay apart.
"""

from __future__ import annotations

import dataclasses
import functools

from support.hostile_text import HOSTILE
from support.nights import records, thirty_nights
from tiercheck.history.record import RunRecord

__all__ = ["FILLER", "SIZE", "hostile_text", "huge_runs"]

#: The size of every hostile value, in characters.
SIZE = 100_000
_PIECES = (
    HOSTILE["rtl-override"],
    HOSTILE["zero-width"],
    HOSTILE["isolates-and-noncharacters"],
    HOSTILE["script"],
    " <b>&amp;</b> ",
    HOSTILE["newlines"],
)
#: The text that fills every value: bidirectional overrides and isolates, zero-width
#: characters, noncharacters, markup and line breaks, over and over.
FILLER = ("".join(_PIECES) * (SIZE // len("".join(_PIECES)) + 1))[:SIZE]


def hostile_text(start: str) -> str:
    """`start`, then the filler: `SIZE` characters in all."""
    return (start + FILLER)[:SIZE] if len(start) < SIZE else start


def _run(run: RunRecord) -> RunRecord:
    text = hostile_text
    legs = tuple(dataclasses.replace(x, reason=text(x.reason or "reason")) for x in run.legs)
    scenarios = tuple(
        dataclasses.replace(
            s,
            scenario=text(s.scenario),
            check=text(s.check or "check"),
            message=text(s.message or "message"),
        )
        for s in run.scenarios
    )
    found = run.unaddressed
    unaddressed = (
        dataclasses.replace(found, reason=text(found.reason or "why"), oldest_title=text("title"))
        if found is not None
        else None
    )
    return dataclasses.replace(
        run,
        sdk=text(run.sdk),
        repo=text(run.repo),
        ref=run.ref if run.ref == "stable" else text(run.ref or "main"),
        commit=text(run.commit or "0" * 40),
        harness_version=text(run.harness_version or "harness"),
        node_version=text(run.node_version or "node"),
        legs=legs,
        scenarios=scenarios,
        unaddressed=unaddressed,
    )


@functools.cache
def _runs(nights: int) -> tuple[RunRecord, ...]:
    return tuple(_run(r) for r in records(thirty_nights(nights)))


def huge_runs(nights: int = 13) -> list[RunRecord]:
    """The first `nights` nights' runs (13: alpha-sdk's regression of night 12 is open),
    every text an SDK or the harness writes 100 KB (see above)."""
    return list(_runs(nights))
