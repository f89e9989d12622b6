"""The governance snapshot: normalised GitHub facts, dated, versioned and replayable.

A snapshot is what the collector writes and what every signal reads. It holds facts, not
verdicts: the same snapshot judged at the same `as_of` always gives the same signals, so a
recorded snapshot is the evidence behind a tier (and the seed of an offline re-run).

Each fact group (labels, issues, releases, spec releases, policy files) is either present or
`Unavailable` with the reason (rate limited, a 5xx, a 403, the network); the signals that need
an unavailable group are then *inconclusive*, never failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

from tiercheck.errors import ConfigError
from tiercheck.model import ModelError, doc_field, format_time, from_json, parse_time, to_json

__all__ = [
    "SCHEMA_VERSION",
    "Author",
    "DisputeFacts",
    "DisputedIssue",
    "Issue",
    "IssueEvent",
    "IssueFacts",
    "LabelEvent",
    "LabelFacts",
    "PolicyFileFacts",
    "Release",
    "ReleaseFacts",
    "Snapshot",
    "Timeline",
    "Unavailable",
    "dump_snapshot",
    "format_time",
    "load_snapshot",
    "parse_time",
    "save_snapshot",
    "snapshot_from_dict",
    "snapshot_to_dict",
    "validate_snapshot_data",
]

SCHEMA_VERSION: Final = 1


@dataclass(frozen=True)
class Unavailable:
    """A fact group we tried and failed to collect; `reason` is one line for the report."""

    json_tag: ClassVar = ("available", False)

    reason: str = doc_field(schema={"minLength": 1})


@dataclass(frozen=True)
class LabelFacts:
    """The repository's label names and whether it uses GitHub issue types."""

    json_tag: ClassVar = ("available", True)

    names: tuple[str, ...]
    uses_issue_types: bool


@dataclass(frozen=True)
class Author:
    """Who opened an issue: login, account type (``User``/``Bot``) and association."""

    login: str
    type: str
    association: str

    @property
    def is_bot(self) -> bool:
        """True for GitHub App and bot accounts (``type == "Bot"`` or a ``[bot]`` login)."""
        return self.type == "Bot" or self.login.endswith("[bot]")


@dataclass(frozen=True)
class LabelEvent:
    """One ``labeled``/``unlabeled`` event from an issue's timeline."""

    action: Literal["labeled", "unlabeled"]
    label: str
    at: datetime
    actor: str | None  # None when the actor's account was deleted ("ghost")
    actor_type: str | None

    @property
    def by_bot(self) -> bool:
        """True when a bot or GitHub App applied or removed the label."""
        return self.actor_type == "Bot" or (self.actor or "").endswith("[bot]")


@dataclass(frozen=True)
class Timeline:
    """What only an issue's timeline tells: when labels came and went, and the first response.

    `label_events` are in time order; `complete` is False when the issue had more label events
    than one query returns (the earliest ones are kept, which is what triage needs).
    `first_response_at` is the first comment by someone other than the author and not a bot.
    """

    label_events: tuple[LabelEvent, ...]
    complete: bool
    first_response_at: datetime | None


@dataclass(frozen=True)
class Issue:
    """One issue (never a pull request) with its current state and, if collected, its timeline.

    The file also shows `first_label_at`, derived from the timeline, for a person reading it.
    """

    json_computed: ClassVar = ("first_label_at",)

    number: int
    title: str
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None
    state: str = doc_field(schema={"enum": ["open", "closed"]})
    # "completed" | "not_planned" | "duplicate" | "reopened" | None
    state_reason: str | None = doc_field()
    author: Author = doc_field()
    labels: tuple[str, ...] = doc_field()
    timeline: Timeline | None = doc_field()

    @property
    def first_label_at(self) -> datetime | None:
        """When the issue first received any label (None if never, or no timeline)."""
        if self.timeline is None:
            return None
        for event in self.timeline.label_events:
            if event.action == "labeled":
                return event.at
        return None


@dataclass(frozen=True)
class IssueFacts:
    """Every issue of the repository (history included), oldest first.

    `timeline_reason` says why timelines are missing when `issues[i].timeline` is None for all
    issues (GraphQL needs a token; the timeline query failed). `truncated` marks a listing cut
    at the page bound: the oldest issues are kept.
    """

    json_tag: ClassVar = ("available", True)

    issues: tuple[Issue, ...] = doc_field(json="items")
    truncated: bool = doc_field()
    timeline_reason: str | None = doc_field()


@dataclass(frozen=True)
class Release:
    """One GitHub release as listed (newest first in API order)."""

    tag: str
    name: str | None
    draft: bool
    prerelease: bool
    created_at: datetime
    published_at: datetime | None


@dataclass(frozen=True)
class ReleaseFacts:
    """Releases in API order (newest created first); `truncated` if more pages existed."""

    json_tag: ClassVar = ("available", True)

    releases: tuple[Release, ...] = doc_field(json="items")
    truncated: bool = doc_field()


