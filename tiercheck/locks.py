"""The one file lock: an `flock` on the first free of some files, held while a block runs
(`held`) or until released (`try_hold`).

Four things are locked this way: a working tree two runs share (one file), a machine-wide
budget of N build slots (N files), the first statements of opening a history database (one
file, only until a deadline), and the control of a client slot folder's admission (one file,
taken by whichever run gets it first and kept until that run's admission stops). `flock` is
released by the kernel when its holder exits, however it exits, so a crashed run never leaves a
stale lock; the files themselves stay and are never read. Waiting polls, so Ctrl-C interrupts
it.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["Held", "held", "try_hold"]


def _try(paths: Sequence[Path]) -> int | None:
    """A descriptor holding the first of `paths` not locked by another, or None if all are."""
    for path in paths:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return fd
    return None


class Held:
    """A lock taken by `try_hold`, kept until `release` (or until the process exits)."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def release(self) -> None:
        """Let the lock go (closing the descriptor releases it); a second call does nothing."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def try_hold(paths: Sequence[Path]) -> Held | None:
    """The first of `paths` (created if missing) not held by another, held until released;
    None when every one is held. Never waits."""
    fd = _try(paths)
    return None if fd is None else Held(fd)


@contextmanager
def held(
    paths: Sequence[Path],
    *,
    poll: float,
    deadline: float | None = None,
    on_wait: Callable[[], None] | None = None,
    best_effort: bool = False,
) -> Iterator[bool]:
    """Hold one of `paths` (created if missing) exclusively while the block runs.

    When every one is held by another process, `on_wait` is called once and the lock is tried
    again every `poll` seconds, until `deadline` (a `time.monotonic()` reading) if given: past
    it the block runs without the lock. Yields whether the lock is held. A file that cannot be
    opened (a read-only folder) raises `OSError` before the block runs, or with `best_effort`
    lets the block run without the lock.
    """
    try:
        fd = _try(paths)
    except OSError:
        if not best_effort:
            raise
        yield False
        return
    if fd is None and on_wait is not None:
        on_wait()
    while fd is None and (deadline is None or time.monotonic() < deadline):
        time.sleep(poll)
        fd = _try(paths)
    try:
        yield fd is not None
    finally:
        if fd is not None:
            os.close(fd)  # closing the descriptor releases the lock
