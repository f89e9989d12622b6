"""The site's files, read, written and removed only inside its folder, never through a link.

`site_link` finds a symbolic link on the way to a path, `site_bytes` reads a regular file without
following one, `SiteStage` stages every new file beside its target, flushes them to disk together
and puts them all in place together, and `remove_site_file` removes only a regular file: what
`publish.site` needs to build a site incrementally, all or nothing, confined to its folder.
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

    `add` writes each file under a hidden staged name in its target's folder (the target is
    untouched); `sync` makes every staged file durable; `commit` renames every staged file over
    its target and makes the renames durable; `discard` removes the staged files and the
    folders `add` created. So a write that fails while staging (a full disk) leaves the site
    exactly as it was.

    Crash-safety, and why the files are flushed together rather than one by one: a site is
    about 1,300 files (a year of nights), and an fsync of each file and of its folder as it
    is written was most of a cold build's writing. Here no target is touched until every
    staged file's bytes are on disk: `sync` flushes each staged file (after all of them are
    written, so the disk takes them in one stream), only then does `commit` rename them, and
    then it flushes each folder once (and the folder holding each folder `add` created). A
    build that dies before `commit` leaves every target as it was (at worst hidden staged files
    beside them, which no page links, as before this design); one that dies during the renames
    leaves each target either its previous file or the new one, whole, since a rename replaces
    a file in one step and the new file's bytes were durable before it. What a crash in the
    middle of the renames can leave is old and new files side by side, each one whole, under
    the previous build's record (the record is staged last, so renamed last): the next build
    renders every page whose key differs from that record and rewrites every file whose bytes
    differ, which puts it right.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._staged: list[tuple[Path, Path]] = []
        self._made: list[Path] = []
        self._synced = 0

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
        # Not flushed here: `sync` flushes every staged file once all of them are written.
        durable.write_bytes(staged, data, mode=mode, sync=False)

    def sync(self) -> None:
        """Make the bytes of every file staged so far durable (one fsync each, all together
        once they are written); an OSError as from any write."""
        for staged, _ in self._staged[self._synced :]:
            durable.fsync_file(staged)
        self._synced = len(self._staged)

    def commit(self) -> None:
        """Make every staged file durable (`sync`), rename each over its target, then make
        the renames durable: each target's folder, and the folder of each one `add` made."""
        self.sync()
        folders = dict.fromkeys(target.parent for _, target in self._staged)
        folders.update(dict.fromkeys(made.parent for made in self._made))
        for staged, target in self._staged:
            os.replace(staged, target)
        self._staged.clear()
        self._made.clear()
        self._synced = 0
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
        self._synced = 0


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
