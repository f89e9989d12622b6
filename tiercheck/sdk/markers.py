"""Build markers: the proof, kept beside a checkout, that a build already succeeded in it.

`build` writes a marker after a successful build; `checkout` deletes them all whenever it resets
and cleans the tree (which deletes the build outputs they vouch for). Both use this module, so
neither has to import the other.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

__all__ = ["clear_build_markers", "has_build_marker", "markers_dir"]

_MARKERS = "tiercheck-builds"


def markers_dir(checkout_path: Path, cache_dir: Path | None = None) -> Path:
    """Where build markers for this checkout live.

    Inside `.git` when the checkout has a git directory (invisible to `git status`, removed with
    the clone), or inside the worktree's own git directory (`.git` is then a file naming it);
    otherwise under `cache_dir/builds/`, keyed by the checkout's absolute path.
    """
    git_dir = checkout_path / ".git"
    if git_dir.is_dir():
        return git_dir / _MARKERS
    linked = _linked_git_dir(git_dir)
    if linked is not None:
        return linked / _MARKERS
    base = cache_dir if cache_dir is not None else checkout_path
    slug = hashlib.sha256(str(checkout_path.resolve()).encode()).hexdigest()[:16]
    return base / "builds" / slug


def has_build_marker(checkout_path: Path, cache_dir: Path | None = None) -> bool:
    """Whether any successful build is recorded for this checkout."""
    directory = markers_dir(checkout_path, cache_dir)
    return directory.is_dir() and any(directory.glob("*.json"))


def clear_build_markers(checkout_path: Path, cache_dir: Path | None = None) -> None:
    """Forget every recorded build of this checkout (its build outputs were just deleted)."""
    shutil.rmtree(markers_dir(checkout_path, cache_dir), ignore_errors=True)


def _linked_git_dir(dot_git: Path) -> Path | None:
    """The git directory a worktree's `.git` file points at (`gitdir: PATH`), if it exists."""
    try:
        text = dot_git.read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir: "):
        return None
    target = Path(text.removeprefix("gitdir: "))
    target = target if target.is_absolute() else (dot_git.parent / target)
    return target if target.is_dir() else None
