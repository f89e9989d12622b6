"""The clock of a run: the one read of the current time, and the run id named from it.

Apart from `facts` (what the scorecard records about the run), which imports the measurement
and the harness: the commands that only need the time (the matrix's plan and merge, `claim`,
`history`) start without them.
"""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["now_utc", "run_id"]


def now_utc() -> datetime:
    """The current time, aware, in UTC (the only clock read of an assessment)."""
    return datetime.now(UTC)


def run_id(moment: datetime) -> str:
    """`20261130T071500Z`: sortable, and named before the commit is known (the output folder
    holds the build log), so the scorecard carries the commit instead."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
