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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from tiercheck.errors import ConfigError

__all__ = [
    "SCHEMA_VERSION",
    "Author",
    "Issue",
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

SCHEMA_VERSION = 1


def parse_time(text: str) -> datetime:
    """Parse a GitHub ISO-8601 timestamp (``2025-01-02T03:04:05Z``) into an aware UTC datetime."""
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def format_time(value: datetime) -> str:
    """Format an aware datetime as GitHub does: UTC, second precision, a ``Z`` suffix."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _opt_time(text: str | None) -> datetime | None:
    return None if text is None else parse_time(text)


def _opt_format(value: datetime | None) -> str | None:
    return None if value is None else format_time(value)


@dataclass(frozen=True)
class Unavailable:
    """A fact group we tried and failed to collect; `reason` is one line for the report."""

    reason: str


@dataclass(frozen=True)
class LabelFacts:
    """The repository's label names and whether it uses GitHub issue types."""

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

    action: str  # "labeled" | "unlabeled"
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
    """One issue (never a pull request) with its current state and, if collected, its timeline."""

    number: int
    title: str
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None
    state: str  # "open" | "closed"
    state_reason: str | None  # "completed" | "not_planned" | "duplicate" | "reopened" | None
    author: Author
    labels: tuple[str, ...]
    timeline: Timeline | None

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

    issues: tuple[Issue, ...]
    truncated: bool
    timeline_reason: str | None


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

    releases: tuple[Release, ...]
    truncated: bool


@dataclass(frozen=True)
class PolicyFileFacts:
    """Repository paths where policy files may live: the root, `.github/` and `docs/`.

    `source` is ``checkout`` (a local directory was walked) or ``git-tree`` (one recursive tree
    request); `truncated` is GitHub's flag for a tree too large to list in one response.
    """

    paths: tuple[str, ...]
    source: str
    truncated: bool


@dataclass(frozen=True)
class Snapshot:
    """Normalised governance facts about one repository, captured at one moment."""

    repo: str
    captured_at: datetime
    api_base: str
    authenticated: bool
    labels: LabelFacts | Unavailable
    issues: IssueFacts | Unavailable
    releases: ReleaseFacts | Unavailable
    spec_releases: ReleaseFacts | Unavailable
    policy_files: PolicyFileFacts | Unavailable
    schema_version: int = SCHEMA_VERSION
    notes: tuple[str, ...] = field(default=())


# --- serialisation -------------------------------------------------------------------------


def _unavailable(group: Unavailable) -> dict[str, Any]:
    return {"available": False, "reason": group.reason}


def _release_to_dict(release: Release) -> dict[str, Any]:
    return {
        "tag": release.tag,
        "name": release.name,
        "draft": release.draft,
        "prerelease": release.prerelease,
        "created_at": format_time(release.created_at),
        "published_at": _opt_format(release.published_at),
    }


def _releases_to_dict(group: ReleaseFacts | Unavailable) -> dict[str, Any]:
    if isinstance(group, Unavailable):
        return _unavailable(group)
    return {
        "available": True,
        "truncated": group.truncated,
        "items": [_release_to_dict(r) for r in group.releases],
    }


def _timeline_to_dict(timeline: Timeline | None) -> dict[str, Any] | None:
    if timeline is None:
        return None
    return {
        "label_events": [
            {
                "action": e.action,
                "label": e.label,
                "at": format_time(e.at),
                "actor": e.actor,
                "actor_type": e.actor_type,
            }
            for e in timeline.label_events
        ],
        "complete": timeline.complete,
        "first_response_at": _opt_format(timeline.first_response_at),
    }


def _issue_to_dict(issue: Issue) -> dict[str, Any]:
    return {
        "number": issue.number,
        "title": issue.title,
        "created_at": format_time(issue.created_at),
        "updated_at": format_time(issue.updated_at),
        "closed_at": _opt_format(issue.closed_at),
        "state": issue.state,
        "state_reason": issue.state_reason,
        "author": {
            "login": issue.author.login,
            "type": issue.author.type,
            "association": issue.author.association,
        },
        "labels": list(issue.labels),
        "first_label_at": _opt_format(issue.first_label_at),
        "timeline": _timeline_to_dict(issue.timeline),
    }


def snapshot_to_dict(snapshot: Snapshot) -> dict[str, Any]:
    """The JSON-ready form of a snapshot (validated by `governance_snapshot.schema.json`)."""
    labels: dict[str, Any]
    if isinstance(snapshot.labels, Unavailable):
        labels = _unavailable(snapshot.labels)
    else:
        labels = {
            "available": True,
            "names": list(snapshot.labels.names),
            "uses_issue_types": snapshot.labels.uses_issue_types,
        }
    issues: dict[str, Any]
    if isinstance(snapshot.issues, Unavailable):
        issues = _unavailable(snapshot.issues)
    else:
        issues = {
            "available": True,
            "truncated": snapshot.issues.truncated,
            "timeline_reason": snapshot.issues.timeline_reason,
            "items": [_issue_to_dict(i) for i in snapshot.issues.issues],
        }
    policy: dict[str, Any]
    if isinstance(snapshot.policy_files, Unavailable):
        policy = _unavailable(snapshot.policy_files)
    else:
        policy = {
            "available": True,
            "source": snapshot.policy_files.source,
            "truncated": snapshot.policy_files.truncated,
            "paths": list(snapshot.policy_files.paths),
        }
    return {
        "schema_version": snapshot.schema_version,
        "captured_at": format_time(snapshot.captured_at),
        "api_base": snapshot.api_base,
        "authenticated": snapshot.authenticated,
        "repo": snapshot.repo,
        "notes": list(snapshot.notes),
        "labels": labels,
        "issues": issues,
        "releases": _releases_to_dict(snapshot.releases),
        "spec_releases": _releases_to_dict(snapshot.spec_releases),
        "policy_files": policy,
    }


def dump_snapshot(snapshot: Snapshot) -> str:
    """Serialise deterministically: sorted keys, two-space indent, trailing newline."""
    text = json.dumps(snapshot_to_dict(snapshot), indent=2, sort_keys=True, ensure_ascii=False)
    return text + "\n"


def _release_from_dict(data: dict[str, Any]) -> Release:
    return Release(
        tag=data["tag"],
        name=data["name"],
        draft=data["draft"],
        prerelease=data["prerelease"],
        created_at=parse_time(data["created_at"]),
        published_at=_opt_time(data["published_at"]),
    )


def _releases_from_dict(data: dict[str, Any]) -> ReleaseFacts | Unavailable:
    if not data["available"]:
        return Unavailable(data["reason"])
    return ReleaseFacts(
        releases=tuple(_release_from_dict(r) for r in data["items"]),
        truncated=data["truncated"],
    )


def _timeline_from_dict(data: dict[str, Any] | None) -> Timeline | None:
    if data is None:
        return None
    return Timeline(
        label_events=tuple(
            LabelEvent(
                action=e["action"],
                label=e["label"],
                at=parse_time(e["at"]),
                actor=e["actor"],
                actor_type=e["actor_type"],
            )
            for e in data["label_events"]
        ),
        complete=data["complete"],
        first_response_at=_opt_time(data["first_response_at"]),
    )


def _issue_from_dict(data: dict[str, Any]) -> Issue:
    author = data["author"]
    return Issue(
        number=data["number"],
        title=data["title"],
        created_at=parse_time(data["created_at"]),
        updated_at=parse_time(data["updated_at"]),
        closed_at=_opt_time(data["closed_at"]),
        state=data["state"],
        state_reason=data["state_reason"],
        author=Author(
            login=author["login"], type=author["type"], association=author["association"]
        ),
        labels=tuple(data["labels"]),
        timeline=_timeline_from_dict(data["timeline"]),
    )


def snapshot_from_dict(data: dict[str, Any]) -> Snapshot:
    """Build a snapshot from its JSON form. The caller validates first (see `load_snapshot`)."""
    labels_data = data["labels"]
    labels: LabelFacts | Unavailable
    if labels_data["available"]:
        labels = LabelFacts(
            names=tuple(labels_data["names"]), uses_issue_types=labels_data["uses_issue_types"]
        )
    else:
        labels = Unavailable(labels_data["reason"])
    issues_data = data["issues"]
    issues: IssueFacts | Unavailable
    if issues_data["available"]:
        issues = IssueFacts(
            issues=tuple(_issue_from_dict(i) for i in issues_data["items"]),
            truncated=issues_data["truncated"],
            timeline_reason=issues_data["timeline_reason"],
        )
    else:
        issues = Unavailable(issues_data["reason"])
    policy_data = data["policy_files"]
    policy: PolicyFileFacts | Unavailable
    if policy_data["available"]:
        policy = PolicyFileFacts(
            paths=tuple(policy_data["paths"]),
            source=policy_data["source"],
            truncated=policy_data["truncated"],
        )
    else:
        policy = Unavailable(policy_data["reason"])
    return Snapshot(
        schema_version=data["schema_version"],
        repo=data["repo"],
        captured_at=parse_time(data["captured_at"]),
        api_base=data["api_base"],
        authenticated=data["authenticated"],
        notes=tuple(data.get("notes", ())),
        labels=labels,
        issues=issues,
        releases=_releases_from_dict(data["releases"]),
        spec_releases=_releases_from_dict(data["spec_releases"]),
        policy_files=policy,
    )


# --- files and validation ------------------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    text = (
        resources.files("tiercheck")
        .joinpath("schemas/governance_snapshot.schema.json")
        .read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


def validate_snapshot_data(data: Any, *, source: str) -> None:
    """Raise `ConfigError` naming `source`, the JSON path and the problem if `data` is invalid."""
    import jsonschema
    from jsonschema.exceptions import best_match

    validator = jsonschema.Draft202012Validator(
        _schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    error = best_match(validator.iter_errors(data))
    if error is not None:
        msg = f"{source}: {error.json_path}: {error.message}"
        raise ConfigError(msg)
    # The schema cannot say "a parseable timestamp" precisely enough across validators, so the
    # timestamps are parsed here too and a bad one is reported like any other schema error.
    try:
        snapshot_from_dict(data)
    except ValueError as exc:
        msg = f"{source}: $: invalid timestamp ({exc})"
        raise ConfigError(msg) from exc


def load_snapshot(path: Path) -> Snapshot:
    """Read and validate a snapshot file; any problem is a one-line `ConfigError`."""
    from tiercheck.config.safeload import load_json

    # The one safe loader: UTF-8, nesting depth and size are checked before the schema.
    data = load_json(path, what="snapshot")
    if not isinstance(data, dict):
        msg = f"{path}: $: expected a snapshot object, got {type(data).__name__}"
        raise ConfigError(msg)
    validate_snapshot_data(data, source=str(path))
    return snapshot_from_dict(data)


def save_snapshot(snapshot: Snapshot, path: Path) -> None:
    """Write a snapshot atomically (a temporary file renamed into place)."""
    text = dump_snapshot(snapshot)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
