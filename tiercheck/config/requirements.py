"""Frozen requirement sets: what each spec revision requires, per leg."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tiercheck.config.validate import validate
from tiercheck.config.yamlio import load_yaml
from tiercheck.errors import ConfigError
from tiercheck.revisions import Leg, is_known_revision, requirements_dir, unknown_revision

__all__ = [
    "NotScored",
    "NotScoredReason",
    "RequirementSet",
    "load_requirement_set",
    "requirement_set_path",
]

NotScoredReason = Literal["extension", "added-after-release", "pending"]


@dataclass(frozen=True)
class NotScored:
    """A scenario that runs and is reported but never counts toward a pass rate."""

    scenario: str
    leg: Leg
    reason: NotScoredReason
    note: str | None = None


@dataclass(frozen=True)
class RequirementSet:
    """The scenarios one spec revision requires (scored) and runs without scoring."""

    revision: str
    server: tuple[str, ...]
    client: tuple[str, ...]
    not_scored: tuple[NotScored, ...]

    def scored(self, leg: Leg) -> tuple[str, ...]:
        """The scored scenarios of a leg, in file order."""
        return self.server if leg == "server" else self.client

    def not_scored_on(self, leg: Leg) -> dict[str, NotScored]:
        """Not-scored entries of a leg, by scenario name."""
        return {e.scenario: e for e in self.not_scored if e.leg == leg}

    def expected(self, leg: Leg) -> tuple[str, ...]:
        """Every scenario the harness runs on this leg: scored first, then not scored."""
        return self.scored(leg) + tuple(self.not_scored_on(leg))


def requirement_set_path(revision: str) -> Path:
    """Where the frozen set for `revision` lives: beside `revisions.yaml` (top-level
    `requirements/`, or the folder `TIERCHECK_REQUIREMENTS` names)."""
    return requirements_dir() / f"{revision}.yaml"


def load_requirement_set(revision: str, path: Path | None = None) -> RequirementSet:
    """Load and validate the requirement set of a known revision.

    Beyond the schema (unknown keys, types, duplicates within a list): a not_scored entry that is
    also scored on its leg, a scenario listed twice under not_scored, and an empty set are
    rejected, each as one line naming the file and the entry.
    """
    if not is_known_revision(revision):
        raise ConfigError(unknown_revision(revision))
    source = path or requirement_set_path(revision)
    raw = load_yaml(source)
    validate(raw, "requirements", str(source))
    assert isinstance(raw, dict)  # the schema says so
    server = tuple(raw.get("server") or ())
    client = tuple(raw.get("client") or ())
    if not server and not client:
        msg = f"{source}: server, client: the requirement set is empty; list the scored scenarios"
        raise ConfigError(msg)
    entries: list[NotScored] = []
    seen: set[tuple[str, str]] = set()
    for index, item in enumerate(raw.get("not_scored") or ()):
        entry = NotScored(item["scenario"], item["leg"], item["reason"], item.get("note"))
        where = f"{source}: not_scored[{index}]"
        if (entry.scenario, entry.leg) in seen:
            msg = f"{where}: {entry.scenario!r} ({entry.leg}) is listed twice"
            raise ConfigError(msg)
        seen.add((entry.scenario, entry.leg))
        scored = server if entry.leg == "server" else client
        if entry.scenario in scored:
            msg = (
                f"{where}: {entry.scenario!r} is also scored under {entry.leg}; "
                "a scenario is either scored or not scored"
            )
            raise ConfigError(msg)
        entries.append(entry)
    return RequirementSet(revision, server, client, tuple(entries))
