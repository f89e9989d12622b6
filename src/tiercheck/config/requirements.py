"""Frozen requirement sets: what each spec revision requires, per leg."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tiercheck.revisions import Leg

__all__ = ["NotScored", "NotScoredReason", "RequirementSet"]

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
