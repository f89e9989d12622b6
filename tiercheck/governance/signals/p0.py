"""The P0 check: officially created → closed over all history; per SEP-1730, label → closed."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tiercheck.governance.signals.base import (
    CheckInfo,
    Signal,
    SignalConfig,
    Status,
    alias_map,
    canonical,
    field_values,
    in_days,
    js_round,
    millis,
    open_at,
)
from tiercheck.governance.snapshot import Issue, IssueFacts, Snapshot, Unavailable

__all__ = ["CHECK", "OpenP0", "P0Signal", "SepP0", "p0_signal"]

_DAY_MS = 86_400_000

CHECK = CheckInfo(
    name="p0_resolution",
    rank=5,
    remediation="Resolve the open P0 issues; Tier 1 needs every P0 closed within 7 days",
    departures=(
        "Clocked from the P0 label to the close, as the text says, over P0 episodes of the last "
        "365 days; a P0 label removed before the close is a downgrade, not a resolution, and an "
        "open P0 younger than the limit is not late yet."
    ),
)


@dataclass(frozen=True)
class OpenP0:
    """An open P0: its number, title and age in days at as_of (officially `Math.round`ed)."""

    number: int
    title: str
    age_days: int

    def to_dict(self) -> dict[str, Any]:
        """Official `open_p0_details` entry."""
        return {"number": self.number, "title": self.title, "age_days": self.age_days}


@dataclass(frozen=True)
class SepP0:
    """SEP-1730 P0 resolution: P0 label applied → closed, over a window, bots and all.

    An episode that started in the window (or is still open) counts. A P0 label removed before
    the issue closed is a downgrade, not a resolution, and is reported apart. An open P0 younger
    than the limit is not (yet) a breach.
    """

    status: Status
    reason: str | None
    window_days: int
    episodes: int
    open_p0s: int
    open_p0_details: tuple[OpenP0, ...]
    resolved_within_7d: int
    resolved_within_14d: int
    resolved_total: int
    downgraded: int
    closed_not_planned: int
    label_time_unknown: int
    within_7d: bool
    within_14d: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the SEP-1730 P0 reading (the last two under the official names)."""
        values = field_values(self)
        values["all_p0s_resolved_within_7d"] = values.pop("within_7d")
        values["all_p0s_resolved_within_14d"] = values.pop("within_14d")
        return values


@dataclass(frozen=True)
class P0Signal(Signal):
    """Critical-bug resolution: official created→closed, and SEP-1730's label→closed."""

    info = CHECK

    open_p0s: int
    open_p0_details: tuple[OpenP0, ...]
    closed_within_7d: int
    closed_within_14d: int
    closed_total: int
    all_p0s_resolved_within_7d: bool
    all_p0s_resolved_within_14d: bool
    sep1730: SepP0

    def _verdicts(self) -> tuple[object, object]:
        return self.status, self.sep1730.status


def _p0_status(within_7d: bool, within_14d: bool) -> Status:
    if within_7d:
        return "pass"
    if within_14d:
        return "partial"
    return "fail"


def _inconclusive_sep_p0(reason: str, window: int) -> SepP0:
    return SepP0(
        status="inconclusive",
        reason=reason,
        window_days=window,
        episodes=0,
        open_p0s=0,
        open_p0_details=(),
        resolved_within_7d=0,
        resolved_within_14d=0,
        resolved_total=0,
        downgraded=0,
        closed_not_planned=0,
        label_time_unknown=0,
        within_7d=False,
        within_14d=False,
    )


def _p0_label_times(
    issue: Issue, as_of: datetime, aliases: Mapping[str, str]
) -> tuple[datetime | None, datetime | None, bool]:
    """When the P0 label was first applied and then first removed; True if applied is a guess."""
    assert issue.timeline is not None
    applied: datetime | None = None
    removed: datetime | None = None
    for event in issue.timeline.label_events:
        if event.at > as_of or canonical(event.label, aliases) != "p0":
            continue
        if event.action == "labeled" and applied is None:
            applied = event.at
        elif event.action == "unlabeled" and applied is not None and removed is None:
            removed = event.at
    if applied is None and any(canonical(label, aliases) == "p0" for label in issue.labels):
        # The label is there but its event is not (timeline cut short, or a label renamed into
        # P0): fall back to creation, the official clock, and count it as a guess.
        return issue.created_at, None, True
    return applied, removed, False


