"""`tier-check probe URL`: the advisory probes against a running MCP server.

`cli/` parses the flags into a `ProbeRequest`; `probe` refuses a URL off the loopback and a
timeout that is not positive, checks that something answers at the URL, runs the probes
(`probes.run_probes`) and returns the report, which it renders as JSON (`to_dict`), Markdown or
text for the command line to print. Exit 1 only when a probe failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tiercheck.errors import UsageError
from tiercheck.revisions import known_revisions

if TYPE_CHECKING:
    from tiercheck.probes.run import ProbeReport

__all__ = [
    "ProbeRequest",
    "Probed",
    "probe",
    "probe_listing",
    "probe_revisions",
]


def probe_revisions() -> tuple[str, ...]:
    """The revisions the probes can be run at, oldest first (the last is the default)."""
    return tuple(known_revisions())


def probe_listing() -> list[str]:
    """The probes, one line each with their level and the revisions they apply to (the
    command's help)."""
    from tiercheck.probes import PROBES

    known = list(probe_revisions())
    every = "both" if len(known) == 2 else "all"
    lines = ["probes (level; revisions):"]
    for p in PROBES:
        at = [revision for revision in known if p.applies_to(revision)]
        where = every if at == known else ", ".join(at)
        lines.append(f"  {p.name:<20} {p.title} ({p.level}; {where})")
    return lines


@dataclass(frozen=True)
class ProbeRequest:
    """`tier-check probe URL [--revision REV] [--probe NAME…] [--timeout S]`."""

    url: str
    revision: str
    #: The probes asked for by name (`--probe`, each as given; checked by
    #: `options.probe_selection`); empty: every probe that applies at the revision.
    names: Sequence[str] = ()
    #: Seconds per request.
    timeout_s: float = 5.0


@dataclass(frozen=True)
class Probed:
    """The probes' report at one revision."""

    revision: str
    report: ProbeReport

    @property
    def exit_code(self) -> int:
        """1 when a probe failed (a MUST broken), else 0: warnings and skips pass."""
        return 1 if self.report.failed else 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON `--output json` prints."""
        return self.report.to_dict()

    def text(self, *, markdown: bool = False) -> str:
        """The report as the scorecard shows probes: terminal text, or Markdown."""
        from tiercheck.model import from_json
        from tiercheck.scorecard.model import ProbesBlock
        from tiercheck.scorecard.render.probes import probes_markdown, probes_text

        block = from_json(ProbesBlock, self.report.to_dict(), "probes")
        render = probes_markdown if markdown else probes_text
        return render({self.revision: block}).rstrip("\n")


def probe(request: ProbeRequest) -> Probed:
    """The probes the request names, run against its URL; a URL off the loopback, a timeout
    that is not positive or a URL nothing answers at is a UsageError (in that order)."""
    from tiercheck.pipeline.assess.options import probe_selection
    from tiercheck.probes import run_probes
    from tiercheck.probes.client import ProbeClient, ProbeTransportError, check_loopback

    refused = check_loopback(request.url)
    if refused:
        raise UsageError(refused)
    if request.timeout_s <= 0:
        raise UsageError("--timeout must be a positive number of seconds")
    names = probe_selection(",".join(request.names)) if request.names else None
    with ProbeClient(request.url, timeout_s=request.timeout_s) as client:
        try:
            client.send("GET", headers_only=True)
        except ProbeTransportError as exc:
            msg = f"nothing answers at {request.url}: {exc}"
            raise UsageError(msg) from exc
    report = run_probes(request.url, request.revision, names, timeout_s=request.timeout_s)
    return Probed(request.revision, report)
