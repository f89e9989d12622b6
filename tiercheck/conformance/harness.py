"""Provisioning the pinned conformance harness (npm package + Node 22) into tiercheck's cache.

`runners/package.json` and its lock pin `@modelcontextprotocol/conformance` and a Node 22 binary
(the npm `node` package), so one `npm ci` gives a reproducible referee without touching the
system Node. An install is complete only when its marker file exists; the marker is written
last and the install directory is moved into place atomically, so an interrupted provision is
redone instead of being trusted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tiercheck import process
from tiercheck.errors import ProcessError, ToolMissingError
from tiercheck.paths import data_path

__all__ = ["MIN_NODE_MAJOR", "PINNED_VERSION", "Harness", "pinned_version", "provision"]

#: The harness's CLI needs Node 22 or newer.
MIN_NODE_MAJOR = 22
PACKAGE = "@modelcontextprotocol/conformance"


def pinned_version(runners: Path) -> str:
    """The exact harness version a runners folder's `package.json` pins (its lock agrees, or
    `npm ci` refuses it)."""
    manifest = json.loads((runners / "package.json").read_text(encoding="utf-8"))
    return str(manifest["dependencies"][PACKAGE])


#: The harness version `runners/package.json` and its lock pin: data, so a referee change is a
#: change of `runners/` alone (`tier-check referee update`).
PINNED_VERSION = pinned_version(data_path("runners"))
_MARKER = ".tiercheck-complete.json"
_NPM_TIMEOUT_S = 900.0


@dataclass(frozen=True)
class Harness:
    """A provisioned harness: how to run it, and what exactly it is (for the scorecard)."""

    node: Path
    cli_js: Path
    version: str
    node_version: str

    @property
    def root(self) -> Path:
        """The harness package directory (holds `requirements/<rev>.yaml`)."""
        return self.cli_js.parent.parent

    def argv(self, *args: str) -> list[str]:
        """The argv that runs the harness CLI with `args`."""
        return [str(self.node), str(self.cli_js), *args]

    def requirements_file(self, revision: str) -> Path:
        """The requirement set this harness build ships for a revision."""
        return self.root / "requirements" / f"{revision}.yaml"

    def folder(self) -> Path | None:
        """The cache folder this harness was provisioned into (`<cache>/harness/<version>/`,
        holding its marker and `node_modules/`), or None when its bundle is not in one: what
        tiercheck keeps of this harness is kept there and nowhere else."""
        package = Path("node_modules", *PACKAGE.split("/"))
        for parent in self.cli_js.parents:
            if parent.name != "node_modules" or not self.cli_js.is_relative_to(
                parent.parent / package
            ):
                continue
            marker = parent.parent / _MARKER
            return parent.parent if marker.is_file() and not marker.is_symlink() else None
        return None


def _say(progress: Callable[[str], None] | None, message: str) -> None:
    if progress is not None:
        progress(message)


def _node_major(version: str) -> int:
    match = re.match(r"v?(\d+)\.", version.strip())
    return int(match.group(1)) if match else 0


def _node_version(node: Path) -> str:
    result = process.capture([str(node), "--version"], timeout_s=30.0)
    if result.returncode != 0:
        msg = f"{node} --version failed: {result.stderr.strip() or result.returncode}"
        raise ProcessError(msg)
    return result.stdout.strip()


def _choose_node(install: Path) -> tuple[Path, str]:
    # The packaged Node is pinned by the lock and preferred for reproducibility; a system
    # `node` of a new enough major is the fallback when the package brought none.
    packaged = install / "node_modules" / ".bin" / "node"
    if packaged.exists():
        return packaged.resolve(), _node_version(packaged)
    system = shutil.which("node")
    if system is not None:
        version = _node_version(Path(system))
        if _node_major(version) >= MIN_NODE_MAJOR:
            return Path(system), version
    msg = (
        f"no Node.js {MIN_NODE_MAJOR}+ for the conformance harness: the packaged node is missing "
        f"from {install} and `node` on PATH is absent or older; install Node.js {MIN_NODE_MAJOR}+"
    )
    raise ToolMissingError(msg)


def _harness_from(install: Path) -> Harness:
    package_dir = install / "node_modules" / PACKAGE
    try:
        meta = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        msg = f"the conformance harness in {install} is incomplete: {exc}"
        raise ProcessError(msg) from exc
    bin_field = meta.get("bin")
    entry = bin_field.get("conformance") if isinstance(bin_field, dict) else bin_field
    cli_js = package_dir / (entry if isinstance(entry, str) else "dist/index.js")
    node, node_version = _choose_node(install)
    return Harness(
        node=node, cli_js=cli_js, version=str(meta.get("version", "?")), node_version=node_version
    )


def _load_complete(install: Path) -> Harness | None:
    marker = install / _MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        harness = Harness(
            node=Path(data["node"]),
            cli_js=Path(data["cli_js"]),
            version=data["version"],
            node_version=data["node_version"],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (harness.node.exists() and harness.cli_js.is_file()):
        return None
    return harness


def _safe_dirname(version: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", version) or "_"


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        msg = "npm is not on PATH; install Node.js (which provides npm) to provision the harness"
        raise ToolMissingError(msg)
    return npm


def _prepare(staging: Path, version: str, runners: Path | None = None) -> list[str]:
    source = runners or data_path("runners")
    staging.mkdir(parents=True)
    shutil.copy2(source / "package.json", staging / "package.json")
    if version == pinned_version(source):
        shutil.copy2(source / "package-lock.json", staging / "package-lock.json")
        return ["ci", "--no-audit", "--no-fund"]
    manifest = json.loads((source / "package.json").read_text(encoding="utf-8"))
    manifest.setdefault("dependencies", {})[PACKAGE] = version
    (staging / "package.json").write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    if runners is None:
        # Another harness version to run: same manifest, that version, and no lock to honour.
        return ["install", "--no-audit", "--no-fund"]
    # A new pin for `runners`: its lock is where npm starts, so only the harness and what it
    # needs change, and the lock is written as the committed one is (no registry URLs).
    shutil.copy2(source / "package-lock.json", staging / "package-lock.json")
    return ["install", "--no-audit", "--no-fund", "--omit-lockfile-registry-resolved"]


def _move_into_place(staging: Path, install: Path) -> Harness | None:
    """Rename the finished staging dir to `install`; None if a concurrent run got there first."""
    if install.exists():
        existing = _load_complete(install)
        if existing is not None:
            shutil.rmtree(staging, ignore_errors=True)
            return existing
        shutil.rmtree(install)  # an interrupted install of ours (no marker): replace it
    try:
        staging.rename(install)
    except OSError:
        existing = _load_complete(install)
        if existing is None:
            raise
        shutil.rmtree(staging, ignore_errors=True)
        return existing
    return None


def provision(
    cache_dir: Path,
    *,
    version: str = PINNED_VERSION,
    progress: Callable[[str], None] | None = None,
    runners: Path | None = None,
) -> Harness:
    """Install (or reuse) the conformance harness under `cache_dir/harness/<version>/`.

    The pinned version is installed from the committed lock with `npm ci`; any other version
    with `npm install`. A complete earlier install is reused without running npm. Raises
    ToolMissingError without npm, ProcessError when npm fails (with its log tail).

    `runners` names another runners folder (a tree's `runners/`) to start from instead of the
    shipped one: its pinned version is installed with `npm ci` from its lock, and any other
    version with `npm install` from its lock, so the install's `package-lock.json` is the lock
    that would pin that version there.
    """
    install = cache_dir / "harness" / _safe_dirname(version)
    existing = _load_complete(install)
    if existing is not None:
        return existing
    npm = _npm()
    staging = install.with_name(f"{install.name}.partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    npm_args = _prepare(staging, version, runners)
    log = staging / "npm.log"
    _say(progress, f"provisioning {PACKAGE} {version} (npm {npm_args[0]})")
    try:
        result = process.run(
            [npm, *npm_args],
            cwd=staging,
            env=dict(os.environ),
            log_path=log,
            timeout_s=_NPM_TIMEOUT_S,
        )
        if not result.ok:
            how = "timed out" if result.timed_out else f"exited {result.returncode}"
            msg = f"npm {npm_args[0]} for {PACKAGE} {version} {how}:\n{process.tail(log)}"
            raise ProcessError(msg)
        harness = _harness_from(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    raced = _move_into_place(staging, install)
    if raced is not None:
        return raced
    # Paths were resolved inside the staging dir; re-resolve them at the final location.
    harness = _harness_from(install)
    marker = {
        "version": harness.version,
        "node_version": harness.node_version,
        "node": str(harness.node),
        "cli_js": str(harness.cli_js),
        "requested": version,
    }
    (install / _MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    _say(progress, f"harness {harness.version} ready (node {harness.node_version})")
    return harness
