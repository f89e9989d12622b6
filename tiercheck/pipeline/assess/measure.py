"""The conformance half of an assessment: checkout → provision → build → legs.

Each step runs only if the ones before it let the legs run; a step that cannot go on names the
reason, and every leg not measured by then is unmeasured with it. Ctrl-C (or SIGTERM) before
the legs stops every child and marks the legs "interrupted before it ran"; during the legs, the
legs step stops them itself. Either way what was measured is returned, never raised away.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from tiercheck import process
from tiercheck.conformance.harness import PINNED_VERSION, Harness
from tiercheck.pipeline.assess.base import (
    AssessOptions,
    ProgressSink,
    StepResult,
    Unmeasured,
    elapsed,
)
from tiercheck.pipeline.assess.build import BuildResult, build_sdk
from tiercheck.pipeline.assess.checkout import CheckoutResult, check_out, working_tree_lock
from tiercheck.pipeline.assess.compare import ComparedRun, Comparing, prepare_comparison
from tiercheck.pipeline.assess.inputs import check_checkout_inputs
from tiercheck.pipeline.assess.judge import find_baselines, load_leg_baselines
from tiercheck.pipeline.assess.legs import LegsResult, nothing_to_run, run_legs
from tiercheck.pipeline.assess.plan import Plan, RevisionPlan
from tiercheck.pipeline.assess.provision import (
    ProvisionResult,
    ToolchainResult,
    ToolsResult,
    check_toolchain,
    provision_harness,
    provision_tools,
    refuse_unfit_harness,
    with_tool_path,
)
from tiercheck.revisions import LEGS, Leg
from tiercheck.scorecard.model import BuildBlock, SdkRelease
from tiercheck.scoring import LegVerdict, unmeasured_leg

if TYPE_CHECKING:
    from tiercheck.probes import ProbeReport

__all__ = ["Measurement", "measure"]

_R = TypeVar("_R")

#: What an interrupt before the legs leaves in the unmeasured list and in each leg.
_STOPPED = Unmeasured("assessment", "interrupted before it ran")


@dataclass(frozen=True)
class Measurement:
    """What the conformance half measured; read-only, built once from the steps' results."""

    #: Every planned (revision, leg), in plan order.
    verdicts: Mapping[tuple[str, Leg], LegVerdict]
    server_urls: Mapping[str, str]
    checkout_path: Path | None
    commit: str | None
    harness: Harness | None
    build: BuildBlock | None
    logs: Mapping[str, str]
    unmeasured: tuple[Unmeasured, ...]
    timings: Mapping[str, float]
    interrupted: bool
    #: The SDK's tools with their versions (the scorecard's `harness.tools`).
    tools: Mapping[str, Mapping[str, str | None]] = field(default_factory=dict)
    #: The branch a clone without a named ref resolved to (origin's default branch).
    branch: str | None = None
    #: The tag a `stable` ref resolved to.
    tag: str | None = None
    #: The release the commit carries, read from the checkout's tags.
    release: SdkRelease | None = None
    #: Revision → the advisory probes' report (never part of a verdict).
    probes: Mapping[str, ProbeReport] = field(default_factory=dict)
    #: `--compare-harness`: the other harness, and each leg's run with it (never a verdict's).
    compare: Comparing | None = None
    compared: Mapping[tuple[str, Leg], ComparedRun] = field(default_factory=dict)
    #: Failures run again by themselves, and the wall seconds it took (None: not run).
    rerun: int | None = None
    rerun_s: float = 0.0

    @classmethod
    def from_steps(
        cls,
        revisions: Sequence[RevisionPlan],
        done: Sequence[StepResult],
        stopped: Unmeasured | None,
        conformance_s: float,
        compare: Comparing | None = None,
    ) -> Measurement:
        """The measurement of the steps that ran (`done`, in order), of the interrupt that
        `stopped` them before the legs if one did, and of the whole half's duration.

        The unmeasured entries and the timings are the steps' own, concatenated in step order.
        A leg that never ran is unmeasured with the first reason a step gave for stopping, else
        the interrupt's.
        """
        toolchain = _first(done, ToolchainResult)
        checkout = _first(done, CheckoutResult)
        tools = _first(done, ToolsResult)
        provisioned = _first(done, ProvisionResult)
        built = _first(done, BuildResult)
        legs = _first(done, LegsResult)
        steps = (toolchain, checkout, tools, provisioned, built)
        halts = [r.halt for r in steps if r is not None and r.halt]
        reason = halts[0] if halts else stopped.reason if stopped else "not run"
        verdicts = {
            (p.revision, leg): (legs.verdicts.get((p.revision, leg)) if legs else None)
            or unmeasured_leg(leg, p.revision, reason)
            for p in revisions
            for leg in LEGS
        }
        unmeasured = [entry for result in done for entry in result.unmeasured]
        timings = {name: s for result in done for name, s in result.timings.items()}
        return cls(
            verdicts=verdicts,
            server_urls=dict(legs.server_urls) if legs else {},
            checkout_path=checkout.path if checkout else None,
            commit=checkout.commit if checkout else None,
            harness=provisioned.harness if provisioned else None,
            build=built.build if built else None,
            logs={**(built.logs if built else {}), **(legs.logs if legs else {})},
            unmeasured=(*unmeasured, *([stopped] if stopped else [])),
            timings={**timings, "conformance": conformance_s},
            interrupted=stopped is not None or (legs is not None and legs.interrupted),
            tools=_tools_of(toolchain, tools),
            branch=checkout.branch if checkout else None,
            tag=checkout.tag if checkout else None,
            release=checkout.release if checkout else None,
            probes=dict(legs.probes) if legs else {},
            compare=compare,
            compared=dict(legs.compared) if legs else {},
            rerun=legs.rerun if legs else None,
            rerun_s=legs.rerun_s if legs else 0.0,
        )


