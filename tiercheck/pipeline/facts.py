"""The clock and the facts the scorecard records about the run itself."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tiercheck import __version__
from tiercheck.conformance.harness import PACKAGE
from tiercheck.pipeline.measure import Measurement

__all__ = ["harness_facts", "now_utc", "run_id", "tiercheck_facts"]


def now_utc() -> datetime:
    """The current time, aware, in UTC (the only clock read of an assessment)."""
    return datetime.now(UTC)


def run_id(moment: datetime) -> str:
    """`20261130T071500Z`: sortable, and named before the commit is known (the output folder
    holds the build log), so the scorecard carries the commit instead."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def harness_facts(outcome: Measurement, requested: str) -> dict[str, Any]:
    """The harness block of the scorecard (version recorded even when it never ran)."""
    facts: dict[str, Any]
    if outcome.harness is None:
        facts = {"package": PACKAGE, "version": requested, "node_version": None}
    else:
        facts = {
            "package": PACKAGE,
            "version": outcome.harness.version,
            "node_version": outcome.harness.node_version,
        }
    if outcome.tools:
        # Beside Node: the SDK's own tools (uv, pnpm, go, …), each with its version and
        # whether it came from PATH or was provisioned into the cache.
        facts["tools"] = {name: dict(tool) for name, tool in outcome.tools.items()}
    return facts


def tiercheck_facts(run: str) -> dict[str, Any]:
    """The tiercheck block of the scorecard."""
    return {"version": __version__, "schema_version": 1, "run_id": run}
