"""What every governance signal shares: its status vocabulary, its config, its check info,
the base class of the six signals and the small pure helpers they use.

A signal reports the official `tier-check` metric under the official field names, and beside it
the SEP-1730 reading (`sep1730`) where the two differ, with `disagrees_with_official` set when
they reach different verdicts. Nothing here reads the clock or the network: every age is
measured against `as_of`, so the same snapshot and `as_of` always give byte-identical output.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Literal

from tiercheck.governance.snapshot import Issue

__all__ = [
    "DAY",
    "HOUR",
    "CheckInfo",
    "Signal",
    "SignalConfig",
    "Status",
    "business_seconds",
]

Status = Literal["pass", "partial", "fail", "skipped", "inconclusive"]

HOUR = 3600.0
DAY = 86400.0


@dataclass(frozen=True)
class CheckInfo:
    """A check's static description, as OpenSSF Scorecard keeps one beside each probe.

    Attributes:
        name: the official scorecard's key for the check (``p0_resolution``…).
        rank: the order in which remediation proposes fixing it among actions that clear as
            many blockers (lower first: the quickest fixes come first).
        remediation: what to do when the check blocks a tier, in one imperative sentence.
        departures: where our SEP-1730 reading deliberately differs from the text (or reads
            what the text leaves open), in words; the scorecard prints it beside the reading.
    """

    name: str
    rank: int
    remediation: str
    departures: str = ""


@dataclass(frozen=True)
class SignalConfig:
    """Per-SDK knobs for the signals (from known_sdks.yaml and the command line).

    Attributes:
        label_aliases: repository label → the official label it stands for (case-insensitive).
        tag_prefix: release tags look like ``<tag_prefix><semver>``; others are ignored by our
            reading (monorepos publish several packages from one repository).
        days: the official triage window (``--days``): only open issues created in the last
            ``days`` days; None means every open issue, as the official default.
        sep_window_days: our triage window: issues (open and closed) created in the last N days.
        p0_window_days: our P0 window: P0 episodes that started in the last N days, plus any
            still open.
    """

    label_aliases: Mapping[str, str] = field(default_factory=dict)
    tag_prefix: str | None = None
    days: int | None = None
    sep_window_days: int = 90
    p0_window_days: int = 365


@dataclass(frozen=True)
class Signal:
    """The fields and verdict logic every signal has: `status` and `reason` come first.

    Subclasses add their official fields (in the official JSON's order) and their SEP-1730
    reading, and say how each reading's verdict is read (`_verdicts`).
    """

    #: The check's static description (each subclass sets its module's `CHECK`).
    info: ClassVar[CheckInfo]

    status: Status
    reason: str | None

    @property
    def skipped(self) -> bool:
        """True when the check was not run by choice (never a failure)."""
        return self.status == "skipped"

    @property
    def disagrees_with_official(self) -> bool:
        """True when the SEP-1730 reading reaches a different verdict from the official one."""
        official, sep = self._verdicts()
        return official != sep

    def _verdicts(self) -> tuple[object, object]:
        """(official verdict, SEP-1730 verdict) of this signal."""
        raise NotImplementedError

    def official_fields(self) -> dict[str, Any]:
        """The official fields after `reason`, in the official JSON's order.

        By default every field declared before the first SEP-1730 one (``sep…``), in JSON form.
        """
        result: dict[str, Any] = {}
        for item in fields(self)[2:]:
            if item.name.startswith("sep"):
                break
            result[item.name] = _json_value(getattr(self, item.name))
        return result

    def sep1730_dict(self) -> dict[str, Any]:
        """The SEP-1730 reading's JSON form (by default its `sep1730` object's)."""
        reading: Any = getattr(self, "sep1730")  # noqa: B009 - declared by each subclass
        result: dict[str, Any] = reading.to_dict()
        return result

    def to_dict(self) -> dict[str, Any]:
        """Official fields first, then `sep1730` and the disagreement flag."""
        return {
            "status": self.status,
            "reason": self.reason,
            **self.official_fields(),
            "sep1730": {**self.sep1730_dict(), "departures": self.info.departures},
            "disagrees_with_official": self.disagrees_with_official,
        }


# --- small pure helpers --------------------------------------------------------------------


def round_to(value: float, places: int = 2) -> float:
    """Rounded so that the JSON is stable and readable; 0.01 h is finer than any SLA."""
    return round(value + 0.0, places)


def median(values: list[float]) -> float:
    """The median (mean of the middle two for an even count); 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `fraction` of values ≤ it."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def business_seconds(start: datetime, end: datetime) -> float:
    """Seconds between `start` and `end` that fall on Monday–Friday (UTC).

    Weekends do not count towards a business-day SLA; public holidays are not modelled (they
    differ per maintainer) and so count as business time.
    """
    if end <= start:
        return 0.0
    start = start.astimezone(UTC)
    end = end.astimezone(UTC)
    total = 0.0
    cursor = start
    # Whole weeks contribute exactly five business days: skip them instead of walking each day.
    whole_weeks = int((end - cursor).total_seconds() // (7 * DAY)) - 1
    if whole_weeks > 0:
        total += whole_weeks * 5 * DAY
        cursor += timedelta(weeks=whole_weeks)
    while cursor < end:
        midnight = datetime(cursor.year, cursor.month, cursor.day, tzinfo=UTC) + timedelta(days=1)
        segment_end = min(end, midnight)
        if cursor.weekday() < 5:
            total += (segment_end - cursor).total_seconds()
        cursor = segment_end
    return total


def in_days(delta: timedelta) -> float:
    """A duration in (fractional) days."""
    return delta.total_seconds() / DAY


def alias_map(config: SignalConfig) -> dict[str, str]:
    """The configured label aliases, both sides lower-cased."""
    return {repo.lower(): official.lower() for repo, official in config.label_aliases.items()}


def canonical(label: str, aliases: Mapping[str, str]) -> str:
    """The official label `label` stands for (lower case)."""
    lowered = label.lower()
    return aliases.get(lowered, lowered)


def open_at(issue: Issue, as_of: datetime) -> bool:
    """Whether the issue existed and was open at `as_of` (a snapshot may postdate as_of)."""
    if issue.created_at > as_of:
        return False
    return issue.closed_at is None or issue.closed_at > as_of


def _json_value(value: Any) -> Any:
    """A field's JSON form: a tuple becomes a list (of its items' dicts where they have one)."""
    if isinstance(value, tuple):
        return [item.to_dict() if hasattr(item, "to_dict") else item for item in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


def field_values(instance: Any) -> dict[str, Any]:
    """A dataclass's fields by name, in declaration order, in JSON form."""
    return {f.name: _json_value(getattr(instance, f.name)) for f in fields(instance)}


# --- JavaScript's arithmetic, where the official reading depends on it ------------------------

#: The characters JavaScript's `parseInt` skips before a number (StrWhiteSpaceChar).
_JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_round(value: float) -> int:
    """JavaScript's `Math.round`: the nearest integer, halves towards +∞ (2.5 → 3, -0.5 → 0).

    Python's `round` rounds halves to even, which the official code does not.
    """
    whole = math.floor(value)
    # value - floor(value) is exact for every double, so this has no rounding error of its own.
    return int(whole + 1) if value - whole >= 0.5 else int(whole)


def js_round_tenths(value: float) -> float:
    """``Math.round(value * 10) / 10``, the official one-decimal rounding of hours."""
    return js_round(value * 10) / 10


def js_parse_int(text: str) -> int | None:
    """JavaScript's ``parseInt(text, 10)``: leading ASCII digits after JS white space, else NaN.

    Python's `int` and `\\d` accept any Unicode digit (``٣``); JavaScript's do not.
    """
    rest = text.lstrip(_JS_SPACE)
    sign = -1 if rest[:1] == "-" else 1
    rest = rest[1:] if rest[:1] in {"-", "+"} else rest
    digits = len(rest) - len(rest.lstrip("0123456789"))
    return sign * int(rest[:digits]) if digits else None


def millis(moment: datetime) -> int:
    """A moment as JavaScript's `getTime()`: whole milliseconds since the epoch."""
    return (moment - _EPOCH) // timedelta(milliseconds=1)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
