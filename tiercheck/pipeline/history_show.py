"""`tier-check history --sdk NAME`: one SDK line's history as it stood at a moment, rendered.

The window (`--since`: an age such as 8w, 30d, 12h before the moment, or a date) and the
moment (`--as-of`: a date or a time; default now) are read here. Here the history is the whole
point of the command: a database that cannot be read is a usage error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from tiercheck.document_formats import HISTORY_FORMATS
from tiercheck.errors import UsageError
from tiercheck.history.record import EARLIEST, LATEST, parse_time
from tiercheck.history.report import history_report
from tiercheck.history.store import HistoryError, HistoryStore
from tiercheck.pipeline.assess.clock import now_utc

__all__ = ["HistoryShowRequest", "ShowOutcome", "moment", "show_history", "since"]

_SINCE = re.compile(r"^(\d+)([hdw])$")
_UNITS = {"h": "hours", "d": "days", "w": "weeks"}


@dataclass(frozen=True)
class HistoryShowRequest:
    """`tier-check history --sdk NAME [--since …] [--as-of …] [--output …]`."""

    database: Path
    #: The SDK line to show; None lists the lines the database holds, in the refusal.
    sdk: str | None = None
    #: `--since` as given: an age before the moment (8w, 30d, 12h) or a date or time.
    since: str | None = None
    #: `--as-of` as given: a date or time; None: now.
    as_of: str | None = None
    #: A `HISTORY_FORMATS` name.
    output: str = HISTORY_FORMATS.default


@dataclass(frozen=True)
class ShowOutcome:
    """The rendered history and the exit code."""

    text: str
    exit_code: int = 0


def moment(text: str, flag: str) -> datetime:
    """A date (the end of that day, UTC) or an ISO time; UsageError naming `flag` otherwise."""
    try:
        return parse_time(text if "T" in text else f"{text}T23:59:59Z")
    except ValueError:
        msg = (
            f"{flag} {text!r}: expected a date (2026-10-01) or a time (2026-10-01T07:00:00Z) "
            f"between {EARLIEST.date()} and {LATEST.date()}"
        )
        raise UsageError(msg) from None


def since(text: str | None, as_of: datetime) -> datetime | None:
    """The start of the window: an age back from `as_of`, or a date (its first second) or a
    time; None when not given."""
    if text is None:
        return None
    matched = _SINCE.match(text.strip())
    if matched:
        try:
            return as_of - timedelta(**{_UNITS[matched.group(2)]: int(matched.group(1))})
        except OverflowError:
            msg = f"--since {text!r}: reaches back beyond the calendar; give a shorter age"
            raise UsageError(msg) from None
    start = moment(text, "--since")
    return start.replace(hour=0, minute=0, second=0) if "T" not in text else start


def show_history(request: HistoryShowRequest) -> ShowOutcome:
    """The history report of the line, rendered in the requested format."""
    as_of = moment(request.as_of, "--as-of") if request.as_of else now_utc()
    start = since(request.since, as_of)
    store = HistoryStore(request.database)
    try:
        if not request.sdk:
            known = ", ".join(store.sdks()) or "none yet"
            msg = f"history: --sdk NAME is required (lines in {store.path}: {known})"
            raise UsageError(msg)
        runs = store.runs(request.sdk)
    except HistoryError as exc:
        raise UsageError(str(exc)) from None
    report = history_report(
        runs, sdk=request.sdk, database=str(store.path), as_of=as_of, since=start
    )
    return ShowOutcome(text=HISTORY_FORMATS.get(request.output).render(report, False))
