"""Which SDK lines can run on this machine (`tier-check doctor`), and getting one ready ahead of
time (`tier-check setup --sdk NAME`).

The doctor asks the same questions an assessment asks before its checkout (`check_toolchain`):
each required tool with the version found or "missing", whether tiercheck would provision it,
and what the assessment would run (`preview.preview_target`, the plan `show-config` prints).
A line is runnable here when its tools are ready and at least one leg would run. The matrix
uses the same rows to decide, before starting, which lines to run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tiercheck.config.registry import Registry, SdkEntry
from tiercheck.config.requires import TOOLS
from tiercheck.config.resolve import ConfigFlags, resolve
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink
from tiercheck.pipeline.assess.plan import plan_assessment
from tiercheck.pipeline.assess.preview import RunPreview, TargetPreview, preview_target
from tiercheck.pipeline.assess.provision import ToolsResult, provision_tools, sdk_probe_env
from tiercheck.sdk.toolchain import PROBE_TIMEOUT_S, ToolStatus, check_tools
from tiercheck.target import Target, resolve_target

__all__ = [
    "PIN_REASON",
    "Diagnosis",
    "DoctorRequest",
    "DoctorRow",
    "HarnessFacts",
    "RevisionHarness",
    "diagnose",
    "diagnose_target",
    "doctor",
    "harness_facts",
    "prepare_sdk",
    "revision_harnesses",
]


@dataclass(frozen=True)
class DoctorRow:
    """One SDK line as this machine can run it: its tools, and what would run."""

    sdk: str
    statuses: tuple[ToolStatus, ...]
    #: tool → the version that would be provisioned, and whether the cache already has it.
    provision: dict[str, dict[str, Any]]
    #: What an assessment with the same flags and environment would run (`show-config`'s plan).
    would_run: TargetPreview

    @property
    def tools_ready(self) -> bool:
        """Every required tool is on PATH and new enough, or can be provisioned."""
        return all(status.ok for status in self.statuses)

    @property
    def runnable(self) -> bool:
        """The tools are ready and at least one leg at some revision would run."""
        return self.tools_ready and not self.would_run.nothing_would_run

    @property
    def reason(self) -> str:
        """What is missing, one line ("" when runnable): the tools', then why nothing would
        run."""
        found = [status.reason for status in self.statuses if not status.ok]
        return "; ".join(reason for reason in (*found, self.would_run.reason) if reason)

    def to_dict(self) -> dict[str, Any]:
        """The `--output json` form."""
        tools = []
        for status in self.statuses:
            row: dict[str, Any] = status.to_dict()
            row["provisioned"] = self.provision.get(status.tool)
            tools.append(row)
        return {
            "sdk": self.sdk,
            "runnable": self.runnable,
            "reason": self.reason or None,
            "tools": tools,
        }


def diagnose_target(
    target: Target,
    cache_dir: Path,
    *,
    environ: Mapping[str, str],
    flags: ConfigFlags,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> DoctorRow:
    """The row of one SDK: its entry's tools (none for an SDK not in the registry), looked up
    with the entry's own environment, and what an assessment of it with `flags` under
    `environ` would run at every revision it claims."""
    from tiercheck.sdk.tools import installed_tool

    would_run = preview_target(target, environ=environ, flags=flags)
    entry = target.entry
    if entry is None:
        return DoctorRow(target.name, (), {}, would_run)
    config = resolve(entry, entry.revisions[0], environ={}, flags=ConfigFlags())
    statuses = tuple(check_tools(entry.requires, sdk_probe_env(config), timeout_s=timeout_s))
    provision: dict[str, dict[str, Any]] = {}
    for status in statuses:
        if status.state != "provision":
            continue
        version = TOOLS[status.tool].pinned or ""
        cached = installed_tool(cache_dir, status.tool, version)
        provision[status.tool] = {"version": version, "cached": cached is not None}
    return DoctorRow(entry.name, statuses, provision, would_run)


def diagnose(
    entries: Sequence[SdkEntry],
    cache_dir: Path,
    *,
    environ: Mapping[str, str] | None = None,
    flags: ConfigFlags | None = None,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> list[DoctorRow]:
    """One row per entry, in order (`diagnose_target`); without `environ` and `flags`, what
    each entry alone would run."""
    return [
        diagnose_target(
            Target(name=entry.name, repo=entry.repo, ref=None, entry=entry, path=None),
            cache_dir,
            environ=environ or {},
            flags=flags or ConfigFlags(),
            timeout_s=timeout_s,
        )
        for entry in entries
    ]


@dataclass(frozen=True)
class DoctorRequest:
    """What `tier-check doctor` asks: every known line, or the one `--sdk`/`--sdk-path` names
    (in the forms `show-config` and the assessment accept), with the configuration flags."""

    registry: Registry
    cache_dir: Path
    environ: Mapping[str, str]
    flags: ConfigFlags
    sdk: str | None = None
    sdk_path: Path | None = None


@dataclass(frozen=True)
class Diagnosis:
    """What the doctor found: a row per line, with `--sdk-path` what would run at each
    revision, and the harness's facts."""

    rows: tuple[DoctorRow, ...]
    previews: tuple[RunPreview, ...]
    harness: HarnessFacts

    @property
    def exit_code(self) -> int:
        """0 when every row shown is runnable, else 1."""
        return 0 if all(row.runnable for row in self.rows) else 1


