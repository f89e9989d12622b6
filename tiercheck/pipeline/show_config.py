"""`tier-check show-config`: an SDK's configuration resolved per revision, each value with the
layer that gave it, what an assessment with the same flags would run, and which variables of
the environment the SDK would not be given.

`cli/` parses the flags into a `ShowConfigRequest`; `show_config` resolves the target and the
cascade at each revision (`assess.preview.preview_target`, as the assessment would) and names
the withheld variables; what it returns is written as JSON (`to_dict`) or as text (`lines`), and
printed by the command line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiercheck.config.registry import Registry
from tiercheck.config.resolve import ConfigFlags
from tiercheck.conformance.harness import PINNED_VERSION
from tiercheck.pipeline.assess.preview import TargetPreview, preview_target
from tiercheck.process import withheld as withheld_env
from tiercheck.sdk.infer.pins import read_harness_pins
from tiercheck.target import Target, resolve_target

__all__ = ["ShowConfigRequest", "ShownConfig", "show_config"]

#: The label of the withheld variables' line, which sets the width of the names' column.
_WITHHELD = "withheld from the SDK"


@dataclass(frozen=True)
class ShowConfigRequest:
    """`tier-check show-config (--sdk NAME | --sdk-path DIR) [--revision REV]` and the
    configuration overrides, under an environment."""

    registry: Registry
    #: `--sdk`: NAME or OWNER/REPO (configured by the entry named like the repository), either
    #: with @REF.
    sdk: str | None = None
    #: `--sdk-path`: a checkout (its config from `--sdk`, else the flags and variables).
    sdk_path: Path | None = None
    #: `--revision`: one revision; None: every one the SDK claims.
    revision: str | None = None
    environ: Mapping[str, str] = field(default_factory=dict)
    flags: ConfigFlags = field(default_factory=ConfigFlags)


@dataclass(frozen=True)
class ShownConfig:
    """The SDK, its configuration and preview per revision, and the withheld variables."""

    target: Target
    plan: TargetPreview
    #: Revision → the names (never the values) of the variables the SDK is not given.
    withheld: Mapping[str, Sequence[str]]
    #: The harness versions the SDK's CI pins: the entry's `ci_harness`, else read from the
    #: checkout `--sdk-path` names.
    ci_harness: tuple[str, ...] = ()
    #: Where `ci_harness` was read ("the entry", "the checkout"); None: nowhere.
    ci_harness_from: str | None = None

    def harness_line(self) -> str:
        """`CI pins X, the referee is Y`."""
        if self.ci_harness:
            pins = " and ".join(self.ci_harness)
            return f"CI pins {pins} ({self.ci_harness_from}), the referee is {PINNED_VERSION}"
        return (
            "CI pins no harness version tiercheck read (`tier-check init` records it), "
            f"the referee is {PINNED_VERSION}"
        )

    @property
    def hint(self) -> str | None:
        """The line that says nothing would run, and why; None when a leg would."""
        if not self.plan.nothing_would_run:
            return None
        return f"nothing would run (exit 3): {self.plan.reason}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON `show-config --json` prints."""
        entry = self.target.entry
        payload: dict[str, Any] = {
            "sdk": self.target.name,
            "repo": self.target.repo,
            "default_ref": entry.default_ref if entry else None,
            "registered": entry is not None,
            "path": str(self.target.path) if self.target.path else None,
            "revisions": {c.revision: c.to_dict() for c in self.plan.configs},
            "would_run": {p.revision: p.to_dict() for p in self.plan.previews},
            "withheld_env": {revision: list(names) for revision, names in self.withheld.items()},
            "harness": {
                "ci_pins": list(self.ci_harness),
                "ci_pins_from": self.ci_harness_from,
                "referee": PINNED_VERSION,
            },
        }
        if self.plan.server_turns is not None:
            payload["server_legs"] = self.plan.server_turns
        if self.hint is not None:
            payload["nothing_would_run"] = self.hint
        return payload

    def lines(self) -> list[str]:
        """The text `show-config` prints: the SDK, then each revision's values with their
        sources, the withheld variables and what would run."""
        lines = [self._heading(), f"harness: {self.harness_line()}"]
        configs = self.plan.configs
        # One column for the names, as wide as the widest (`expected_failures.server`).
        width = max(len(_WITHHELD), *(len(k) for c in configs for k in c.values))
        for config, preview in zip(configs, self.plan.previews, strict=True):
            lines += ["", f"revision {config.revision}"]
            for key, item in config.to_dict().items():
                lines.append(f"  {key:<{width}} {item['value']!r}")
                lines.append(f"  {'':<{width}}   from {item['source']}")
            names = self.withheld[config.revision]
            lines.append(f"  {_WITHHELD:<{width}} {', '.join(names) if names else 'nothing'}")
            why = "your environment, secret by name or value (pass_env lets one through)"
            lines.append(f"  {'':<{width}}   {why}")
            lines.append("  would run:")
            lines.extend(f"    {line}" for line in preview.lines())
        if self.plan.server_turns is not None:
            lines += ["", f"server legs: {self.plan.server_turns}"]
        if self.hint is not None:
            lines += ["", self.hint]
        return lines

    def _heading(self) -> str:
        entry = self.target.entry
        if entry is not None:
            return f"{entry.name} ({entry.repo} @{entry.default_ref}; {entry.source})"
        return (
            f"{self.target.name} ({self.target.repo}): not in the registry, configured by flags "
            "and TIERCHECK_* variables alone"
        )


def show_config(request: ShowConfigRequest) -> ShownConfig:
    """The configuration an assessment of the SDK the request names would resolve, at its
    revision or at every revision it claims; a bad name or revision is a UsageError."""
    target = resolve_target(request.registry, sdk=request.sdk, sdk_path=request.sdk_path, repo=None)
    plan = preview_target(
        target, environ=request.environ, flags=request.flags, revision=request.revision
    )
    # Names only: a value is never shown, not even to say which shape gave it away.
    withheld = {c.revision: tuple(withheld_env(allow=c.pass_env)) for c in plan.configs}
    pins: tuple[str, ...] = target.entry.ci_harness if target.entry else ()
    where = "the entry" if pins else None
    if not pins and target.path is not None and target.path.is_dir():
        pins = tuple(version for version, _ in read_harness_pins(target.path)[0])
        where = "the checkout" if pins else None
    return ShownConfig(target, plan, withheld, pins, where)
