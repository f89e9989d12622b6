"""Which conformance scenarios are disputed on a given day (pure: no I/O, no clock).

SEP-1730's rules (docs/community/sdk-tiers.mdx, 2026-06-04) score conformance "excluding tests
labeled `disputed` in the conformance repository, until the dispute is resolved". The
conformance repository records a dispute only as an issue (or pull request) carrying the
``disputed`` label; nothing machine-readable links that issue to a scenario. So two sources are
combined:

* the reviewed data file (`tiercheck.config.disputes`): which scenario, at which revisions and
  on which leg, each dispute concerns, with the reviewer's reading of when it opened and closed;
* the governance snapshot's `disputes` facts: the issues labelled ``disputed`` with their
  label and open/close events, so whether a dispute was open on a day can be replayed.

A scenario is disputed on a day when a data-file entry names it and its issue was open and
labelled ``disputed`` that day per the snapshot (`verified`). When the snapshot does not have
the issue (not collected, unavailable, or not listed), the data file's own dates are all there
is: the mark says so (`verified` False, shown as "unverified") rather than guessing. An issue
whose event list was cut at the page bound (`events_complete` False) is replayed from the
events kept, the earliest, and is unverified too: a later close or unlabel may be missing.

`recorded_disputes` is what `tier-check governance` reports: every disputed issue the snapshot
recorded and every issue the data file names, each with its state on the day and the
scenarios the data file links it to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from tiercheck.config.disputes import CONFORMANCE_REPO, DisputeEntry, issue_number
from tiercheck.governance.snapshot import DisputedIssue, DisputeFacts, IssueEvent, Unavailable

__all__ = [
    "CONFORMANCE_REPO",
    "DISPUTED_LABEL",
    "DisputeListing",
    "DisputeMark",
    "DisputeState",
    "RecordedDispute",
    "disputes_on",
    "issue_open_on",
    "recorded_disputes",
]

#: Where SEP-1730's `disputed` label lives, and the label's name.
DISPUTED_LABEL: Final = "disputed"

DisputeState = Literal["open", "resolved"]


@dataclass(frozen=True)
class DisputeMark:
    """One scenario's dispute on the day judged.

    `state` is ``open`` (the scenario is left out of the SEP-1730 reading) or ``resolved`` (it
    counts again); `verified` says whether the snapshot confirmed it (else the data file's dates
    alone decided); `why` is one line on how the state was decided. `title` is the issue's title
    from the snapshot (untrusted text), None when the snapshot lacks the issue.
    """

    state: DisputeState
    verified: bool
    issue: str
    reason: str
    why: str
    title: str | None = None

    @property
    def excluded(self) -> bool:
        """Whether the scenario is left out of the SEP-1730 reading on the day judged."""
        return self.state == "open"


def _labelled_on(issue: DisputedIssue, label: str, at: datetime) -> bool:
    """Whether `label` was on the issue at `at`, replayed from its label events.

    Without a single event for the label (a listing whose events were cut, or a label put on at
    creation without an event), an issue listed under the label is taken to have had it since
    it was created.
    """
    events = [e for e in issue.events if e.label is not None and e.label.lower() == label.lower()]
    if not events:
        return True
    return _replayed(events, at, "labeled")


def _closed_on(issue: DisputedIssue, at: datetime) -> bool:
    """Whether the issue was closed at `at`, replayed from its close/reopen events."""
    events = [e for e in issue.events if e.action in ("closed", "reopened")]
    if not events:
        return issue.closed_at is not None and issue.closed_at <= at
    return _replayed(events, at, "closed")


def _replayed(events: Sequence[IssueEvent], at: datetime, turned_on_by: str) -> bool:
    """Whether the last of `events` (oldest first) up to `at` is `turned_on_by`."""
    state = False
    for event in events:
        if event.at > at:
            break
        state = event.action == turned_on_by
    return state


def issue_open_on(issue: DisputedIssue, at: datetime, label: str = DISPUTED_LABEL) -> bool:
    """Whether the dispute was open at `at`: the issue existed, was not closed and carried
    `label`."""
    return issue.created_at <= at and not _closed_on(issue, at) and _labelled_on(issue, label, at)


def _file_state(entry: DisputeEntry, at: datetime) -> DisputeState:
    day = at.date()
    opened = entry.disputed_since <= day
    closed = entry.resolved_on is not None and entry.resolved_on <= day
    return "open" if opened and not closed else "resolved"


def _unverified_reason(facts: DisputeFacts | Unavailable | None) -> str:
    if facts is None:
        return "the governance snapshot has no disputes recorded"
    if isinstance(facts, Unavailable):
        return f"the conformance repository's disputes were unavailable ({facts.reason})"
    cut = " (its listing was cut at the page bound)" if facts.truncated else ""
    return f"the snapshot lists no such issue labelled {facts.label!r} in {facts.repo}{cut}"


def _snapshot_issue(facts: DisputeFacts | Unavailable | None, number: int) -> DisputedIssue | None:
    if not isinstance(facts, DisputeFacts):
        return None
    return next((i for i in facts.issues if i.number == number), None)


def _issue_state(issue: DisputedIssue, label: str, at: datetime) -> tuple[DisputeState, bool, str]:
    """(state, verified, why) of a disputed issue the snapshot recorded, on `at`."""
    state: DisputeState = "open" if issue_open_on(issue, at, label) else "resolved"
    day = f"{at:%Y-%m-%d}"
    if not issue.events_complete:
        why = (
            f"unverified: issue #{issue.number}'s event list was cut at the page bound, so "
            f"{state} on {day} is replayed from its earliest events only (a later close or "
            "unlabel may be missing)"
        )
        return state, False, why
    why = f"issue #{issue.number} was {state} (labelled {label!r}) on {day} per the snapshot"
    return state, True, why


def _mark(
    entry: DisputeEntry, facts: DisputeFacts | Unavailable | None, at: datetime
) -> DisputeMark:
    issue = _snapshot_issue(facts, issue_number(entry.issue))
    if issue is None:
        state = _file_state(entry, at)
        day = f"{at:%Y-%m-%d}"
        why = f"unverified: {_unverified_reason(facts)}; the data file's dates say {state} on {day}"
        return DisputeMark(state, False, entry.issue, entry.reason, why)
    assert isinstance(facts, DisputeFacts)
    state, verified, why = _issue_state(issue, facts.label, at)
    return DisputeMark(state, verified, entry.issue, entry.reason, why, issue.title)


def disputes_on(
    entries: Iterable[DisputeEntry],
    facts: DisputeFacts | Unavailable | None,
    at: datetime,
) -> Mapping[tuple[str, str, str], DisputeMark]:
    """(revision, leg, scenario) → its dispute on `at`, for every scenario an entry names.

    Only scenarios named by the data file are marked: a ``disputed`` issue the file does not
    link to a scenario excludes nothing (there is no reviewed scenario to exclude).
    """
    marks: dict[tuple[str, str, str], DisputeMark] = {}
    for entry in entries:
        mark = _mark(entry, facts, at)
        for revision in entry.revisions:
            key = (revision, entry.leg, entry.scenario)
            previous = marks.get(key)
            # Two entries for one scenario: an open dispute wins over a resolved one.
            if previous is None or (mark.excluded and not previous.excluded):
                marks[key] = mark
    return marks


@dataclass(frozen=True)
class RecordedDispute:
    """One disputed issue as `tier-check governance` reports it, on the day judged.

    `recorded` says whether the snapshot has the issue (else only the data file names it, and
    its state is the data file's dates, unverified); `scenarios` are what the data file links
    it to, as ``leg scenario @ revision`` (none: a ``disputed`` issue no entry links, which
    excludes nothing). `title` is the issue's title from GitHub (untrusted text).
    """

    number: int
    url: str
    title: str | None
    pull_request: bool | None
    recorded: bool
    state: DisputeState
    verified: bool
    why: str
    scenarios: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """Its JSON form in the `governance` document."""
        return {
            "number": self.number,
            "url": self.url,
            "title": self.title,
            "pull_request": self.pull_request,
            "recorded": self.recorded,
            "state": self.state,
            "verified": self.verified,
            "why": self.why,
            "scenarios": list(self.scenarios),
        }


@dataclass(frozen=True)
class DisputeListing:
    """What the snapshot recorded of the conformance repository's disputes, judged on one day.

    `status` is ``recorded`` (the listing is in the snapshot), ``unavailable`` (it could not be
    collected: `reason` says why) or ``not recorded`` (an older snapshot, or not collected).
    """

    repo: str
    label: str
    status: Literal["recorded", "unavailable", "not recorded"]
    reason: str | None
    truncated: bool
    items: tuple[RecordedDispute, ...]

    def to_dict(self) -> dict[str, object]:
        """Its JSON form: the `disputes` key of the `governance` document."""
        return {
            "repo": self.repo,
            "label": self.label,
            "status": self.status,
            "reason": self.reason,
            "truncated": self.truncated,
            "items": [item.to_dict() for item in self.items],
        }


def _scenario_text(entry: DisputeEntry) -> tuple[str, ...]:
    return tuple(f"{entry.leg} {entry.scenario} @ {revision}" for revision in entry.revisions)


def recorded_disputes(
    entries: Iterable[DisputeEntry],
    facts: DisputeFacts | Unavailable | None,
    at: datetime,
) -> DisputeListing:
    """Every disputed issue the snapshot recorded, then every issue only the data file names,
    each with its state on `at` and the scenarios the data file links it to (by issue
    number)."""
    entries = tuple(entries)
    linked: dict[int, list[DisputeEntry]] = {}
    for entry in entries:
        linked.setdefault(issue_number(entry.issue), []).append(entry)
    items: list[RecordedDispute] = []
    label = facts.label if isinstance(facts, DisputeFacts) else DISPUTED_LABEL
    seen: set[int] = set()
    if isinstance(facts, DisputeFacts):
        for issue in facts.issues:
            seen.add(issue.number)
            state, verified, why = _issue_state(issue, facts.label, at)
            scenarios = tuple(s for e in linked.get(issue.number, ()) for s in _scenario_text(e))
            items.append(
                RecordedDispute(
                    number=issue.number,
                    url=issue.url,
                    title=issue.title,
                    pull_request=issue.pull_request,
                    recorded=True,
                    state=state,
                    verified=verified,
                    why=why,
                    scenarios=scenarios,
                )
            )
    for number, group in sorted(linked.items()):
        if number in seen:
            continue
        # Two entries for one issue agree on it: an open one wins (as `disputes_on` does).
        marks = [_mark(e, facts, at) for e in group]
        mark = next((m for m in marks if m.excluded), marks[0])
        items.append(
            RecordedDispute(
                number=number,
                url=group[0].issue,
                title=None,
                pull_request=None,
                recorded=False,
                state=mark.state,
                verified=False,
                why=mark.why,
                scenarios=tuple(s for e in group for s in _scenario_text(e)),
            )
        )
    if facts is None:
        return DisputeListing(CONFORMANCE_REPO, label, "not recorded", None, False, tuple(items))
    if isinstance(facts, Unavailable):
        return DisputeListing(
            CONFORMANCE_REPO, label, "unavailable", facts.reason, False, tuple(items)
        )
    return DisputeListing(facts.repo, label, "recorded", None, facts.truncated, tuple(items))