def doctor(request: DoctorRequest) -> Diagnosis:
    """`tier-check doctor`: the rows asked for, and the harness tiercheck runs."""
    previews: tuple[RunPreview, ...] = ()
    if request.sdk or request.sdk_path:
        target = resolve_target(
            request.registry, sdk=request.sdk, sdk_path=request.sdk_path, repo=None
        )
        row = diagnose_target(
            target, request.cache_dir, environ=request.environ, flags=request.flags
        )
        rows: tuple[DoctorRow, ...] = (row,)
        if request.sdk_path:
            previews = row.would_run.previews
    else:
        rows = tuple(
            diagnose(
                list(request.registry.entries.values()),
                request.cache_dir,
                environ=request.environ,
                flags=request.flags,
            )
        )
    return Diagnosis(rows, previews, harness_facts(request.cache_dir))


def prepare_sdk(options: AssessOptions, progress: ProgressSink) -> ToolsResult:
    """What an assessment does before its build, without the build: check the required tools,
    check out the code (the pins live there), provision uv/pnpm, check the toolchain pin."""
    from tiercheck.pipeline.assess.checkout import check_out
    from tiercheck.pipeline.assess.provision import check_toolchain

    plan = plan_assessment(options)
    requires = plan.target.entry.requires if plan.target.entry else ()
    checked = check_toolchain(requires, plan.revisions, progress)
    if checked.halt is not None:
        return ToolsResult(unmeasured=checked.unmeasured, halt=checked.halt)
    checkout = check_out(options, plan, progress)
    if checkout.path is None:
        return ToolsResult(unmeasured=checkout.unmeasured, halt=checkout.halt)
    return provision_tools(
        options.settings.cache_dir, checked, plan.revisions, checkout.path, progress
    )


#: Why the harness is an exact version, said by the doctor's text and JSON.
PIN_REASON = (
    "the exact version runners/package-lock.json pins; a dist-tag follower gets the wrong referee"
)


@dataclass(frozen=True)
class RevisionHarness:
    """A revision's `harness` (requirements/revisions.yaml) beside the pinned harness version."""

    revision: str
    harness: str
    #: "pinned" (the same), "newer" (defined by a harness newer than the pinned one: a warning),
    #: "older" (its frozen set mirrors an older release than the one run).
    relation: Literal["pinned", "newer", "older"]

    def warning(self, pinned: str) -> str | None:
        """The warning line for a revision defined by a newer harness, else None."""
        if self.relation != "newer":
            return None
        return (
            f"revision {self.revision} is defined by harness {self.harness}, newer than the "
            f"pinned {pinned}: the pinned harness may lack its scenarios and checks (bump "
            "runners/package.json and its lock; see CONTRIBUTING.md, Add a spec revision)"
        )


