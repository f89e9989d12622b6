"""Provisioning the SDK build tools that come from a package registry: uv (PyPI), pnpm (npm).

The same discipline as the harness: each (tool, version) is installed into a staging directory
under `<cache>/tools/`, checked by running it, moved into place atomically, and only then given
its completion marker; a complete install is reused without touching the registry, and an
interrupted one (no marker) is redone. uv is installed with our own Python's pip into a plain
`--target` folder (its `bin/` holds only uv and uvx, so nothing else is put on the SDK's PATH);
pnpm with npm into a prefix whose `node_modules/.bin/` holds only pnpm and pnpx. pnpm's version
is the SDK's own `packageManager` pin when it names pnpm, else tiercheck's pinned default.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tiercheck import process
from tiercheck.config.requires import TOOLS, ToolSpec
from tiercheck.errors import ProcessError, ToolMissingError

__all__ = [
    "ProvisionedTool",
    "installed_tool",
    "package_manager_pin",
    "provision_tool",
    "tool_install_dir",
]

_MARKER = ".tiercheck-complete.json"
_INSTALL_TIMEOUT_S = 600.0
_VERSION = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")


@dataclass(frozen=True)
class ProvisionedTool:
    """A tool installed into tiercheck's cache: put `bin_dir` first on the SDK's PATH."""

    tool: str
    version: str
    bin_dir: Path
    #: "provisioned" (installed by this run) or "cached" (an earlier complete install).
    source: str

    def to_dict(self) -> dict[str, str]:
        """The scorecard's form."""
        return {"version": self.version, "source": self.source, "path": str(self.bin_dir)}


def package_manager_pin(checkout: Path, tool: str) -> str | None:
    """The version of `tool` the checkout's package.json `packageManager` field pins, if any.

    `"pnpm@10.26.1"` and `"pnpm@10.26.1+sha512.…"` both give 10.26.1; another manager, or a
    range, gives None.
    """
    try:
        manifest = json.loads((checkout / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    field = manifest.get("packageManager") if isinstance(manifest, dict) else None
    if not isinstance(field, str):
        return None
    name, _, version = field.partition("@")
    version = version.split("+", 1)[0]
    if name != tool or not _VERSION.match(version):
        return None
    return version


def tool_install_dir(cache_dir: Path, tool: str, version: str) -> Path:
    """Where (tool, version) lives in the cache."""
    return cache_dir / "tools" / tool / version


def _bin_dir(spec: ToolSpec, install: Path) -> Path:
    return install / ("bin" if spec.registry == "pypi" else "node_modules/.bin")


def installed_tool(cache_dir: Path, tool: str, version: str) -> ProvisionedTool | None:
    """A complete earlier install of (tool, version), or None."""
    install = tool_install_dir(cache_dir, tool, version)
    try:
        marker = json.loads((install / _MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    bin_dir = _bin_dir(TOOLS[tool], install)
    if not isinstance(marker, dict) or not (bin_dir / tool).exists():
        return None
    return ProvisionedTool(tool, str(marker.get("version", version)), bin_dir, "cached")


def _install_argv(spec: ToolSpec, version: str, staging: Path) -> list[str]:
    if spec.registry == "pypi":
        return [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-warn-script-location",
            "--target",
            str(staging),
            f"{spec.package}=={version}",
        ]
    npm = shutil.which("npm")
    if npm is None:
        msg = f"npm is not on PATH; install Node.js (which provides npm) to provision {spec.name}"
        raise ToolMissingError(msg)
    return [
        npm,
        "install",
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--prefix",
        str(staging),
        f"{spec.package}@{version}",
    ]


def _reported_version(spec: ToolSpec, bin_dir: Path) -> str:
    # Run it once, as the SDK would: a package that installs but cannot run is not provisioned.
    result = process.capture([str(bin_dir / spec.name), *spec.version_argv[1:]], timeout_s=60.0)
    match = re.search(spec.version_pattern, result.stdout + result.stderr)
    if result.returncode != 0 or match is None:
        output = (result.stderr or result.stdout).strip()[-300:]
        msg = f"the provisioned {spec.name} does not run: {output or result.returncode}"
        raise ProcessError(msg)
    return match.group(1)


def provision_tool(
    cache_dir: Path,
    tool: str,
    version: str,
    *,
    progress: Callable[[str], None] | None = None,
) -> ProvisionedTool:
    """Install (or reuse) `tool` at `version` under `cache_dir/tools/`.

    Raises ProcessError (with the installer's log tail) when the registry or the installer
    fails, ToolMissingError when the installer itself (npm) is missing.
    """
    spec = TOOLS[tool]
    if not spec.provisionable or not _VERSION.match(version):
        msg = f"cannot provision {tool} {version!r}: not a registry tool at an exact version"
        raise ProcessError(msg)
    existing = installed_tool(cache_dir, tool, version)
    if existing is not None:
        return existing
    install = tool_install_dir(cache_dir, tool, version)
    staging = install.with_name(f"{version}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    argv = _install_argv(spec, version, staging)
    if progress is not None:
        progress(f"provisioning {tool} {version} from {spec.registry}")
    log = install.with_name(f"{version}.install.log")
    try:
        result = process.run(
            argv, cwd=staging, env=dict(os.environ), log_path=log, timeout_s=_INSTALL_TIMEOUT_S
        )
        if not result.ok:
            how = "timed out" if result.timed_out else f"exited {result.returncode}"
            msg = f"installing {tool} {version} from {spec.registry} {how}:\n{process.tail(log)}"
            raise ProcessError(msg)
        _reported_version(spec, _bin_dir(spec, staging))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if install.exists():
        raced = installed_tool(cache_dir, tool, version)
        if raced is not None:  # a concurrent run finished first: use its install
            shutil.rmtree(staging, ignore_errors=True)
            return raced
        shutil.rmtree(install)  # an interrupted install of ours (no marker): replace it
    staging.rename(install)
    # Scripts written by pip and npm may name the staging path; run it at its final place.
    reported = _reported_version(spec, _bin_dir(spec, install))
    marker = {"tool": tool, "version": reported, "requested": version}
    (install / _MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    return ProvisionedTool(tool, reported, _bin_dir(spec, install), "provisioned")
