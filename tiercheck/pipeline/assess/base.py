"""What every step of an assessment shares: its options and settings, the progress sink, the
unmeasured entry.

Each step (plan, checkout, provision, build, legs, judge, scorecard) is a function from typed
inputs to a frozen result. A result carries what the step measured, its own `unmeasured` entries
(what it tried and could not measure, with the reason) and its own timings; the assessment's
lists are the concatenation of the steps' lists, in step order.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from tiercheck.config.resolve import ConfigFlags
from tiercheck.pipeline.assess import options
from tiercheck.pipeline.assess.options import bound
from tiercheck.target import Target

__all__ = [
    "AssessOptions",
    "Origin",
    "ProgressSink",
    "RunSettings",
    "StepResult",
    "Unmeasured",
    "default_concurrency",
    "elapsed",
]

#: Where the code under assessment comes from: a clone at a ref, the user's own checkout, a
#: server already running at a URL, or results produced elsewhere (`tier-check score`).
Origin = Literal["clone", "path", "url", "results"]


class ProgressSink(Protocol):
    """What the pipeline tells the person watching (shown by `cli.progress`; `silent` shows
    nothing)."""

    def step(self, name: str, detail: str = "") -> None:
        """A step started."""

    def done(self, name: str, detail: str = "", *, ok: bool = True) -> None:
        """A step finished; `ok` False: it finished with a result that is not a pass."""

    def warn(self, text: str) -> None:
        """Something went wrong but the assessment goes on."""

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        """Scenarios finished so far in a running leg."""


@dataclass(frozen=True)
class RunSettings:
    """How the conformance half runs, as the command line set it: every setting declared once.

    Each field but `environ` is bound to its option (`pipeline.assess.options`: flag, help,
    how the text is read), which fills it from parsed arguments (`options.from_args`) and
    writes it back as argv (`options.to_argv`). The request (`pipeline.assess.request.
    AssessRequest`) holds it as parsed and `AssessOptions` as the steps read it, so a new setting
    is one option and one field here.
    """

    cache_dir: Path = field(metadata=options.CACHE_DIR.binding())
    #: The configuration overrides given (`--build-cmd`, `--expected-failures`, …).
    flags: ConfigFlags = bound(options.CONFIG_FLAGS)
    environ: Mapping[str, str] = field(default_factory=dict)
    revisions: tuple[str, ...] | None = bound(options.REVISION)
    git_url: str | None = bound(options.GIT_URL)
    rebuild: bool = bound(options.REBUILD)
    skip_build: bool = bound(options.SKIP_BUILD)
    #: The pinned version unless another is asked for.
    harness_version: str = bound(options.HARNESS_VERSION)
    #: Another harness each leg is run with again, whose results are compared with the
    #: referee's scenario by scenario (`--compare-harness V`); None: no comparison.
    compare_harness: str | None = bound(options.COMPARE_HARNESS)
    #: Client processes at once across the whole assessment: None admits them by the CPU they
    #: use (`conformance.admission`: at least one per core, more while the running ones leave
    #: cores idle); N > 0 does the same but never more than N at once (`--concurrency N`); 0
    #: means unbounded (the harness's own behaviour: every client at once).
    concurrency: int | None = bound(options.CONCURRENCY)
    sequential: bool = bound(options.SEQUENTIAL)
    #: Start every client cold instead of forking a Python client from a warm interpreter that
    #: has already imported what the client imports (`conformance.warm`) or giving a Node
    #: client a compile cache prepared for the leg (`conformance.node_warm`; `--cold-clients`).
    cold_clients: bool = bound(options.COLD_CLIENTS)
    #: The advisory probes to run against each revision's server while it is up (`--probes`):
    #: None means every probe, () none.
    probes: tuple[str, ...] | None = bound(options.PROBES)
    #: A directory of machine-wide budgets shared with other runs (`--budget`, which the matrix
    #: passes to its rows): client slots under `clients/`, build slots under `builds/`.
    budget_dir: Path | None = bound(options.BUDGET)
    #: Builds at once across the runs sharing `budget_dir`.
    max_builds: int = bound(options.MAX_BUILDS)


@dataclass(frozen=True)
class AssessOptions:
    """Everything the conformance half of an assessment needs: the resolved target, the run's
    folder and the settings (`pipeline.run` builds it from the request)."""

    target: Target
    settings: RunSettings
    #: The run's folder (`pipeline.assess.output`): raw results and logs go under it.
    out_dir: Path
    #: The run's id (`pipeline.assess.output`), recorded in the scorecard.
    run_id: str = ""
    #: URL mode: an already running server (no checkout, no build, no managed server).
    server_url: str | None = None


@dataclass(frozen=True)
class Unmeasured:
    """Something a step tried to measure and could not: one entry of the scorecard's list."""

    what: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        """The scorecard's form: `{"what": …, "reason": …}`."""
        return {"what": self.what, "reason": self.reason}


class StepResult(Protocol):
    """What every step's result reports besides its own facts."""

    @property
    def unmeasured(self) -> tuple[Unmeasured, ...]:
        """What the step could not measure, in the order it found out."""

    @property
    def timings(self) -> Mapping[str, float]:
        """Seconds spent, by name (the scorecard's `timings`)."""


def elapsed(began: float) -> float:
    """Seconds since `began` (a `time.monotonic()` reading), to the millisecond."""
    return round(time.monotonic() - began, 3)


def default_concurrency() -> int:
    """Client processes at once: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)
