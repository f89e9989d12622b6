"""The tree a referee change is written into: its `runners/` pin and its `requirements/`.

A tree is a checkout of this repository (`--root`, else the repository tiercheck runs from):
`runners/package.json` and `runners/package-lock.json` pin the harness, and
`requirements/revisions.yaml` names each revision, beside its set `requirements/<name>.yaml`.
Reading one only reads; `referee.write` writes the reviewed change back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from tiercheck.config.safeload import read_text
from tiercheck.errors import ConfigError, UsageError
from tiercheck.paths import data_path
from tiercheck.revisions import Revision, read_revisions

__all__ = [
    "LOCK",
    "MANIFEST",
    "PACKAGE",
    "REVISIONS",
    "Pin",
    "Tree",
    "default_root",
    "read_tree",
    "set_path",
]

#: The harness package (`conformance.harness.PACKAGE`, named here so that reading a tree and
#: the pure modules above it import nothing that starts a process).
PACKAGE: Final = "@modelcontextprotocol/conformance"
MANIFEST: Final = "runners/package.json"
LOCK: Final = "runners/package-lock.json"
REVISIONS: Final = "requirements/revisions.yaml"


def set_path(name: str) -> str:
    """Where a revision's requirement set lives in a tree."""
    return f"requirements/{name}.yaml"


@dataclass(frozen=True)
class Pin:
    """A runners folder's manifest and lock, as text."""

    manifest: str
    lock: str

    @property
    def version(self) -> str:
        """The harness version the manifest pins."""
        data = json.loads(self.manifest)
        return str(data["dependencies"][PACKAGE])

    def locked(self) -> dict[str, str]:
        """Every package of the lock (its path under node_modules) → its version."""
        data = json.loads(self.lock)
        packages = data.get("packages") if isinstance(data, dict) else None
        if not isinstance(packages, dict):
            return {}
        return {
            path.removeprefix("node_modules/"): str(entry.get("version"))
            for path, entry in packages.items()
            if path and isinstance(entry, dict)
        }


@dataclass(frozen=True)
class Tree:
    """A tree's pin, revisions and sets, as they are before the change."""

    root: Path
    pin: Pin
    revisions_text: str
    revisions: tuple[Revision, ...]
    #: Revision → its set's text.
    sets: Mapping[str, str]


def default_root() -> Path:
    """The repository tiercheck runs from (a source checkout); a UsageError for an installed
    package, whose data is no tree to change."""
    root = data_path("runners").resolve().parent
    if all((root / part).exists() for part in ("runners", "requirements", "pyproject.toml")):
        return root
    msg = (
        "tiercheck runs from an installed package, not a checkout: give --root DIR, the "
        "repository checkout whose runners/ and requirements/ to change"
    )
    raise UsageError(msg)


def _text(root: Path, rel: str) -> str:
    path = root / rel
    if not path.is_file():
        msg = f"--root {root}: no {rel} (a checkout of tiercheck holds runners/ and requirements/)"
        raise UsageError(msg)
    return read_text(path, what=rel)


def read_tree(root: Path) -> Tree:
    """The tree at `root`; a UsageError when it is not one, a ConfigError when its data is bad."""
    pin = Pin(_text(root, MANIFEST), _text(root, LOCK))
    try:
        pin.version  # noqa: B018 - the manifest must name the harness
    except (ValueError, KeyError, TypeError):
        msg = f"{root / MANIFEST}: does not pin {PACKAGE} under dependencies"
        raise ConfigError(msg) from None
    revisions_text = _text(root, REVISIONS)
    revisions = read_revisions(root / REVISIONS)
    sets = {r.name: _text(root, set_path(r.name)) for r in revisions}
    return Tree(root, pin, revisions_text, revisions, sets)
