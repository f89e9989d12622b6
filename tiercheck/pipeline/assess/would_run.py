"""Which legs of a revision would run, and why each other one would not.

The one answer, read from a revision's resolved configuration, that the preview (`show-config`,
`doctor`), the assessment's early stop (`legs.nothing_to_run`, exit 3 before any build) and its
skipped legs all give: a leg with no command is skipped with the reason `unconfigured` says.
Likewise whether the server legs run one at a time (`server_turns`): a server whose URL fixes
its port holds its turn until it has stopped, so the next revision's server finds the port free.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tiercheck.config.resolve import RevisionConfig
from tiercheck.revisions import LEGS, Leg
from tiercheck.sdk.ports import fixed_port

__all__ = [
    "LegsToRun",
    "fixed_ports",
    "legs_to_run",
    "nothing_would_run",
    "server_turns",
    "unconfigured",
]


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


def fixed_ports(
    configs: Sequence[RevisionConfig], *, server_url: str | None = None
) -> dict[str, int]:
    """Revision → the port its server is fixed to, for each revision whose server leg would run
    against a server started here whose URL has no `{port}` (`sdk.ports.fixed_port`).

    `server_url`: a server already running serves every server leg, and nothing is started.
    """
    if server_url is not None:
        return {}
    found: dict[str, int] = {}
    for config in configs:
        if unconfigured(config, "server") is not None or not config.server_url:
            continue
        port = fixed_port(config.server_url)
        if port is not None:
            found[config.revision] = port
    return found


def server_turns(configs: Sequence[RevisionConfig], *, server_url: str | None = None) -> str | None:
    """Why the server legs run one at a time, each server stopped before the next one starts;
    None when they may overlap (each server on a port of its own, or fewer than two server
    legs).

    Server legs always take turns up to the end of their harness run; a server on a fixed port
    also holds its turn through its probes and its stop, or the next revision's server would
    find the port taken by ours.
    """
    fixed: Mapping[str, int] = fixed_ports(configs, server_url=server_url)
    serving = [c for c in configs if unconfigured(c, "server", server_url=server_url) is None]
    if not fixed or len(serving) < 2:  # two servers are what can collide
        return None
    ports = sorted(set(fixed.values()))
    named = ", ".join(str(p) for p in ports)
    return (
        f"one at a time, each server stopped before the next one starts: the server URL "
        f"fixes port{'s' if len(ports) > 1 else ''} {named} (no {{port}}) at "
        f"{', '.join(fixed)}"
    )
