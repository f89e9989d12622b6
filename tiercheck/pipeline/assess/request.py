"""What the command line asks of one assessment, as one typed request.

`cli/` parses argv into an `AssessRequest` and hands it to `pipeline.run`; everything from
there on — resolving the target, choosing and owning the report folder, the steps, the history,
the files — happens below the command line, so the data never climbs back up to it.

`AssessCommand` is the other way round: an assessment that a parent (the matrix) runs as a
`tier-check` process of its own, written as that process's argv by the options' declarations
(`options.to_argv`), which the child reads back with the same declarations.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.registry import Registry
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.base import RunSettings
from tiercheck.pipeline.assess.options import bound

__all__ = ["AssessCommand", "AssessRequest", "HistoryRequest", "TargetRequest"]


@dataclass(frozen=True)
class TargetRequest:
    """The SDK the command line names: `--sdk`, `--sdk-path`, `--repo`, or a running server."""

    sdk: str | None = bound(options.SDK)
    sdk_path: Path | None = bound(options.SDK_PATH)
    repo: str | None = bound(options.REPO)
    #: `--conformance-server-url`: run the legs against a server already running.
    server_url: str | None = bound(options.SERVER_URL)


@dataclass(frozen=True)
class HistoryRequest:
    """The run history around the assessment (absent with `--no-history`)."""

    path: Path
    #: `--reuse`: take a stored run of the same commit and configuration instead of running.
    reuse: bool = False


@dataclass(frozen=True)
class AssessRequest:
    """One assessment as the command line asked for it, every flag parsed and checked."""

    registry: Registry
    target: TargetRequest
    governance: GovernanceOptions
    #: How the conformance half runs (the same record `AssessOptions` holds).
    settings: RunSettings
    #: `--out`; None: `reports/<sdk>/<run-id>/`, chosen by `pipeline.assess.output`.
    out: Path | None = bound(options.OUT)
    history: HistoryRequest | None = None


@dataclass(frozen=True)
class AssessCommand:
    """An assessment run as a `tier-check` process of its own: what its command line says.

    Every field is an option of the assessment or a record of them, so `options.to_argv`
    writes it and the child reads it back as any command line (`cli.assess.assess_request`).
    Governance credentials are not among them: a child finds its token where any run does.
    """

    target: TargetRequest
    settings: RunSettings
    registry: Path | None = bound(options.REGISTRY)
    skip_governance: bool = bound(options.SKIP_GOVERNANCE)
    governance_snapshot: Path | None = bound(options.GOVERNANCE_SNAPSHOT)
    as_of: str | None = bound(options.AS_OF)
    history: Path | None = bound(options.HISTORY)
    no_history: bool = bound(options.NO_HISTORY)
    reuse: bool = bound(options.REUSE)
    out: Path | None = bound(options.OUT)

    def argv(self) -> list[str]:
        """The child's arguments (after `tier-check`)."""
        return options.to_argv(self)
