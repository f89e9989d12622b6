"""Loading the reviewed disputes file (`requirements/disputes.yaml`).

The conformance repository records a dispute only as an issue labelled ``disputed``; nothing
machine-readable says which scenario it concerns. This file is that link, kept by a person::

    disputes:
      - scenario: tools-call-image
        leg: server
        revisions: ["2026-07-28"]
        issue: https://github.com/modelcontextprotocol/conformance/issues/123
        reason: the check requires a MIME type the spec leaves open
        disputed_since: "2026-09-01"      # when the label went on, as reviewed
        resolved_on: "2026-10-01"         # optional: when it came off or the issue closed
        reviewed_by: someone
        reviewed_on: "2026-09-02"

It is validated against `tiercheck/schemas/disputes.schema.json` on load; any problem is one
`ConfigError` line naming the file and the entry. The dates decide only when the governance
snapshot lacks the issue (`tiercheck.governance.disputes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Final

from tiercheck.config.validate import validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError
from tiercheck.paths import data_path
from tiercheck.revisions import Leg, is_known_revision, unknown_revision

__all__ = [
    "CONFORMANCE_REPO",
    "DisputeEntry",
    "default_disputes_path",
    "issue_number",
    "load_disputes",
    "parse_disputes",
]


#: Where SEP-1730's disputes live: every dispute's issue is one of this repository's.
CONFORMANCE_REPO: Final = "modelcontextprotocol/conformance"


@dataclass(frozen=True)
class DisputeEntry:
    """One reviewed dispute: the scenario (on one leg, at some revisions) and its issue."""

    scenario: str
    leg: Leg
    revisions: tuple[str, ...]
    issue: str
    reason: str
    disputed_since: date
    resolved_on: date | None
    reviewed_by: str
    reviewed_on: date


def issue_number(url: str) -> int:
    """The issue or pull request number at the end of a dispute's URL."""
    return int(url.rstrip("/").rsplit("/", 1)[1])


def _date(source: str, where: str, text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        msg = f"{source}: {where}: {text!r} is not a calendar date (YYYY-MM-DD)"
        raise ConfigError(msg) from None


def parse_disputes(data: object, source: str) -> tuple[DisputeEntry, ...]:
    """Validated entries from the file's parsed YAML; one-line `ConfigError` on any problem."""
    validate(data, "disputes", source)
    assert isinstance(data, dict)
    entries: list[DisputeEntry] = []
    for index, raw in enumerate(data.get("disputes") or []):
        where = f"disputes[{index}]"
        for revision in raw["revisions"]:
            if not is_known_revision(revision):
                msg = f"{source}: {where}.revisions: {unknown_revision(revision)}"
                raise ConfigError(msg)
        since = _date(source, f"{where}.disputed_since", raw["disputed_since"])
        resolved = raw.get("resolved_on")
        resolved_on = None if resolved is None else _date(source, f"{where}.resolved_on", resolved)
        if resolved_on is not None and resolved_on < since:
            msg = f"{source}: {where}.resolved_on: {resolved} is before disputed_since {since}"
            raise ConfigError(msg)
        entries.append(
            DisputeEntry(
                scenario=raw["scenario"],
                leg=raw["leg"],
                revisions=tuple(raw["revisions"]),
                issue=raw["issue"],
                reason=raw["reason"],
                disputed_since=since,
                resolved_on=resolved_on,
                reviewed_by=raw["reviewed_by"],
                reviewed_on=_date(source, f"{where}.reviewed_on", raw["reviewed_on"]),
            )
        )
    return tuple(entries)


def default_disputes_path() -> Path:
    """The shipped, reviewed file: `requirements/disputes.yaml`."""
    return data_path("requirements", "disputes.yaml")


def load_disputes(path: Path) -> tuple[DisputeEntry, ...]:
    """Read and validate a disputes file."""
    return parse_disputes(load_yaml(path), str(path))
