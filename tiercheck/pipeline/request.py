"""What the command line asks of one assessment, as one typed request.

`cli/` parses argv into an `AssessRequest` and hands it to `pipeline.run`; everything from
there on — resolving the target, choosing and owning the report folder, the steps, the history,
the files — happens below the command line, so the data never climbs back up to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiercheck.config.registry import Registry
from tiercheck.conformance.harness import PINNED_VERSION
from tiercheck.governance.obtain import GovernanceOptions

__all__ = ["AssessRequest", "HistoryRequest", "TargetRequest"]


@dataclass(frozen=True)
class TargetRequest:
    """The SDK the command line names: `--sdk`, `--sdk-path`, `--repo`, or a running server."""

    sdk: str | None = None
    sdk_path: Path | None = None
    repo: str | None = None
    #: `--conformance-server-url`: run the legs against a server already running.
    server_url: str | None = None


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
    cache_dir: Path
    governance: GovernanceOptions
    #: `--out`; None: `reports/<sdk>/<run-id>/`, chosen by `pipeline.output`.
    out: Path | None = None
    history: HistoryRequest | None = None
    flags: Mapping[str, Any] = field(default_factory=dict)
    environ: Mapping[str, str] = field(default_factory=dict)
    revisions: tuple[str, ...] | None = None
    git_url: str | None = None
    rebuild: bool = False
    skip_build: bool = False
    harness_version: str = PINNED_VERSION
    concurrency: int = 0
    sequential: bool = False
    probes: tuple[str, ...] | None = None
    budget_dir: Path | None = None
    max_builds: int = 1
    #: `--expected-failures` was given: the file must exist.
    explicit_baseline: bool = False