@dataclass(frozen=True)
class HarnessFacts:
    """The referee tiercheck runs, the revisions its bundle ships sets for that tiercheck has no
    data for, each revision's harness beside it, and what the npm registry publishes (None:
    unknown)."""

    pinned: str
    #: None when the pinned bundle is not provisioned yet (`tier-check setup`).
    bundled: tuple[str, ...] | None
    without_data: tuple[str, ...]
    newest: str | None
    tags: dict[str, str]
    newer: bool | None
    revisions: tuple[RevisionHarness, ...] = ()

    @property
    def warnings(self) -> list[str]:
        """One line per revision defined by a harness newer than the pinned one."""
        return [w for r in self.revisions if (w := r.warning(self.pinned)) is not None]

    def lines(self) -> list[str]:
        """The doctor's text."""
        out = [f"harness: @modelcontextprotocol/conformance {self.pinned} ({PIN_REASON})"]
        if self.bundled is None:
            out.append("  bundle: not provisioned here yet (tier-check setup)")
        else:
            out.append(f"  bundle ships requirement sets for: {', '.join(self.bundled) or 'none'}")
            if self.without_data:
                out.append(
                    f"  no revision data in tiercheck for: {', '.join(self.without_data)} "
                    "(see CONTRIBUTING.md, Add a spec revision)"
                )
        if self.newer is None:
            out.append("  npm registry: unknown (no answer)")
        else:
            tags = ", ".join(f"{k} {v}" for k, v in sorted(self.tags.items())) or "none"
            verdict = f"newer than {self.pinned}" if self.newer else "not newer"
            out.append(f"  npm registry: newest {self.newest} ({verdict}); dist-tags: {tags}")
        for entry in self.revisions:
            if entry.relation == "older":
                out.append(
                    f"  revision {entry.revision} is defined by harness {entry.harness}, older "
                    f"than the pinned {self.pinned}"
                )
        out.extend(f"  warning: {line}" for line in self.warnings)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The `harness` object of `--output json`: the text's facts, `registry` None when the
        registry did not answer."""
        registry = (
            None
            if self.newer is None
            else {
                "newest": self.newest,
                "newer": self.newer,
                "tags": dict(sorted(self.tags.items())),
            }
        )
        return {
            "pinned": self.pinned,
            "why": PIN_REASON,
            "bundled": list(self.bundled) if self.bundled is not None else None,
            "without_data": list(self.without_data),
            "registry": registry,
            "revisions": [
                {"revision": r.revision, "harness": r.harness, "relation": r.relation}
                for r in self.revisions
            ],
            "warnings": self.warnings,
        }


def revision_harnesses(pinned: str) -> tuple[RevisionHarness, ...]:
    """Each known revision's `harness` beside `pinned`, by semantic-version precedence."""
    from tiercheck.conformance.upstream import newer_than
    from tiercheck.revisions import harness_release, known_revisions

    found = []
    for name in known_revisions():
        harness = harness_release(name)
        relation: Literal["pinned", "newer", "older"] = "pinned"
        if newer_than(harness, pinned):
            relation = "newer"
        elif newer_than(pinned, harness):
            relation = "older"
        found.append(RevisionHarness(name, harness, relation))
    return tuple(found)


def harness_facts(cache_dir: Path, *, timeout_s: float = 5.0) -> HarnessFacts:
    """What the doctor says of the harness; the registry is asked once, bounded by `timeout_s`."""
    from tiercheck.conformance.harness import PINNED_VERSION
    from tiercheck.conformance.upstream import (
        bundled_requirement_sets,
        newer_than,
        pinned_bundle,
        registry_view,
    )
    from tiercheck.revisions import known_revisions

    root = pinned_bundle(cache_dir)
    bundled = bundled_requirement_sets(root) if root.is_dir() else None
    known = set(known_revisions())
    without = tuple(r for r in bundled or () if r not in known)
    view = registry_view(timeout_s=timeout_s)
    newest = view.newest if view else None
    newer = None if view is None or newest is None else newer_than(newest, PINNED_VERSION)
    return HarnessFacts(
        pinned=PINNED_VERSION,
        bundled=bundled,
        without_data=without,
        newest=newest,
        tags=dict(view.tags) if view else {},
        newer=newer,
        revisions=revision_harnesses(PINNED_VERSION),
    )
