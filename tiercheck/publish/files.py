"""The site's files, read, written and removed only inside its folder, never through a link.

`site_link` finds a symbolic link on the way to a path, `site_bytes` reads a regular file without
following one, `SiteStage` stages every new file beside its target and puts them all in place
together, and `remove_site_file` removes only a regular file: what `publish.site` needs to build
a site incrementally, all or nothing, confined to its folder.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from tiercheck import durable

__all__ = ["SiteStage", "remove_site_file", "site_bytes", "site_link"]


def site_link(root: Path, relative: str) -> str | None:
    """The first part of `root/relative` below `root` that is a symbolic link (as a path
    relative to `root`), or None. Nothing is followed: each part is looked at itself."""
    parts = relative.split("/")
    current = Path(root)
    for i, part in enumerate(parts):
        current = current / part
        try:
            info = os.lstat(current)
        except OSError:
            return None  # missing (nothing below it either), or not a folder: the write says
        if stat.S_ISLNK(info.st_mode):
            return "/".join(parts[: i + 1])
    return None


def site_bytes(path: Path) -> bytes | None:
    """The bytes of the regular file `path`, or None (missing, a link, not a file, unreadable).

    A link at `path` is not followed (`O_NOFOLLOW`); `site_link` has checked the folders."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        try:
            return handle.read()
        except OSError:
            return None


class SiteStage:
    """New contents of a site's files, staged beside their targets, put in place together.

    `add` writes each file durably under a hidden staged name in its target's folder (the
    target is untouched); `commit` renames every staged file over its target; `discard`
    removes the staged files and the folders `add` created. So a write that fails while
    staging (a full disk) leaves the site exactly as it was.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._staged: list[tuple[Path, Path]] = []
        self._made: list[Path] = []

    def add(self, relative: str, data: bytes) -> None:
        """Stage `data` for `root/relative`; an OSError as from any write."""
        target = self.root / relative
        missing: list[Path] = []
        folder = target.parent
        while not os.path.lexists(folder) and folder.parent != folder:
            missing.append(folder)
            folder = folder.parent
        self._made.extend(reversed(missing))
        try:
            info = os.lstat(target)
            mode = stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None
        except OSError:
            mode = None
        staged = target.with_name(f".{target.name}.{secrets.token_hex(6)}.staged")
        self._staged.append((staged, target))
        durable.write_bytes(staged, data, mode=mode)

    def commit(self) -> None:
        """Rename every staged file over its target, then make the renames durable."""
        folders = dict.fromkeys(target.parent for _, target in self._staged)
        for staged, target in self._staged:
            os.replace(staged, target)
        self._staged.clear()
        self._made.clear()
        for folder in folders:
            durable.fsync_dir(folder)

    def discard(self) -> None:
        """Remove every staged file and each folder `add` created (when it is empty)."""
        for staged, _ in self._staged:
            with contextlib.suppress(OSError):
                staged.unlink()
        for folder in reversed(self._made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        self._staged.clear()
        self._made.clear()


def remove_site_file(path: Path) -> bool:
    """Remove a file a previous build of a site wrote and this one does not; whether it was
    there. Only a regular file is removed: a link (or a folder) at `path` is left alone."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        Path(path).unlink()
    except FileNotFoundError:
        return False
    return True
