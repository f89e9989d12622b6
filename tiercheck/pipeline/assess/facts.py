"""The facts the scorecard records about the run itself (the clock is `clock`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path

from tiercheck import __version__
from tiercheck.config.safeload import read_text
from tiercheck.conformance.harness import PACKAGE, Harness
from tiercheck.errors import ConfigError
from tiercheck.history.files import requirements_digest
from tiercheck.pipeline.assess.measure import Measurement
from tiercheck.referee.applicable import inapplicable
from tiercheck.referee.definitions import definitions
from tiercheck.referee.record import harness_record, list_source
from tiercheck.scorecard.model import HarnessBlock, NotApplicableEntry, ToolBlock, ToolEntry

__all__ = [
    "harness_definitions",
    "harness_facts",
    "harness_not_applicable",
    "tiercheck_facts",
]


def harness_facts(outcome: Measurement, requested: str) -> HarnessBlock:
    """The harness block of the scorecard (version recorded even when it never ran)."""
    ran = outcome.harness
    # Beside Node: the SDK's own tools (uv, pnpm, go, …), each with its version and whether
    # it came from PATH or was provisioned into the cache.
    tools = {
        name: ToolEntry(
            version=tool.get("version"), source=tool.get("source"), path=tool.get("path")
        )
        for name, tool in outcome.tools.items()
    }
    names = sorted({d.scenario for leg in outcome.verdicts.values() for d in leg.details})
    legs: dict[str, list[str]] = {}
    for revision, leg in outcome.verdicts:
        legs.setdefault(revision, []).append(leg)
    return HarnessBlock(
        package=PACKAGE,
        version=requested if ran is None else ran.version,
        node_version=None if ran is None else ran.node_version,
        tools=tools or None,
        definitions=None if ran is None else harness_definitions(ran, names),
        not_applicable=None if ran is None else harness_not_applicable(ran, legs),
    )


def harness_definitions(harness: Harness, scenarios: Sequence[str]) -> dict[str, str] | None:
    """The digest of each of `scenarios`' definitions in the bundle of `harness`
    (`referee.definitions`); None when none could be read. Read from the harness's record
    (`referee.record`: every listed scenario's, scanned once per install and kept in its cache
    folder); a harness whose scenarios could not be listed has the bundle scanned for
    `scenarios` alone. Never the reason a run fails: a bundle that cannot be read or scanned
    leaves the definitions unrecorded."""
    if not scenarios:
        return None
    record = harness_record(harness)
    if record is not None and record.complete and record.definitions:
        kept = {name: record.definitions[name] for name in scenarios if name in record.definitions}
        return dict(sorted(kept.items())) or None
    try:
        stat = harness.cli_js.stat()
        found = _definitions(str(harness.cli_js), stat.st_mtime_ns, stat.st_size, tuple(scenarios))
    except (OSError, ConfigError, ValueError, RecursionError):
        return None
    return dict(found) or None


def harness_not_applicable(
    harness: Harness, legs: Mapping[str, Sequence[str]]
) -> dict[str, tuple[NotApplicableEntry, ...]] | None:
    """Revision → the scenarios of its `legs` that the harness lists for other spec versions
    only, removed before it or not yet introduced (`referee.applicable`), each with where that
    was read (`conformance list --LEG`); None when nothing was listed. Never scored, never a
    verdict's: what the reports list apart."""
    record = harness_record(harness)
    if record is None or not record.listed:
        return None
    out: dict[str, tuple[NotApplicableEntry, ...]] = {}
    for revision, revision_legs in legs.items():
        found = inapplicable(record.listed, revision, revision_legs)
        out[revision] = tuple(
            NotApplicableEntry(
                scenario=item.scenario,
                leg=item.leg,
                why=item.why,
                version=item.version,
                applies=item.applies,
                source=list_source(record.version, item.leg),
            )
            for item in found
        )
    return out if any(out.values()) else None


@functools.lru_cache(maxsize=4)
def _definitions(
    path: str, mtime_ns: int, size: int, scenarios: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    """The bundle scanned once per file, its time and size, and names (a matrix runs many lines
    under one harness)."""
    del mtime_ns, size  # the cache's key only
    source = read_text(Path(path), what="the harness bundle")
    return tuple(definitions(source, scenarios).items())


def tiercheck_facts(run: str, revisions: Sequence[str] = ()) -> ToolBlock:
    """The tiercheck block of the scorecard, with the digest of the requirement sets of
    `revisions` (what a published history compares runs by, beside the harness version)."""
    return ToolBlock(
        version=__version__,
        schema_version=1,
        run_id=run,
        requirements_digest=requirements_digest(revisions) if revisions else None,
    )
