"""The edge of `tier-check init`: the repository's files and git facts, read inside it only.

Nothing outside the folder is read: a file, or a folder on the way to it, that is a symbolic
link leading out is not followed and is named in the notes (by its own path, never by where it
points). Reads are bounded: file sizes, how many files and how deep.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from tiercheck.config.safeload import read_text
from tiercheck.errors import ConfigError
from tiercheck.paths import link_out
from tiercheck.sdk.checkout import describe_local, tags_merged
from tiercheck.sdk.infer.entry import GitFacts, RepoFacts, server_dirs
from tiercheck.sdk.infer.manifest import read_manifests
from tiercheck.sdk.infer.workflow import Package, read_workflows

__all__ = ["gather"]

_MAX_BYTES = 1024 * 1024
_MAX_WORKFLOWS = 60
_MAX_PACKAGES = 100
_MAX_SOURCES = 60
_MAX_SCRIPTS = 40
_MANIFESTS = ("Cargo.toml", "go.mod", "pom.xml", "package.json", "pyproject.toml")
_SOURCE_SUFFIXES = {
    ".rs",
    ".go",
    ".py",
    ".ts",
    ".js",
    ".mjs",
    ".java",
    ".kt",
    ".cs",
    ".rb",
    ".php",
    ".swift",
    ".cpp",
    ".cc",
    ".c",
    ".h",
    ".md",
}
_SKIP = {"node_modules", "target", "vendor", "dist", "build", "__pycache__"}


def _read(root: Path, rel: str, notes: list[str]) -> str | None:
    """The text of `root/rel` when it is a file inside `root`; None (with a note) otherwise."""
    if PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts:
        notes.append(f"{rel}: outside the folder: not read")
        return None
    full = root / rel
    if not os.path.lexists(full):
        return None
    leaving = link_out(root, rel)
    if leaving is not None:
        notes.append(f"{leaving}: a link out of the folder: not read")
        return None
    if not full.is_file():
        return None
    try:
        return read_text(full, max_bytes=_MAX_BYTES)
    except ConfigError as exc:
        notes.append(f"{rel}: not read: {exc.message}")
        return None


def _script_named(path: str) -> bool:
    """Whether the script a step runs is one to read: a path written out (no variable), which
    `_read` keeps inside the folder (a path out of it is a note)."""
    return bool(path) and "$" not in path and "{" not in path


def _walk(root: Path, folder: str, depth: int) -> Iterator[str]:
    """Files under `root/folder` (POSIX paths relative to `root`), no link followed, `depth`
    folders deep at most."""
    base = root / folder
    if not base.is_dir() or link_out(root, folder) is not None:
        return
    for directory, dirs, files in os.walk(base):
        here = Path(directory)
        level = len(here.relative_to(base).parts)
        dirs[:] = sorted(
            d
            for d in dirs
            if level < depth
            and not d.startswith(".")
            and d not in _SKIP
            and not (here / d).is_symlink()
        )
        for name in sorted(files):
            if not (here / name).is_symlink():
                yield (here / name).relative_to(root).as_posix()


def _packages(root: Path, notes: list[str]) -> dict[str, Package]:
    found: dict[str, Package] = {}
    for rel in _walk(root, ".", 3):
        if PurePosixPath(rel).name != "package.json" or len(found) >= _MAX_PACKAGES:
            continue
        try:
            data = json.loads(_read(root, rel, notes) or "null")
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        scripts = data.get("scripts")
        folder = str(PurePosixPath(rel).parent)
        found["" if folder == "." else folder] = Package(
            data["name"] if isinstance(data.get("name"), str) else None,
            {k: v for k, v in scripts.items() if isinstance(v, str)}
            if isinstance(scripts, dict)
            else {},
        )
    return found


def _git(root: Path) -> GitFacts:
    local = describe_local(root)
    if local.commit_sha is None:
        return GitFacts(is_repo=False, origin_repo=local.repo, branch=local.branch)
    tags = tuple(name for name, _ in tags_merged(root, local.commit_sha))
    return GitFacts(True, local.repo, local.url, local.branch, tags)


def gather(root: Path) -> tuple[RepoFacts, tuple[str, ...]]:
    """What `init` reads of the checkout at `root`, and a note per file it did not read."""
    root = root.resolve()
    notes: list[str] = []
    names = sorted(os.listdir(root))
    root_files = {
        name: (_read(root, name, notes) if name in _MANIFESTS else None) for name in names
    }
    workflows: dict[str, str] = {}
    folder = ".github/workflows"
    leaving = link_out(root, folder) if os.path.lexists(root / folder) else None
    if leaving is not None:
        notes.append(f"{leaving}: a link out of the folder: not read")
    elif (root / folder).is_dir():
        for name in sorted(os.listdir(root / folder))[:_MAX_WORKFLOWS]:
            if name.endswith((".yml", ".yaml")):
                text = _read(root, f"{folder}/{name}", notes)
                if text is not None:
                    workflows[f"{folder}/{name}"] = text
    packages = _packages(root, notes)
    facts = read_workflows(workflows, packages)
    wanted = [path for path in facts.scripts if _script_named(path)][:_MAX_SCRIPTS]
    scripts = {path: text for path in wanted if (text := _read(root, path, notes)) is not None}
    if scripts:
        facts = read_workflows(workflows, packages, scripts)
    sources: dict[str, str] = {}
    for directory in server_dirs(facts):
        for rel in _walk(root, directory, 4):
            if len(sources) >= _MAX_SOURCES:
                break
            if PurePosixPath(rel).suffix in _SOURCE_SUFFIXES:
                text = _read(root, rel, notes)
                if text is not None:
                    sources[rel] = text
    repo_facts = RepoFacts(
        folder=root.name,
        manifest=read_manifests(root_files),
        workflows=facts,
        git=_git(root),
        server_sources=sources,
    )
    return repo_facts, (*notes, *facts.notes)
