"""Step 3, provision: the pinned conformance harness (and its Node), installed or reused; and
the SDK's own tools: checked before the checkout, provisioned (uv, pnpm) after it.

A harness that cannot be installed makes every leg unmeasured; a missing npm is the user's to
fix and raises (ToolMissingError), as it would for any assessment. A required tool that is
missing or too old, a registry tool that cannot be installed, or a toolchain pin of the SDK
that cannot be met makes every leg unmeasured with a one-line reason, before any build starts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tiercheck import process
from tiercheck.config.requires import Requirement
from tiercheck.config.resolve import Layer, RevisionConfig, Sourced
from tiercheck.conformance.harness import PACKAGE, Harness, provision
from tiercheck.errors import ConfigError, TiercheckError, ToolMissingError
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, Unmeasured, elapsed
from tiercheck.pipeline.assess.plan import RevisionPlan
from tiercheck.sdk.toolchain import (
    PROBE_TIMEOUT_S,
    ToolStatus,
    check_tools,
    toolchain_pin_problem,
)

__all__ = [
    "ProvisionResult",
    "ToolchainResult",
    "ToolsResult",
    "check_toolchain",
    "provision_harness",
    "provision_tools",
    "refuse_unfit_harness",
    "sdk_probe_env",
    "with_tool_path",
]


@dataclass(frozen=True)
class ProvisionResult:
    """The harness to run the legs with (None: it could not be provisioned, see `halt`)."""

    harness: Harness | None
    unmeasured: tuple[Unmeasured, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    #: Why no leg can run after this step; None when they can.
    halt: str | None = None


def provision_harness(options: AssessOptions, progress: ProgressSink) -> ProvisionResult:
    """Install (or reuse) `options.settings.harness_version` under the cache directory."""
    began = time.monotonic()
    try:
        harness = provision(
            options.settings.cache_dir,
            version=options.settings.harness_version,
            progress=lambda text: progress.step("harness", text),
        )
    except ToolMissingError:
        raise
    except TiercheckError as exc:
        reason = f"the harness could not be provisioned: {exc.message}"
        return ProvisionResult(None, unmeasured=(Unmeasured("harness", reason),), halt=reason)
    progress.done("harness", f"{PACKAGE} {harness.version}, node {harness.node_version}")
    return ProvisionResult(harness, timings={"harness": elapsed(began)})


def refuse_unfit_harness(
    harness: Harness, revisions: Sequence[str], progress: ProgressSink
) -> None:
    """Refuse (ConfigError, one line, exit 2) a harness other than the pinned one that cannot
    run one of `revisions` as the referee does: its flags, the sets it ships and the wire it
    speaks there, read from the installed package (`referee.capability`)."""
    from tiercheck.referee.bundle import read_bundle
    from tiercheck.referee.capability import fit, refusal
    from tiercheck.referee.harvest import ask_fit

    reading = read_bundle(ask_fit(harness, revisions))
    refused = refusal([fit(reading, revision) for revision in revisions])
    if refused is not None:
        raise ConfigError(refused)
    progress.done(
        "harness fit", f"{harness.version} runs {', '.join(revisions)} as the referee does"
    )


# --- the SDK's own tools ----------------------------------------------------------------


@dataclass(frozen=True)
class ToolchainResult:
    """Step 1b, before the checkout: the tools the line requires, as this machine has them."""

    statuses: tuple[ToolStatus, ...] = ()
    unmeasured: tuple[Unmeasured, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    #: Why no leg can run (a tool missing or too old); None when they can.
    halt: str | None = None


@dataclass(frozen=True)
class ToolsResult:
    """Step 2b, after the checkout: registry tools provisioned, and the SDK's pins checked."""

    #: tool → {"version", "source" (path, provisioned or cached), "path"}: the scorecard's
    #: `harness.tools`.
    tools: Mapping[str, Mapping[str, str | None]] = field(default_factory=dict)
    #: Directories to put first on the SDK's PATH, in order.
    path_prefix: tuple[Path, ...] = ()
    unmeasured: tuple[Unmeasured, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    halt: str | None = None


def sdk_probe_env(config: RevisionConfig | None) -> dict[str, str]:
    """The environment the SDK's tools are looked up and asked in (its own, secrets removed)."""
    if config is None:
        return process.sdk_environment({})
    return process.sdk_environment(config.env, allow=config.pass_env)


def _first_config(revisions: Sequence[RevisionPlan]) -> RevisionConfig | None:
    return revisions[0].config if revisions else None


def check_toolchain(
    requirements: Sequence[Requirement],
    revisions: Sequence[RevisionPlan],
    progress: ProgressSink,
    *,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> ToolchainResult:
    """Look up every required tool; a missing or too-old one that cannot be provisioned halts
    the assessment with one line per tool (before anything is cloned or built)."""
    if not requirements:
        return ToolchainResult()
    began = time.monotonic()
    statuses = tuple(
        check_tools(requirements, sdk_probe_env(_first_config(revisions)), timeout_s=timeout_s)
    )
    timings = {"toolchain": elapsed(began)}
    problems = [s.reason for s in statuses if not s.ok]
    if problems:
        reason = "; ".join(problems)
        progress.warn(f"toolchain: {reason}")
        return ToolchainResult(
            statuses, (Unmeasured("toolchain", reason),), timings=timings, halt=reason
        )
    found = ", ".join(
        f"{s.tool} {s.found}" if s.state == "found" else f"{s.tool} (to provision)"
        for s in statuses
    )
    progress.done("toolchain", found)
    return ToolchainResult(statuses, timings=timings)


def provision_tools(
    cache_dir: Path,
    checked: ToolchainResult,
    revisions: Sequence[RevisionPlan],
    checkout: Path,
    progress: ProgressSink,
) -> ToolsResult:
    """Provision each tool the check marked, record every tool with its version, and check the
    SDK's own toolchain pin (rust-toolchain.toml) against what is installed."""
    from tiercheck.config.requires import TOOLS
    from tiercheck.sdk.tools import package_manager_pin, provision_tool

    began = time.monotonic()
    tools: dict[str, Mapping[str, str | None]] = {}
    prefix: list[Path] = []
    for status in checked.statuses:
        if status.state == "found":
            tools[status.tool] = {"version": status.found, "source": "path", "path": status.path}
            continue
        spec = TOOLS[status.tool]
        version = package_manager_pin(checkout, status.tool) or spec.pinned or ""
        progress.step(f"tool {status.tool}", f"{status.tool} {version}")
        try:
            installed = provision_tool(
                cache_dir, status.tool, version, progress=lambda t: progress.step("tool", t)
            )
        except TiercheckError as exc:
            reason = f"{status.tool} {version} could not be provisioned: {exc.message}"
            progress.warn(reason.splitlines()[0])
            return ToolsResult(
                tools, tuple(prefix), (Unmeasured("toolchain", reason),), halt=reason
            )
        progress.done(f"tool {status.tool}", f"{installed.version} ({installed.source})")
        tools[status.tool] = installed.to_dict()
        prefix.append(installed.bin_dir)
    env = sdk_probe_env(_first_config(revisions))
    if prefix:
        env["PATH"] = os.pathsep.join([*map(str, prefix), env.get("PATH", "")])
    pin = toolchain_pin_problem(checkout, env)
    timings = {"tools": elapsed(began)}
    if pin is not None:
        progress.warn(f"toolchain: {pin}")
        return ToolsResult(
            tools, tuple(prefix), (Unmeasured("toolchain", pin),), timings=timings, halt=pin
        )
    return ToolsResult(tools, tuple(prefix), timings=timings)


def with_tool_path(
    revisions: Sequence[RevisionPlan], prefix: Sequence[Path]
) -> tuple[RevisionPlan, ...]:
    """The revisions as the legs run them: provisioned tools first on the SDK's PATH.

    Only the legs get these plans; the scorecard records the configuration as resolved.
    """
    if not prefix:
        return tuple(revisions)
    head = os.pathsep.join(str(p) for p in prefix)
    plans = []
    for plan in revisions:
        config = plan.config
        env = dict(config.env)
        env["PATH"] = f"{head}{os.pathsep}{env.get('PATH') or os.environ.get('PATH', '')}"
        values = {**config.values, "env": Sourced(env, Layer.DEFAULT, "provisioned tools")}
        plans.append(replace(plan, config=replace(config, values=values)))
    return tuple(plans)
