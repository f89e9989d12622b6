"""`tier-check setup`: the pinned harness and its Node runtime provisioned into the cache, and,
with `--sdk NAME`, that SDK line made ready ahead of an assessment.

`cli/` parses the flags into a `SetupRequest` and, with `--sdk`, an `SdkSetupRequest` (built
once the harness is there, so the registry's warnings come after its progress, as the command
always printed them). `setup_harness` installs or reuses the harness (`conformance.harness`);
`setup_sdk` resolves the SDK (`target.resolve_target`) and does what an assessment does
before its build (`doctor.prepare_sdk`): check the required tools, check out the code and
provision uv/pnpm. What they return is printed by the command line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, RunSettings
from tiercheck.pipeline.doctor import prepare_sdk
from tiercheck.target import resolve_target

if TYPE_CHECKING:
    from tiercheck.config.registry import Registry
    from tiercheck.conformance.harness import Harness

__all__ = ["SdkReady", "SdkSetupRequest", "SetupRequest", "setup_harness", "setup_sdk"]


@dataclass(frozen=True)
class SetupRequest:
    """`tier-check setup [--cache-dir DIR] [--harness-version V]`."""

    cache_dir: Path
    #: `--harness-version`; None: the version tiercheck is pinned to.
    harness_version: str | None = None


@dataclass(frozen=True)
class SdkSetupRequest:
    """`tier-check setup --sdk NAME[@REF] [--git-url URL]`, under an environment."""

    registry: Registry
    sdk: str
    cache_dir: Path
    environ: Mapping[str, str] = field(default_factory=dict)
    #: `--git-url`: clone the SDK from here.
    git_url: str | None = None
    #: The folder an assessment would write into (the checkout does not write there).
    out_dir: Path = field(default_factory=Path.cwd)


@dataclass(frozen=True)
class SdkReady:
    """An SDK line as setup left it: its tools, or why it cannot run here."""

    sdk: str
    #: tool → {"version", "source", "path"} (`ToolsResult.tools`).
    tools: Mapping[str, Mapping[str, str | None]]
    #: Why the line cannot run here; None when it can.
    halt: str | None = None

    @property
    def exit_code(self) -> int:
        """1 when the line cannot run here, else 0."""
        return 0 if self.halt is None else 1

    def lines(self) -> list[str]:
        """One line per provisioned tool: name, version, where it came from, its path."""
        return [
            f"{name} {tool['version']} ({tool['source']}) at {tool['path']}"
            for name, tool in self.tools.items()
        ]


def setup_harness(request: SetupRequest, progress: Callable[[str], None]) -> Harness:
    """The harness at the request's version (the pinned one by default), installed or reused
    under the cache; npm's progress goes to `progress`."""
    from tiercheck.conformance.harness import PINNED_VERSION, provision

    version = request.harness_version or PINNED_VERSION
    return provision(request.cache_dir, version=version, progress=progress)


def setup_sdk(request: SdkSetupRequest, progress: ProgressSink) -> SdkReady:
    """The SDK the request names, resolved (a bad name is a UsageError) and made ready as an
    assessment would before its build."""
    target = resolve_target(request.registry, sdk=request.sdk, sdk_path=None, repo=None)
    settings = RunSettings(
        cache_dir=request.cache_dir, environ=dict(request.environ), git_url=request.git_url
    )
    setting_up = AssessOptions(target=target, settings=settings, out_dir=request.out_dir)
    ready = prepare_sdk(setting_up, progress)
    return SdkReady(target.name, ready.tools, ready.halt)
