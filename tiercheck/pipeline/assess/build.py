"""Step 4, build: the SDK's own build command, once per distinct (command, environment).

The build is cached by commit (see `sdk.build`). A failed build is not raised: it becomes the
step's unmeasured entry and the reason no leg can run. An interrupt returns the builds finished
so far, so the scorecard still shows them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, Unmeasured, elapsed
from tiercheck.pipeline.assess.plan import RevisionPlan
from tiercheck.scorecard.model import BuildBlock

__all__ = ["BuildResult", "build_sdk"]


@dataclass(frozen=True)
class BuildResult:
    """How the builds ended."""

    #: The scorecard's `build` block: the last build's state, reason, log and duration.
    build: BuildBlock | None
    logs: Mapping[str, str] = field(default_factory=dict)
    unmeasured: tuple[Unmeasured, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    #: Why no leg can run after this step (the first failed build); None when they can.
    halt: str | None = None
    #: Ctrl-C or SIGTERM arrived during a build; what finished before it is above.
    interrupted: bool = False


def build_sdk(
    options: AssessOptions,
    revisions: Sequence[RevisionPlan],
    checkout_path: Path,
    commit: str | None,
    progress: ProgressSink,
    *,
    path_prefix: Sequence[Path] = (),
) -> BuildResult:
    """Build once per distinct (command, env) among `revisions`; a failure is an outcome."""
    from tiercheck.sdk.build import build

    began = time.monotonic()
    seen: set[tuple[str | None, tuple[tuple[str, str], ...]]] = set()
    block: BuildBlock | None = None
    logs: dict[str, str] = {}
    failures: list[Unmeasured] = []
    try:
        for plan in revisions:
            config = plan.config
            key = (config.build, tuple(sorted(config.env.items())))
            if key in seen:
                continue
            name = f"build-{plan.revision}.log" if seen else "build.log"
            if config.build and not options.settings.skip_build:
                progress.step("build", config.build)
            with _build_budget(options, progress):
                result = build(
                    checkout_path,
                    config.build,
                    config.env,
                    log_path=options.out_dir / "logs" / name,
                    cache_dir=options.settings.cache_dir,
                    commit_sha=commit,
                    force=options.settings.rebuild,
                    skip=options.settings.skip_build,
                    allow_env=config.pass_env,
                    path_prefix=path_prefix,
                )
            seen.add(key)
            log = result.log_path if result.log_path and result.log_path.exists() else None
            block = BuildBlock(
                state=result.state,
                reason=result.reason or None,
                log=str(log) if log else None,
                duration_s=round(result.duration_s, 3),
            )
            if log:
                logs["build"] = str(log)
            if result.ok:
                progress.done("build", f"{result.state} ({result.duration_s:.1f} s)")
            else:
                first = result.reason.splitlines()[0] if result.reason else ""
                progress.warn(f"build failed: {first}")
                failures.append(Unmeasured("build", f"the build failed: {result.reason}"))
    except KeyboardInterrupt:
        halt = failures[0].reason if failures else None
        return BuildResult(block, logs, tuple(failures), halt=halt, interrupted=True)
    halt = failures[0].reason if failures else None
    return BuildResult(block, logs, tuple(failures), {"build": elapsed(began)}, halt)


def _build_budget(options: AssessOptions, progress: ProgressSink) -> AbstractContextManager[object]:
    """A build slot when runs share a budget (a matrix's rows), else nothing to wait for."""
    settings = options.settings
    if settings.budget_dir is None:
        return nullcontext()
    from tiercheck.sdk.budget import slot

    def waiting() -> None:
        progress.step("build", f"waiting for a build slot ({settings.max_builds} at once)")

    return slot(settings.budget_dir / "builds", "build", settings.max_builds, on_wait=waiting)
