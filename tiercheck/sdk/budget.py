"""Machine-wide budgets shared by separate tier-check processes: N build slots.

Rows of a matrix run as separate processes, so a budget cannot be a counter in memory: a slot
is an `flock` on one of N files in a shared directory (`tiercheck.locks`). The kernel releases
a slot when its holder exits, however it exits, so a killed row never keeps one. (Client
scenarios have their own slots, taken by a shell wrapper around each client: see
`conformance.slots`.)
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from tiercheck import locks

__all__ = ["slot"]

#: How often a waiting process looks for a free slot again.
POLL_S = 0.25


def slot(
    directory: Path, kind: str, slots: int, *, on_wait: Callable[[], None] | None = None
) -> AbstractContextManager[bool]:
    """Hold one of `slots` slots of `kind` in `directory` while the block runs.

    Waits (polling, so Ctrl-C interrupts it) when every slot is held; `on_wait` is called once,
    before the first wait.
    """
    directory.mkdir(parents=True, exist_ok=True)
    files = [directory / f"{kind}.{index}" for index in range(max(1, slots))]
    return locks.held(files, poll=POLL_S, on_wait=on_wait)
