"""What an assessment would run, read from the resolved configuration alone (`show-config`,
`doctor --sdk-path`): nothing is built, started or cloned.

The words are the assessment's own: a leg with no command is skipped with the reason the
assessment gives it (`legs.unconfigured`), so the preview and the run never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.resolve import RevisionConfig
from tiercheck.conformance.warm import warm_plan
from tiercheck.pipeline.legs import unconfigured
from tiercheck.revisions import LEGS

__all__ = ["RunPreview", "nothing_would_run", "preview_run"]


@dataclass(frozen=True)
class RunPreview:
    """One revision as the assessment would run it: each step, one line of text."""

    revision: str
    build: str
    server: str
    client: str
    #: Each leg's baseline, one line of text each.
    baselines: tuple[tuple[str, str], ...]
    #: Which legs would run (the others are skipped for want of a command).
    runs: tuple[str, ...]
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
    runs = tuple(leg for leg in LEGS if unconfigured(config, leg, server_url=server_url) is None)
    if server_url is not None:
        server = f"the server already running at {server_url}"
    elif "server" in runs:
        server = f"{config.server_command}  (MCP at {config.server_url})"
    else:
        server = f"skipped: {unconfigured(config, 'server')}"
    client = config.client_command if "client" in runs else None
    return RunPreview(
        revision=config.revision,
        build=config.build or "none",
        server=server,
        client=client or f"skipped: {unconfigured(config, 'client')}",
        baselines=tuple((leg, _baseline(config.baseline(leg), checkout)) for leg in LEGS),
        runs=runs,
        client_start="" if client is None else ("warm" if warm_plan(client) else "cold"),
    )


def nothing_would_run(previews: Sequence[RunPreview]) -> bool:
    """No leg at any revision has a command: the assessment would measure nothing (exit 3)."""
    return not any(p.runs for p in previews)
