"""What the pinned harness bundle ships and what the npm registry publishes, for the doctor.

tiercheck runs the exact version `runners/package-lock.json` pins (`harness.PINNED_VERSION`),
never a dist-tag: a tag follower gets the wrong referee (the `latest` tag has pointed at a
release that cannot run the stateless wire). The registry is only asked whether a newer
version exists; any failure to answer is "unknown", never an error.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import httpx

from tiercheck.conformance.harness import PACKAGE, PINNED_VERSION

__all__ = [
    "NPM_REGISTRY_ENV",
    "RegistryView",
    "bundled_requirement_sets",
    "newer_than",
    "pinned_bundle",
    "registry_view",
]

#: Another npm registry to ask (a mirror; tests use a local one).
NPM_REGISTRY_ENV = "TIERCHECK_NPM_REGISTRY"
_DEFAULT_REGISTRY = "https://registry.npmjs.org"
_SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")


@dataclass(frozen=True)
class RegistryView:
    """What the registry's package document says: the newest version and the dist-tags."""

    newest: str | None
    tags: dict[str, str]


def pinned_bundle(cache_dir: Path) -> Path:
    """Where `tier-check setup` puts the pinned harness package (it may not be there yet)."""
    return cache_dir / "harness" / PINNED_VERSION / "node_modules" / PACKAGE


def bundled_requirement_sets(harness_root: Path) -> tuple[str, ...]:
    """The revisions the bundle ships a frozen set for (`requirements/<revision>.yaml`)."""
    folder = harness_root / "requirements"
    return tuple(sorted(p.stem for p in folder.glob("*.yaml"))) if folder.is_dir() else ()


def _key(version: str) -> tuple[int, int, int, int, tuple[tuple[int, int | str], ...]] | None:
    """Semantic-version precedence: a release sorts after its pre-releases."""
    match = _SEMVER.match(version)
    if match is None:
        return None
    major, minor, patch, pre = match.groups()
    parts = tuple((0, int(p)) if p.isdigit() else (1, p) for p in (pre.split(".") if pre else ()))
    return (int(major), int(minor), int(patch), 0 if pre else 1, parts)


def newer_than(version: str, pinned: str) -> bool:
    """Whether `version` has higher precedence than `pinned` (False when either is not semver)."""
    a, b = _key(version), _key(pinned)
    return a is not None and b is not None and a > b


def registry_view(registry: str | None = None, *, timeout_s: float = 5.0) -> RegistryView | None:
    """The package document's newest version and dist-tags; None when it cannot be had."""
    base = (registry or os.environ.get(NPM_REGISTRY_ENV) or _DEFAULT_REGISTRY).rstrip("/")
    url = f"{base}/{PACKAGE.replace('/', '%2F')}"
    try:
        reply = httpx.get(
            url, timeout=timeout_s, headers={"Accept": "application/json"}, follow_redirects=False
        )
        if reply.status_code != 200:
            return None
        doc = reply.json()
    except (httpx.HTTPError, ValueError):
        return None
    if not isinstance(doc, dict):
        return None
    versions = doc.get("versions")
    names = (
        [v for v in versions if isinstance(v, str) and _key(v)]
        if isinstance(versions, dict)
        else []
    )
    raw_tags = doc.get("dist-tags")
    tags = (
        {str(k): v for k, v in raw_tags.items() if isinstance(v, str)}
        if isinstance(raw_tags, dict)
        else {}
    )
    newest = max(names, key=lambda v: _key(v) or (0, 0, 0, 0, ())) if names else None
    return RegistryView(newest=newest, tags=tags)
