"""What the command line asks of one assessment, as one typed request.

`cli/` parses argv into an `AssessRequest` and hands it to `pipeline.run`; everything from
there on — resolving the target, choosing and owning the report folder, the steps, the history,
the files — happens below the command line, so the data never climbs back up to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tiercheck.config.registry import Registry
from tiercheck.governance.obtain import GovernanceOptions
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.base import RunSettings
from tiercheck.pipeline.assess.options import bound

__all__ = ["AssessRequest", "HistoryRequest", "TargetRequest"]


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