def _run_steps(
    options: AssessOptions,
    plan: Plan,
    progress: ProgressSink,
    done: list[StepResult],
    comparing: list[Comparing],
) -> None:
    """Run the steps in order, each result into `done` as soon as it exists (an interrupt may
    come at any moment); return as soon as a step says no leg can run. The harness of
    `--compare-harness`, once read, goes into `comparing`."""
    workdir, commit = Path.cwd(), None
    prefix: tuple[Path, ...] = ()
    early: ProvisionResult | None = None
    if options.settings.harness_version != PINNED_VERSION:
        # Another harness than the referee: what it cannot run as the referee does is refused
        # in one line before anything is cloned or built (the install is reused below).
        early = provision_harness(options, progress)
        if early.harness is None:
            done.append(early)
            return
        refuse_unfit_harness(early.harness, [p.revision for p in plan.revisions], progress)
    # The harness compared with the referee: refused before anything is cloned, too.
    compare = prepare_comparison(options, [p.revision for p in plan.revisions], progress)
    comparing += [compare] if compare is not None else []
    with ExitStack() as held:
        if plan.origin != "url":
            # What the machine lacks is said before anything is cloned or built.
            requires = plan.target.entry.requires if plan.target.entry else ()
            toolchain = check_toolchain(requires, plan.revisions, progress)
            done.append(toolchain)
            if toolchain.halt is not None:
                return
            # Runs sharing a cache must not share a working tree while they use it.
            held.enter_context(working_tree_lock(options, plan, progress))
            checkout = check_out(options, plan, progress)
            done.append(checkout)
            if checkout.path is None:
                return
            workdir, commit = checkout.path, checkout.commit
            # A relative --expected-failures names a file of the clone: refused (exit 2) now,
            # not after every leg has run.
            check_checkout_inputs(options.settings.flags.baselines, workdir)
            # Every baseline the checkout holds loads, and fits the leg it is given to.
            load_leg_baselines(find_baselines(plan.revisions, workdir).files)
            tools = provision_tools(
                options.settings.cache_dir, toolchain, plan.revisions, workdir, progress
            )
            done.append(tools)
            if tools.halt is not None:
                return
            prefix = tools.path_prefix
            unconfigured = nothing_to_run(options, plan.revisions)
            if unconfigured is not None:
                # No leg has a command: neither the harness nor a build is needed to measure
                # nothing (the toolchain's own faults are still said, above).
                done.append(unconfigured)
                return
        provisioned = early or provision_harness(options, progress)
        done.append(provisioned)
        if provisioned.harness is None:
            return
        if plan.origin != "url":
            built = build_sdk(
                options, plan.revisions, workdir, commit, progress, path_prefix=prefix
            )
            done.append(built)
            if built.interrupted:
                raise KeyboardInterrupt  # the builds that finished are kept in `done`
            if built.halt is not None:
                return
        revisions = with_tool_path(plan.revisions, prefix)
        done.append(run_legs(options, revisions, workdir, provisioned.harness, progress, compare))


def measure(options: AssessOptions, plan: Plan, progress: ProgressSink) -> Measurement:
    """checkout → provision → build → legs. Never raises for a failure to measure (those become
    unmeasured legs); raises only for a missing npm (ToolMissingError), for a relative
    `--expected-failures` the clone does not hold as a readable baseline (ConfigError), for
    a `--harness-version` that cannot run a planned revision as the referee does, and for a
    `--compare-harness` that cannot be installed or runs none of them (ConfigError, before the
    checkout)."""
    began = time.monotonic()
    done: list[StepResult] = []
    comparing: list[Comparing] = []
    stopped: Unmeasured | None = None
    try:
        _run_steps(options, plan, progress, done, comparing)
    except KeyboardInterrupt:
        process.kill_all_children(term_grace_s=2.0)
        stopped = _STOPPED
    compare = comparing[0] if comparing else None
    return Measurement.from_steps(plan.revisions, done, stopped, elapsed(began), compare)


def _tools_of(
    toolchain: ToolchainResult | None, tools: ToolsResult | None
) -> dict[str, Mapping[str, str | None]]:
    """Every required tool with its version: as provisioned, else as found (or not) on PATH."""
    recorded: dict[str, Mapping[str, str | None]] = {}
    for status in toolchain.statuses if toolchain else ():
        source = "path" if status.state == "found" else status.state
        recorded[status.tool] = {"version": status.found, "source": source, "path": status.path}
    recorded.update(tools.tools if tools else {})
    return recorded


def _first(done: Sequence[StepResult], kind: type[_R]) -> _R | None:
    return next((r for r in done if isinstance(r, kind)), None)