@dataclass(frozen=True)
class PolicyFileFacts:
    """Repository paths where policy files may live: the root, `.github/` and `docs/`.

    `source` is ``checkout`` (a local directory was walked) or ``git-tree`` (one recursive tree
    request); `truncated` is GitHub's flag for a tree too large to list in one response.
    """

    json_tag: ClassVar = ("available", True)

    paths: tuple[str, ...]
    source: Literal["checkout", "git-tree"]
    truncated: bool


@dataclass(frozen=True)
class IssueEvent:
    """One event of an issue's REST event list: a label came or went, the issue closed or
    reopened. `label` is set for ``labeled``/``unlabeled`` only."""

    action: Literal["labeled", "unlabeled", "closed", "reopened"]
    at: datetime
    label: str | None = doc_field(default=None, omit_none=True)


@dataclass(frozen=True)
class DisputedIssue:
    """An issue or pull request of the conformance repository labelled ``disputed``.

    `events` are its label and open/close events in time order, so whether the dispute was open
    on a given day can be replayed; `events_complete` is False when the event list was cut at
    the page bound (the earliest events are kept).
    """

    number: int
    title: str
    url: str
    state: str = doc_field(schema={"enum": ["open", "closed"]})
    pull_request: bool = doc_field()
    created_at: datetime = doc_field()
    closed_at: datetime | None = doc_field()
    labels: tuple[str, ...] = doc_field()
    events: tuple[IssueEvent, ...] = doc_field()
    events_complete: bool = doc_field()


@dataclass(frozen=True)
class DisputeFacts:
    """The conformance repository's issues labelled ``disputed`` (open and closed).

    `label` is the label asked for; `truncated` marks a listing cut at the page bound.
    """

    json_tag: ClassVar = ("available", True)

    repo: str
    label: str
    issues: tuple[DisputedIssue, ...] = doc_field(json="items")
    truncated: bool = doc_field()


@dataclass(frozen=True)
class Snapshot:
    """Normalised governance facts about one repository, captured at one moment."""

    repo: str = doc_field(schema={"pattern": r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$"})
    captured_at: datetime = doc_field()
    api_base: str = doc_field(schema={"minLength": 1})
    authenticated: bool = doc_field()
    labels: LabelFacts | Unavailable = doc_field()
    issues: IssueFacts | Unavailable = doc_field()
    releases: ReleaseFacts | Unavailable = doc_field()
    spec_releases: ReleaseFacts | Unavailable = doc_field()
    policy_files: PolicyFileFacts | Unavailable = doc_field()
    schema_version: Literal[1] = SCHEMA_VERSION
    notes: tuple[str, ...] = doc_field(default=(), optional=True)
    disputes: DisputeFacts | Unavailable | None = doc_field(
        default=None,
        omit_none=True,
        optional=True,
        doc="the conformance repository's disputed issues (absent: not collected)",
    )


# --- serialisation (the typed model: `tiercheck.model`) -------------------------------------


def snapshot_to_dict(snapshot: Snapshot) -> dict[str, Any]:
    """The JSON-ready form of a snapshot (its schema is generated from these classes)."""
    data: dict[str, Any] = to_json(snapshot)
    return data


def dump_snapshot(snapshot: Snapshot) -> str:
    """Serialise deterministically: sorted keys, two-space indent, trailing newline."""
    text = json.dumps(snapshot_to_dict(snapshot), indent=2, sort_keys=True, ensure_ascii=False)
    return text + "\n"


def snapshot_from_dict(data: object, source: str = "snapshot") -> Snapshot:
    """A snapshot from its JSON form; a one-line `ConfigError` naming `source` and the path."""
    try:
        return from_json(Snapshot, data)
    except ModelError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def validate_snapshot_data(data: Any, *, source: str) -> None:
    """Raise `ConfigError` naming `source`, the JSON path and the problem if `data` is invalid:
    the generated schema first (patterns, lengths and enums a type cannot say), then the model."""
    import jsonschema
    from jsonschema.exceptions import best_match

    from tiercheck.config.validate import load_schema

    validator = jsonschema.Draft202012Validator(load_schema("governance_snapshot"))
    error = best_match(validator.iter_errors(data))
    if error is not None:
        msg = f"{source}: {error.json_path}: {error.message}"
        raise ConfigError(msg)
    snapshot_from_dict(data, source)


def load_snapshot(path: Path) -> Snapshot:
    """Read and validate a snapshot file; any problem is a one-line `ConfigError`."""
    from tiercheck.config.safeload import load_json

    # The one safe loader: UTF-8, nesting depth and size are checked before the schema.
    data = load_json(path, what="snapshot")
    validate_snapshot_data(data, source=str(path))
    return snapshot_from_dict(data, str(path))


def save_snapshot(snapshot: Snapshot, path: Path) -> None:
    """Write a snapshot atomically (a temporary file renamed into place)."""
    from tiercheck import durable

    durable.write_text(path, dump_snapshot(snapshot))
