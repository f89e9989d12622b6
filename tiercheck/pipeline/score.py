"""`tier-check score`: raw harness results produced elsewhere, judged into a scorecard.

`cli/` parses the flags into a `ScoreRequest` as given; `score` checks them in the order the
command always has (`--repo`, the inputs, `--expected-failures`), pairs each revision with its
server and client results (from the repeated flags, or a `<revision>/<leg>/` folder) and with
its baseline, judges the results (`assess.assessment.score_results`, nothing run) and says
whether anything was measured. What it returns is printed by the command line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.errors import UsageError
from tiercheck.pipeline.assess.assessment import score_results
from tiercheck.scorecard.remediation import nothing_measured
from tiercheck.target import check_repo

if TYPE_CHECKING:
    from tiercheck.scorecard.model import Scorecard

__all__ = ["ScoreRequest", "Scored", "score", "score_inputs"]

#: (revision, its server results, its client results): a leg without a folder is skipped.
Inputs = list[tuple[str, Path | None, Path | None]]


@dataclass(frozen=True)
class ScoreRequest:
    """`tier-check score`, as the flags gave it."""

    #: `--repo`: the repository the results are attributed to.
    repo: str = "unknown/unknown"
    #: `--results DIR`: a folder laid out `<revision>/<leg>/` (the per-revision flags are
    #: then not read).
    results: Path | None = None
    #: `--requirements`, once per revision, in order.
    requirements: tuple[str, ...] = ()
    #: `--server-results` and `--client-results`: none, or one per `--requirements`.
    server_results: tuple[Path, ...] = ()
    client_results: tuple[Path, ...] = ()
    #: `--expected-failures`: none, one for every revision, or one per revision.
    expected_failures: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Scored:
    """The scorecard, and why nothing was measured (empty when a leg was)."""

    scorecard: Scorecard
    #: The lines saying no leg was measured and what to do (`remediation.nothing_measured`).
    nothing_measured: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """The scorecard's exit code."""
        return self.scorecard.exit_code


def _from_folder(root: Path) -> Inputs:
    """Each `<revision>/` folder of `root`, with its `server/` and `client/` when present."""
    if not root.is_dir():
        msg = f"--results {root}: not a directory"
        raise UsageError(msg)
    found: Inputs = []
    for child in sorted(p for p in root.iterdir() if p.is_dir()):
        server, client = child / "server", child / "client"
        found.append(
            (child.name, server if server.is_dir() else None, client if client.is_dir() else None)
        )
    if not found:
        msg = f"--results {root}: expected folders laid out <revision>/<leg>/"
        raise UsageError(msg)
    return found


def score_inputs(request: ScoreRequest) -> Inputs:
    """(revision, server results, client results) from the folder or the repeated flags."""
    if request.results is not None:
        return _from_folder(request.results)
    revisions = request.requirements
    if not revisions:
        msg = "score needs --requirements REV with --server-results/--client-results, or --results"
        raise UsageError(msg)
    servers, clients = request.server_results, request.client_results
    for flag, given in (("--server-results", servers), ("--client-results", clients)):
        if given and len(given) != len(revisions):
            msg = f"{flag} given {len(given)} time(s) for {len(revisions)} --requirements"
            raise UsageError(msg)
    if not servers and not clients:
        msg = "score needs --server-results and/or --client-results"
        raise UsageError(msg)
    return [
        (rev, servers[i] if servers else None, clients[i] if clients else None)
        for i, rev in enumerate(revisions)
    ]


def _baselines(inputs: Inputs, paths: Sequence[Path]) -> dict[str, Path]:
    """Revision → its expected failures: one file for all, or one per revision."""
    if len(paths) not in (0, 1, len(inputs)):
        msg = "give one --expected-failures for all revisions, or one per revision"
        raise UsageError(msg)
    return {
        revision: paths[0] if len(paths) == 1 else paths[i]
        for i, (revision, _, _) in enumerate(inputs)
        if paths
    }


def score(request: ScoreRequest) -> Scored:
    """The results the request names, judged; bad flags are a UsageError, in the order
    `--repo`, the inputs, `--expected-failures`."""
    check_repo(request.repo, "--repo")
    inputs = score_inputs(request)
    baselines = _baselines(inputs, request.expected_failures)
    doc = score_results(inputs, repo=request.repo, baselines=baselines)
    return Scored(doc, tuple(nothing_measured(doc)))
