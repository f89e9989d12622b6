"""The clock and the facts the scorecard records about the run itself."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from tiercheck import __version__
from tiercheck.conformance.harness import PACKAGE
from tiercheck.history.files import requirements_digest
from tiercheck.pipeline.assess.measure import Measurement
from tiercheck.scorecard.model import HarnessBlock, ToolBlock, ToolEntry

__all__ = ["harness_facts", "now_utc", "run_id", "tiercheck_facts"]


def now_utc() -> datetime:
    """The current time, aware, in UTC (the only clock read of an assessment)."""
    return datetime.now(UTC)


def run_id(moment: datetime) -> str:
    """`20261130T071500Z`: sortable, and named before the commit is known (the output folder
    holds the build log), so the scorecard carries the commit instead."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


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
    return HarnessBlock(
        package=PACKAGE,
        version=requested if ran is None else ran.version,
        node_version=None if ran is None else ran.node_version,
        tools=tools or None,
    )


def tiercheck_facts(run: str, revisions: Sequence[str] = ()) -> ToolBlock:
    """The tiercheck block of the scorecard, with the digest of the requirement sets of
    `revisions` (what a published history compares runs by, beside the harness version)."""
    return ToolBlock(
        version=__version__,
        schema_version=1,
        run_id=run,
        requirements_digest=requirements_digest(revisions) if revisions else None,
    )
