"""A memory cgroup of its own for one measured run, and the peak the kernel kept for it.

Summed RSS counts every shared page (interpreter text, libraries, a forked client's pages it
shares with its zygote) once per process; the kernel charges each page once, to the group that
first touched it. A fresh group per run, its command moved in before it starts anything
(`wrap`), gives that run's peak exactly: cgroup v2's `memory.peak`, cgroup v1's
`memory.max_usage_in_bytes`. Both count the page cache the run brought in (files it read
first, files it wrote) besides its processes' memory; pages already cached by an earlier run
stay charged where they were.

The group is made below the benchmark's own memory group, found from `/proc/self/cgroup` and
the cgroup mounts (`/proc/self/mounts`). Without a writable memory hierarchy (not Linux, not
allowed) `MemoryGroup.create` returns None and the run has no cgroup figure.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MemoryGroup", "memory_hierarchy"]

#: Moves the shell into the group, then becomes the command (the same pid).
_ENTER = 'echo $$ > "$0" && exec "$@"'


def _mounts(text: str) -> list[tuple[str, str, set[str]]]:
    """(mount point, type, options) of every cgroup mount in a `/proc/self/mounts` text."""
    found = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2] in {"cgroup", "cgroup2"}:
            found.append((parts[1], parts[2], set(parts[3].split(","))))
    return found


def memory_hierarchy(cgroup_text: str, mounts_text: str) -> tuple[Path, int] | None:
    """The directory of this process's memory group and its cgroup version (1 or 2), from the
    texts of `/proc/self/cgroup` and `/proc/self/mounts`; None when there is no memory
    controller. A v1 memory hierarchy wins over v2 (where both exist, v1 holds the
    controller)."""
    v1_path = v2_path = None
    for line in cgroup_text.splitlines():
        ident, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if not ident:
            continue
        if "memory" in controllers.split(","):
            v1_path = path
        elif ident == "0" and controllers == "":
            v2_path = path
    mounts = _mounts(mounts_text)
    if v1_path is not None:
        for point, kind, options in mounts:
            if kind == "cgroup" and "memory" in options:
                return Path(point) / v1_path.lstrip("/"), 1
    if v2_path is not None:
        for point, kind, _options in mounts:
            root = Path(point)
            controllers = root / "cgroup.controllers"
            if (
                kind == "cgroup2"
                and controllers.is_file()
                and "memory" in controllers.read_text().split()
            ):
                return root / v2_path.lstrip("/"), 2
    return None


@dataclass
class MemoryGroup:
    """A fresh memory cgroup (its directory and version)."""

    path: Path
    version: int

    @classmethod
    def create(cls, name: str) -> MemoryGroup | None:
        """A new group `name` below this process's memory group, or None when none can be made."""
        try:
            found = memory_hierarchy(
                Path("/proc/self/cgroup").read_text(), Path("/proc/self/mounts").read_text()
            )
        except OSError:
            return None
        if found is None:
            return None
        parent, version = found
        path = parent / name
        try:
            path.mkdir()
        except OSError:
            return None
        group = cls(path, version)
        if not group._peak_file().is_file():
            group.remove()
            return None
        return group

    def _peak_file(self) -> Path:
        return self.path / ("memory.peak" if self.version == 2 else "memory.max_usage_in_bytes")

    def wrap(self, argv: list[str]) -> list[str]:
        """`argv` run inside the group: a shell enters it and then execs `argv` (same pid)."""
        return ["/bin/sh", "-c", _ENTER, str(self.path / "cgroup.procs"), *argv]

    def peak_bytes(self) -> int | None:
        """The most memory charged to the group at once since it was made."""
        try:
            return int(self._peak_file().read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def remove(self, timeout_s: float = 5.0) -> None:
        """Remove the group (its processes gone; it may take the kernel a moment)."""
        deadline = time.monotonic() + timeout_s
        while self.path.exists():
            try:
                os.rmdir(self.path)
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.1)
            else:
                return

    def __enter__(self) -> MemoryGroup:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(OSError):
            self.remove()
