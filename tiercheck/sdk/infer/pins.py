"""The harness versions an SDK's CI pins: `@modelcontextprotocol/conformance@V` in its workflows
and the scripts of its root `package.json`, the package's entry in that manifest's dependencies,
and the exact version its `package-lock.json` resolved (which a range in the manifest stands
for), and the official action's release tag (`uses: modelcontextprotocol/conformance@v0.1.16`).
A run of the package without a version (`npx @modelcontextprotocol/conformance server`)
runs npm's `latest` tag, and is recorded as `latest`. A version given through a variable is
looked up where the same text sets it (`CONFORMANCE_VERSION: 0.1.16`, `V=0.1.16`), and a
workflow's own variable for it (`CONFORMANCE_VERSION: …`, read by a script the workflow runs)
counts; one set elsewhere (a repository variable) is not read.

`harness_pins` is pure (texts in); `read_harness_pins` reads the files inside the checkout.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from tiercheck.config.safeload import read_text
from tiercheck.errors import ConfigError

__all__ = ["PACKAGE", "harness_pins", "read_harness_pins"]

PACKAGE: Final = "@modelcontextprotocol/conformance"
#: The package named in a command, with what follows it.
_NAMED = re.compile(re.escape(PACKAGE) + r"(?:@(\$\{\{[^}]*\}\}|[^\s\"'`;&|)]+))?")
#: A version, range or tag as npm reads one: nothing a registry entry could not hold as it is.
_SPEC = re.compile(r"[0-9A-Za-z^~<>=*][0-9A-Za-z.+~^<>=*| -]{0,63}")
_VARIABLE = re.compile(
    r"^\$\{\{\s*(?:env|vars|inputs)\.([A-Za-z_]\w*)\s*\}\}$|^\$\{?([A-Za-z_]\w*)\}?$"
)
#: A workflow's variable that names the harness's version (`CONFORMANCE_VERSION: 0.1.16`).
_VERSION_VARIABLE = re.compile(
    r"(?m)^\s*([A-Z_]*CONFORMANCE[A-Z_]*VERSION[A-Z_]*)\s*:\s*[\"']?([^\"'\s#]+)"
)
#: The official action at a release tag (`uses: modelcontextprotocol/conformance@v0.1.16`).
_ACTION = re.compile(
    r"(?m)^[\s-]*uses:\s*[\"']?modelcontextprotocol/conformance@v?(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)"
)
_MAX_BYTES: Final = 1024 * 1024


def _set_in(text: str, name: str) -> str | None:
    """The value `text` sets `name` to (`NAME: V`, `NAME=V`, quoted or not), if one."""
    found = re.search(rf"(?m)^\s*(?:export\s+)?{re.escape(name)}\s*[:=]\s*[\"']?([^\"'\s#]+)", text)
    return found.group(1) if found else None


def _spec(raw: str, text: str) -> str | None:
    variable = _VARIABLE.match(raw)
    if variable is not None:
        value = _set_in(text, variable.group(1) or variable.group(2))
        if value is None:
            return None  # set elsewhere (a repository variable, a secret): not read
        raw = value
    raw = raw.strip().rstrip(".,")
    return raw if _SPEC.fullmatch(raw) else None


def _in_text(path: str, text: str, pins: dict[str, str]) -> None:
    for match in _NAMED.finditer(text):
        raw = match.group(1)
        if raw is None:
            if not path.endswith("package.json"):
                pins.setdefault("latest", path)
            continue
        spec = _spec(raw, text)
        if spec is not None:
            pins.setdefault(spec, path)
    if path.endswith((".yml", ".yaml")):
        # The official action at a release tag runs the harness of that version.
        for found in _ACTION.finditer(text):
            pins.setdefault(found.group(1), path)
        # A workflow's variable for the harness's version, used by a script it runs.
        for found in _VERSION_VARIABLE.finditer(text):
            spec = _spec(found.group(2), text)
            if spec is not None:
                pins.setdefault(spec, path)


def _locked(text: str) -> str | None:
    try:
        lock = json.loads(text)
    except ValueError:
        return None
    packages = lock.get("packages") if isinstance(lock, dict) else None
    entry = packages.get(f"node_modules/{PACKAGE}") if isinstance(packages, dict) else None
    version = entry.get("version") if isinstance(entry, dict) else None
    return version if isinstance(version, str) and _SPEC.fullmatch(version) else None


def _manifest(text: str) -> str | None:
    try:
        manifest = json.loads(text)
    except ValueError:
        return None
    if not isinstance(manifest, dict):
        return None
    for key in ("dependencies", "devDependencies", "optionalDependencies"):
        deps = manifest.get(key)
        spec = deps.get(PACKAGE) if isinstance(deps, dict) else None
        if isinstance(spec, str) and _SPEC.fullmatch(spec.strip()):
            return spec.strip()
    return None


def harness_pins(files: Mapping[str, str]) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """((version, the file that pins it), …) in file order (and no notes: a version set
    where these texts do not say is not read).

    `files`: the workflows (`.github/workflows/*.yml`), `package.json` and `package-lock.json`
    (path → text)."""
    pins: dict[str, str] = {}
    locked = _locked(files.get("package-lock.json", "")) if "package-lock.json" in files else None
    for path, text in files.items():
        if path == "package-lock.json":
            continue
        if path == "package.json":
            spec = _manifest(text)
            if spec is not None:
                pins.setdefault(locked or spec, "package-lock.json" if locked else path)
        _in_text(path, text, pins)
    return tuple(pins.items()), ()


def _inside(root: Path, path: Path) -> bool:
    try:
        return path.resolve().is_relative_to(root.resolve()) and path.is_file()
    except OSError:
        return False


def read_harness_pins(root: Path) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """`harness_pins` of the checkout at `root`: its workflows and root manifest and lock, each
    read only when it is a file inside `root` of at most a MiB."""
    folder = root / ".github" / "workflows"
    names = sorted(
        p.relative_to(root).as_posix()
        for pattern in ("*.yml", "*.yaml")
        for p in (folder.glob(pattern) if folder.is_dir() else ())
    )
    files: dict[str, str] = {}
    notes: list[str] = []
    for rel in [*names, "package.json", "package-lock.json"]:
        path = root / rel
        if not _inside(root, path):
            continue
        try:
            files[rel] = read_text(path, what="a file of the checkout", max_bytes=_MAX_BYTES)
        except ConfigError as exc:
            notes.append(f"{rel}: not read for the harness version ({exc.message})")
    pins, more = harness_pins(files)
    return pins, (*notes, *more)
