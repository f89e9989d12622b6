"""Keeping the history's readers and writers inside the folder they were given.

A data folder is a git checkout and a folder of saved scorecards is a downloaded artifact:
either may hold a symbolic link, or a recorded path, that leads anywhere on the disk. These
answer the two questions every reader and writer of the history asks before touching a path:
does it lead out of its root, and is there a symbolic link on the way to it.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

__all__ = ["inside", "link_on_the_way"]


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, every symbolic link on it followed, is `root` or below it (`root`
    resolved too). A path that cannot be resolved (a link loop) is not inside."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False


def link_on_the_way(root: Path, relative: str) -> Path | None:
    """The first of `root/a`, `root/a/b`, … `root/relative` that is a symbolic link (a dangling
    one included), or None. `root` itself is the caller's choice and is not looked at."""
    path = root
    for part in PurePosixPath(relative).parts:
        path = path / part
        if path.is_symlink():
            return path
        if not os.path.lexists(path):
            return None
    return None
