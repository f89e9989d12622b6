"""SEP-1730's other relegation ground in the relegation view: issues unaddressed for two months,
as the latest run judged them (pure).

docs/community/sdk-tiers.mdx, Tier Relegation: "An SDK may also be relegated if issues remain
unaddressed for two months." Unlike the conformance rules ("fail continuously for 4 weeks"),
it has no clock and nothing about it becomes due: it is a ground reviewers may weigh. The
issues are the SDK repository's, whichever ref a run measured, so the ground is read from the
line's latest run of either series. A run that did not record it is "not recorded", never
"none".
"""

from __future__ import annotations

from collections.abc import Iterable

from tiercheck.governance.signals.unaddressed import UNADDRESSED_DAYS
from tiercheck.history.record import RunRecord
from tiercheck.model import format_time
from tiercheck.scorecard.model import GroundStatus, HistoryUnaddressed

__all__ = ["latest_ground", "unaddressed_ground"]

_STATUS: dict[str, GroundStatus] = {
    "pass": "none",
    "fail": "unaddressed",
    "inconclusive": "inconclusive",
    "skipped": "skipped",
}


def unaddressed_ground(run: RunRecord | None) -> HistoryUnaddressed:
    """The ground as `run` judged it (`not-recorded` when it did not, or there is no run)."""
    found = run.unaddressed if run is not None else None
    if run is None or found is None:
        return HistoryUnaddressed(
            status="not-recorded",
            run_id=run.run_id if run else None,
            timestamp=format_time(run.timestamp) if run else None,
            days=UNADDRESSED_DAYS,
            issues=0,
            oldest_number=None,
            oldest_title=None,
            oldest_age_days=None,
            reason=None,
        )
    holds = found.status == "fail"
    return HistoryUnaddressed(
        status=_STATUS[found.status],
        run_id=run.run_id,
        timestamp=format_time(run.timestamp),
        days=found.days if holds else UNADDRESSED_DAYS,
        issues=found.total if holds else 0,
        oldest_number=found.oldest_number if holds else None,
        oldest_title=found.oldest_title if holds else None,
        oldest_age_days=found.oldest_age_days if holds else None,
        reason=found.reason,
    )


def latest_ground(runs: Iterable[RunRecord]) -> HistoryUnaddressed:
    """The ground as the latest of `runs` (any series of one line) judged it."""
    latest = max(runs, key=lambda r: (r.timestamp, r.run_id), default=None)
    return unaddressed_ground(latest)
