"""Machine-wide budgets shared by separate tier-check processes: N build slots.

Rows of a matrix run as separate processes, so a budget cannot be a counter in memory: a slot
is an `flock` on one of N files in a shared directory. The kernel releases a slot when its
holder exits, however it exits, so a killed row never keeps one. (Client scenarios have their
own slots, taken by a shell wrapper around each client: see `conformance.slots`.)
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["slot"]

#: How often a waiting process looks for a free slot again.
POLL_S = 0.25


def _try_slots(directory: Path, kind: str, slots: int) -> int | None:
    for index in range(max(1, slots)):
        fd = os.open(directory / f"{kind}.{index}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return fd
    return None


@contextmanager
def slot(
    directory: Path, kind: str, slots: int, *, on_wait: Callable[[], None] | None = None
) -> Iterator[None]:
    """Hold one of `slots` slots of `kind` in `directory` while the block runs.

    Waits (polling, so Ctrl-C interrupts it) when every slot is held; `on_wait` is called once,
    before the first wait.
    """
    directory.mkdir(parents=True, exist_ok=True)
    fd = _try_slots(directory, kind, slots)
    if fd is None and on_wait is not None:
        on_wait()
    while fd is None:
        time.sleep(POLL_S)
        fd = _try_slots(directory, kind, slots)
    try:
        yield
    finally:
        os.close(fd)  # releases the slot
