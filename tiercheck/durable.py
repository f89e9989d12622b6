"""Durable files: the one way tiercheck replaces a file on disk.

Each file is written to a temporary file in the same directory, flushed and fsynced, then
renamed over the target with `os.replace` (atomic on POSIX and Windows within one file system),
and the directory entry is fsynced too. A crash or Ctrl-C at any point leaves either the
previous file or the complete new one, never a half-written one, and no temporary file behind.
Several processes may write the same path at once (matrix rows sharing a cache): each writes
its own temporary file, so the last rename wins with a complete file.

This module sits at the bottom of the layers, beside `errors` and `paths`, so that every
writer — reports, snapshots, the ETag cache, build markers, slot scripts — uses it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["fsync_dir", "fsync_file", "write_bytes", "write_text"]

#: The mode of a new file: readable by everyone, as a report or cache entry should be
#: (`mkstemp` alone would make it owner-only).
DEFAULT_MODE = 0o644


def fsync_dir(directory: Path) -> None:
    """Make the entries of `directory` durable (a rename is durable only once its folder is);
    nothing on Windows, which cannot open a folder."""
    if os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_file(path: Path) -> None:
    """Make the bytes of the regular file `path` durable (a file written without a sync, to be
    renamed into place only after this). Opened for reading on POSIX (a file of mode 0o444
    is flushed too); Windows flushes only a file opened for writing."""
    access = os.O_RDONLY if os.name == "posix" else os.O_RDWR
    fd = os.open(path, access | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes, *, mode: int | None = None, sync: bool = True) -> Path:
    """Replace `path` with `data` durably; return `path`.

    The target keeps its permissions if it exists, unless `mode` is given; a new file gets
    `mode` or 0o644. Missing parent directories are created. On any error, including
    KeyboardInterrupt, the temporary file is removed and an existing target is left untouched.
    `sync=False` skips the fsyncs, for a file that means something only while the processes
    reading it are alive (a reader still never sees half of it: the rename is still one step).
    """
    path = Path(path)
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = DEFAULT_MODE
    fd, tmp_name = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if sync:
        fsync_dir(directory)
    return path


def write_text(path: Path, text: str, *, mode: int | None = None, sync: bool = True) -> Path:
    """Replace `path` with `text` (UTF-8, newlines as given) durably; see `write_bytes`."""
    return write_bytes(path, text.encode("utf-8"), mode=mode, sync=sync)
