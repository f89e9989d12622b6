"""Step 3, provision: the pinned conformance harness (and its Node), installed or reused.

A harness that cannot be installed makes every leg unmeasured; a missing npm is the user's to
fix and raises (ToolMissingError), as it would for any assessment.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from tiercheck.conformance.harness import PACKAGE, Harness, provision
from tiercheck.errors import TiercheckError, ToolMissingError
from tiercheck.pipeline.base import AssessOptions, ProgressSink, Unmeasured, elapsed

__all__ = ["ProvisionResult", "provision_harness"]


@dataclass(frozen=True)
class ProvisionResult:
    """The harness to run the legs with (None: it could not be provisioned, see `halt`)."""

    harness: Harness | None
    unmeasured: tuple[Unmeasured, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    #: Why no leg can run after this step; None when they can.
    halt: str | None = None


def provision_harness(options: AssessOptions, progress: ProgressSink) -> ProvisionResult:
    """Install (or reuse) `options.harness_version` under the cache directory."""
    began = time.monotonic()
    try:
        harness = provision(
            options.cache_dir,
            version=options.harness_version,
            progress=lambda text: progress.step("harness", text),
        )
    except ToolMissingError:
        raise
    except TiercheckError as exc:
        reason = f"the harness could not be provisioned: {exc.message}"
        return ProvisionResult(None, unmeasured=(Unmeasured("harness", reason),), halt=reason)
    progress.done("harness", f"{PACKAGE} {harness.version}, node {harness.node_version}")
    return ProvisionResult(harness, timings={"harness": elapsed(began)})
