"""What an assessment would run, read from the resolved configuration alone (`show-config`,
`doctor`): nothing is built, started or cloned.

`preview_target` is the one plan both commands read: per revision, which legs would run and
why each other one would not, in the assessment's own words (`would_run`, which its early
stop reads too), so the preview and the run never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.baseline_spec import check_claimed
from tiercheck.config.resolve import ConfigFlags, RevisionConfig, resolve
from tiercheck.conformance.warm import warm_plan
from tiercheck.errors import UsageError
from tiercheck.pipeline.assess.would_run import (
    LegsToRun,
    legs_to_run,
    nothing_would_run,
    server_turns,
)
from tiercheck.revisions import LEGS, is_known_revision, known_revisions, unknown_revision
from tiercheck.target import Target

__all__ = ["RunPreview", "TargetPreview", "preview_run", "preview_target"]


@dataclass(frozen=True)
class RunPreview:
    """One revision as the assessment would run it: each step, one line of text."""

    revision: str
    build: str
    server: str
    client: str
    #: Each leg's baseline, one line of text each.
    baselines: tuple[tuple[str, str], ...]
    #: Which legs would run, and why each other one would be skipped.
    legs: LegsToRun
    #: How each scenario's client would start: "warm" (forked from one interpreter that has
    #: imported what the script imports, `conformance.warm`), "cold", or "" with no client leg.
    client_start: str = ""

    def to_dict(self) -> dict[str, object]:
        """The JSON form (`show-config --json`'s `would_run`)."""
        return {
            "build": self.build,
            "server": self.server,
            "client": self.client,
            "expected_failures": dict(self.baselines),
            "legs": list(self.runs),
            "client_start": self.client_start or None,
        }

    @property
    def runs(self) -> tuple[str, ...]:
        """The legs that would run (the others are skipped for want of a command)."""
        return self.legs.runs

    def lines(self) -> list[str]:
        """The text form, one line per step."""
        return [
            f"build     {self.build}",
            f"server    {self.server}",
            f"client    {self.client}",
            *([f"          {_STARTS[self.client_start]}"] if self.client_start else []),
            *(f"baseline  {leg}: {text}" for leg, text in self.baselines),
        ]


_STARTS = {
    "warm": "warm start: forked per scenario from one interpreter with the script's imports",
    "cold": "cold start: each scenario's client started on its own",
}


def _baseline(name: str | None, checkout: Path | None) -> str:
    if not name:
        return "none"
    path = Path(name)
    if path.is_absolute():
        return f"{name} ({'found' if path.is_file() else 'not found'})"
    if checkout is None:
        return f"{name} (read inside the checkout, once it is cloned)"
    found = (checkout / name).is_file()
    return f"{checkout / name} ({'found' if found else 'not found in the checkout'})"


def preview_run(
    config: RevisionConfig, *, checkout: Path | None, server_url: str | None = None
) -> RunPreview:
    """What the assessment would run at `config`'s revision, from the checkout `checkout`
    (None: a clone made at run time) or against the running server `server_url`."""
    legs = legs_to_run(config, server_url=server_url)
    if server_url is not None:
        server = f"the server already running at {server_url}"
    elif "server" in legs.runs:
        server = f"{config.server_command}  (MCP at {config.server_url})"
    else:
        server = f"skipped: {legs.why_not('server')}"
    client = config.client_command if "client" in legs.runs else None
    return RunPreview(
        revision=config.revision,
        build=config.build or "none",
        server=server,
        client=client or f"skipped: {legs.why_not('client')}",
        baselines=tuple((leg, _baseline(config.baseline(leg), checkout)) for leg in LEGS),
        legs=legs,
        client_start="" if client is None else ("warm" if warm_plan(client) else "cold"),
    )


@dataclass(frozen=True)
class TargetPreview:
    """What an assessment of one SDK with the same flags and environment would run: each
    revision's resolved configuration and preview, and why nothing would run when no leg
    at any revision has a command."""

    name: str
    #: Whether the SDK is an entry of the registry (if not, flags and variables configure it).
    registered: bool
    configs: tuple[RevisionConfig, ...]
    previews: tuple[RunPreview, ...]

    @property
    def nothing_would_run(self) -> bool:
        """No leg at any revision would run: the assessment would measure nothing (exit 3)."""
        return nothing_would_run([preview.legs for preview in self.previews])

    @property
    def server_turns(self) -> str | None:
        """How the server legs would take turns when a server's port is fixed: one at a time,
        each stopped before the next starts (`would_run.server_turns`); None otherwise."""
        return server_turns(self.configs)

    @property
    def reason(self) -> str:
        """Why nothing would run and what to do, one line ("" when a leg would run)."""
        if not self.nothing_would_run:
            return ""
        if self.registered:
            return (
                f"no leg of {self.name} has a command: set them in its registry entry or pass "
                "--server-cmd and --server-url, --client-cmd"
            )
        return (
            f"no leg has a command ({self.name} is not in the registry): pass --server-cmd and "
            "--server-url, --client-cmd, or its entry in --registry FILE (`tier-check init` "
            "writes one)"
        )


def preview_target(
    target: Target,
    *,
    environ: Mapping[str, str],
    flags: ConfigFlags,
    revision: str | None = None,
) -> TargetPreview:
    """What an assessment of `target` with `flags` under `environ` would run, at `revision` or
    at every revision it claims (every known one for an SDK not in the registry).

    A revision that is unknown or not claimed, or an `--expected-failures` SPEC for one, is a
    UsageError, as in the assessment.
    """
    entry = target.entry
    claimed = entry.revisions if entry else known_revisions()
    revisions = list(claimed)
    if revision is not None:
        if not is_known_revision(revision):
            raise UsageError(f"--revision: {unknown_revision(revision)}")
        if revision not in claimed:
            raise UsageError(f"--revision: {target.name} claims only {', '.join(claimed)}")
        revisions = [revision]
    check_claimed(flags.baselines, target.name, tuple(claimed))
    configs = tuple(resolve(entry, rev, environ=environ, flags=flags) for rev in revisions)
    return TargetPreview(
        name=target.name,
        registered=entry is not None,
        configs=configs,
        previews=tuple(preview_run(config, checkout=target.path) for config in configs),
    )