def _sep_p0(facts: IssueFacts, as_of: datetime, config: SignalConfig) -> SepP0:
    window = config.p0_window_days
    if facts.timeline_reason is not None:
        return _inconclusive_sep_p0(facts.timeline_reason, window)
    aliases = alias_map(config)
    since = as_of - timedelta(days=window)
    open_details: list[OpenP0] = []
    resolved_days: list[float] = []
    downgraded = not_planned = unknown = episodes = 0
    breached_open = {7: False, 14: False}
    for issue in facts.issues:
        if issue.created_at > as_of:
            continue
        if issue.timeline is None:
            return _inconclusive_sep_p0(f"issue #{issue.number} has no timeline", window)
        applied, removed, guessed = _p0_label_times(issue, as_of, aliases)
        unknown += guessed
        if applied is None:
            continue
        closed = issue.closed_at if issue.closed_at and issue.closed_at <= as_of else None
        if removed is not None and (closed is None or removed < closed):
            if removed >= since:
                episodes += 1
                downgraded += 1
            continue
        if closed is None:
            episodes += 1
            age = in_days(as_of - applied)
            open_details.append(OpenP0(issue.number, issue.title, math.floor(age)))
            breached_open[7] = breached_open[7] or age > 7
            breached_open[14] = breached_open[14] or age > 14
            continue
        if applied < since and closed < since:
            continue
        episodes += 1
        if issue.state_reason in {"not_planned", "duplicate"}:
            not_planned += 1
        resolved_days.append(in_days(closed - applied))
    within_7 = sum(1 for d in resolved_days if d <= 7)
    within_14 = sum(1 for d in resolved_days if d <= 14)
    all_7 = not breached_open[7] and within_7 == len(resolved_days)
    all_14 = not breached_open[14] and within_14 == len(resolved_days)
    return SepP0(
        status=_p0_status(all_7, all_14),
        reason=None,
        window_days=window,
        episodes=episodes,
        open_p0s=len(open_details),
        open_p0_details=tuple(open_details),
        resolved_within_7d=within_7,
        resolved_within_14d=within_14,
        resolved_total=len(resolved_days),
        downgraded=downgraded,
        closed_not_planned=not_planned,
        label_time_unknown=unknown,
        within_7d=all_7,
        within_14d=all_14,
    )


def p0_signal(snapshot: Snapshot, as_of: datetime, config: SignalConfig) -> P0Signal:
    """P0 resolution, officially and per SEP-1730.

    Official (`tier-check` p0.ts of the pinned bundle): every issue labelled ``P0`` now, whole
    history, in the API's order (newest created first); days = closed − created; an open P0's
    `age_days` is `Math.round`ed; "within 7 d" means no open P0 *and* every closed one ≤ 7 d
    (14 d likewise).
    SEP-1730: see `SepP0`.
    """
    group = snapshot.issues
    if isinstance(group, Unavailable):
        return P0Signal(
            status="inconclusive",
            reason=group.reason,
            open_p0s=0,
            open_p0_details=(),
            closed_within_7d=0,
            closed_within_14d=0,
            closed_total=0,
            all_p0s_resolved_within_7d=False,
            all_p0s_resolved_within_14d=False,
            sep1730=_inconclusive_sep_p0(group.reason, config.p0_window_days),
        )
    # The API's order for the official query (`labels=P0`, default sort): newest created first.
    p0s = sorted(
        (
            issue
            for issue in group.issues
            if issue.created_at <= as_of and any(label.lower() == "p0" for label in issue.labels)
        ),
        key=lambda issue: (issue.created_at, issue.number),
        reverse=True,
    )
    now = millis(as_of)
    open_details = tuple(
        OpenP0(issue.number, issue.title, js_round((now - millis(issue.created_at)) / _DAY_MS))
        for issue in p0s
        if open_at(issue, as_of)
    )
    closed_days = [
        (millis(issue.closed_at) - millis(issue.created_at)) / _DAY_MS
        for issue in p0s
        if issue.closed_at is not None and issue.closed_at <= as_of
    ]
    within_7 = sum(1 for d in closed_days if d <= 7)
    within_14 = sum(1 for d in closed_days if d <= 14)
    all_7 = not open_details and within_7 == len(closed_days)
    all_14 = not open_details and within_14 == len(closed_days)
    return P0Signal(
        status=_p0_status(all_7, all_14),
        reason=None,
        open_p0s=len(open_details),
        open_p0_details=open_details,
        closed_within_7d=within_7,
        closed_within_14d=within_14,
        closed_total=len(closed_days),
        all_p0s_resolved_within_7d=all_7,
        all_p0s_resolved_within_14d=all_14,
        sep1730=_sep_p0(group, as_of, config),
    )
