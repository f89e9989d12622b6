"""Which legs of a revision would run, and why each other one would not.

The one answer, read from a revision's resolved configuration, that the preview (`show-config`,
`doctor`), the assessment's early stop (`legs.nothing_to_run`, exit 3 before any build) and its
skipped legs all give: a leg with no command is skipped with the reason `unconfigured` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tiercheck.config.resolve import RevisionConfig
from tiercheck.revisions import LEGS, Leg

__all__ = ["LegsToRun", "legs_to_run", "nothing_would_run", "unconfigured"]


def unconfigured(config: RevisionConfig, leg: Leg, *, server_url: str | None = None) -> str | None:
    """Why `leg` has nothing to run at this revision (the reason it is skipped), or None.

    `server_url`: a server already running (`--conformance-server-url`) serves the server leg.
    """
    if leg == "server":
        if server_url is None and not (config.server_command and config.server_url):
            return "no server command/url configured"
        return None
    if not config.client_command:
        return "no client command configured"
    return None


@dataclass(frozen=True)
class LegsToRun:
    """One revision's legs, each with why it would be skipped (None: it would run)."""

    revision: str
    #: Every leg, in the order of `revisions.LEGS`, with its reason or None.
    legs: tuple[tuple[Leg, str | None], ...]

    @property
    def runs(self) -> tuple[Leg, ...]:
        """The legs that would run."""
        return tuple(leg for leg, reason in self.legs if reason is None)

    @property
    def skipped(self) -> tuple[tuple[Leg, str], ...]:
        """The legs that would be skipped, each with its reason."""
        return tuple((leg, reason) for leg, reason in self.legs if reason is not None)

    def why_not(self, leg: Leg) -> str | None:
        """Why `leg` would be skipped, or None when it would run."""
        return dict(self.legs)[leg]


def legs_to_run(config: RevisionConfig, *, server_url: str | None = None) -> LegsToRun:
    """Which legs would run at `config`'s revision (`server_url`: a server already running)."""
    return LegsToRun(
        revision=config.revision,
        legs=tuple((leg, unconfigured(config, leg, server_url=server_url)) for leg in LEGS),
    )


def nothing_would_run(revisions: Sequence[LegsToRun]) -> bool:
    """No leg at any revision would run: the assessment would measure nothing (exit 3)."""
    return not any(revision.runs for revision in revisions)
