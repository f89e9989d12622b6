"""Admitting client scenarios by the CPU they use.

The slot wrapper (`conformance.slots`) lets a client start only while fewer clients run than
the slot directory's current *limit*. This module sets that limit from what the running clients
measurably use, so that a client that idles (a native binary waiting on its scenario) is not
held back like one that burns a CPU-second starting an interpreter:

- the pure core, `expected_demand` and `admit_limit`: from samples of the clients' process
  groups (CPU-seconds used, seconds spent runnable but waiting for a CPU, age), how many may
  run at once. A client's *demand* is (CPU + run-queue wait) / age: the cores it wanted, which
  stays true on a machine busy with other work (a starved client waits instead of running, and
  the wait counts). Clients are admitted while the running ones' demand plus the expected demand
  of each newcomer fits in the cores; never fewer than `floor` (one per core, the old fixed
  rule, right for heavy clients) and never more than `cap` (`--concurrency N`, a hard cap,
  which wins over `floor` when it is lower).
- the edge, `Admission`: a thread that reads /proc every `interval_s` for the process groups
  the wrapper registers (`run/<pgid>`), and writes the limit to `limit` in the slot directory.
  Several runs may share the directory (a matrix's rows, `--budget`): whichever holds
  `controller.lock` decides for all of them; the others take over when it leaves.

Nothing here changes what a client is asked or how long it may take: only when it starts.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tiercheck import durable, locks

__all__ = [
    "LIMIT_FILE",
    "RUN_DIR",
    "Admission",
    "GroupSample",
    "Policy",
    "admit_limit",
    "expected_demand",
    "merge_groups",
    "read_groups",
    "registered",
]

#: In the slot directory: the number of clients that may run now (one line, an integer).
LIMIT_FILE = "limit"
#: In the slot directory: one empty file per running client, named by its process group id.
RUN_DIR = "run"
#: A group younger than this has not shown its demand yet: the expected demand stands for it.
SETTLE_S = 0.3
#: Client life (summed seconds) observed before its demand is trusted; until then, `floor`.
EVIDENCE_S = 0.5
#: A newcomer is assumed to want at least this much of a core (no division by ~0).
MIN_DEMAND = 0.02
#: How many finished clients' last samples inform the expected demand.
MEMORY = 64


@dataclass(frozen=True)
class GroupSample:
    """One client's process group at one instant."""

    #: CPU-seconds used so far by the group's live processes (their own and reaped children's).
    cpu_s: float
    #: Seconds the group's live processes spent runnable, waiting for a CPU.
    wait_s: float
    #: Seconds since the group's leader started.
    age_s: float

    @property
    def demand(self) -> float:
        """Cores wanted on average over its life so far."""
        return (self.cpu_s + self.wait_s) / self.age_s if self.age_s > 0 else 0.0


@dataclass(frozen=True)
class Policy:
    """The bounds of admission."""

    #: The cores clients may keep busy.
    cores: float
    #: Clients always admitted (one per core: the fixed rule for heavy clients).
    floor: int
    #: Never more than this many at once (`--concurrency N`); None: no cap.
    cap: int | None = None


def expected_demand(seen: Iterable[GroupSample]) -> float | None:
    """The demand a new client can be expected to have: total wanted CPU over total life of the
    groups seen (wall-weighted, so a long idle client weighs as much as its life), or None
    while fewer than `EVIDENCE_S` seconds of settled client life have been seen."""
    wanted = life = 0.0
    for sample in seen:
        if sample.age_s < SETTLE_S:
            continue
        wanted += sample.cpu_s + sample.wait_s
        life += sample.age_s
    if life < EVIDENCE_S:
        return None
    return wanted / life


def admit_limit(policy: Policy, running: Sequence[GroupSample], expected: float | None) -> int:
    """How many clients may run at once now.

    Without evidence, `floor` (at least 1). Otherwise the running clients' demand (each
    settled one's own, the expected demand for the others) is subtracted from the cores, and as
    many newcomers of the expected demand as fit in the rest are admitted beside the running
    ones, never fewer than `floor`; when nothing fits, `floor`. Last, `cap` (at least 1) bounds
    it, below `floor` too.
    """
    floor = max(1, policy.floor)
    if expected is None:
        limit = floor
    else:
        load = sum(g.demand if g.age_s >= SETTLE_S else expected for g in running)
        room = policy.cores - load
        if room > 0:
            limit = max(floor, len(running) + math.floor(room / max(expected, MIN_DEMAND) + 1e-9))
        else:  # overloaded: no newcomer until fewer than `floor` run
            limit = floor
    if policy.cap is not None:
        limit = min(limit, max(1, policy.cap))
    return limit


# --- the edge: /proc and the slot directory --------------------------------------------------


@dataclass(frozen=True)
class _Proc:
    group: int
    cpu_ticks: int
    start_ticks: int
    wait_ns: int


def _read_proc(pid: str) -> _Proc | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        group = int(fields[2])
        cpu = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        start = int(fields[19])
    except (IndexError, ValueError):
        return None
    return _Proc(group, cpu, start, 0)


def _wait_ns(pid: str) -> int:
    with (
        contextlib.suppress(OSError, IndexError, ValueError),
        open(f"/proc/{pid}/schedstat", "rb") as f,
    ):
        return int(f.read().split()[1])
    return 0


#: A process this much older than now whose group is not a client's never becomes one (a
#: client's group is registered as soon as it is made): it is not read again.
SETTLED_OUTSIDER_S = 2.0


def read_groups(
    groups: Iterable[int],
    outsiders: set[int] | None = None,
    *,
    settled_s: float = SETTLED_OUTSIDER_S,
) -> dict[int, GroupSample]:
    """A sample of each live process group of `groups`, read from /proc (groups with no live
    process are left out). The group's age is its leader's (else its oldest member's).

    `outsiders`, kept by the caller between calls, holds the pids found outside every client
    group for good (older than `settled_s`, a process group that is not a client's): they are
    not read again while they live, so a scan reads little beyond the clients."""
    wanted = set(groups)
    if not wanted:
        return {}
    skip = outsiders if outsiders is not None else set()
    hz = os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime", "rb") as f:
        now = float(f.read().split()[0])
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    skip.intersection_update(pids)  # a pid that is gone may come back as another process
    members: dict[int, list[_Proc]] = {}
    for pid in pids:
        if pid in skip:
            continue
        found = _read_proc(str(pid))
        if found is None:
            continue
        if found.group in wanted:
            found = _Proc(found.group, found.cpu_ticks, found.start_ticks, _wait_ns(str(pid)))
            members.setdefault(found.group, []).append(found)
        elif now - found.start_ticks / hz > settled_s:
            skip.add(pid)
    samples: dict[int, GroupSample] = {}
    for group, procs in members.items():
        start = min(p.start_ticks for p in procs) / hz
        samples[group] = GroupSample(
            cpu_s=sum(p.cpu_ticks for p in procs) / hz,
            wait_s=sum(p.wait_ns for p in procs) / 1e9,
            age_s=max(0.0, now - start),
        )
    return samples


def registered(slot_dir: Path) -> dict[int, tuple[int, ...]]:
    """The running clients: each client's registered process group (`run/<group>`, written by
    the slot wrapper) → the groups holding its CPU. A client forked from a warm zygote
    (`conformance.warm`) runs in a group of its own, which its launcher names beside its
    registration (`run/<group>.<client group>`)."""
    try:
        names = os.listdir(slot_dir / RUN_DIR)
    except OSError:
        return {}
    clients: dict[int, list[int]] = {}
    for name in names:
        head, _, alias = name.partition(".")
        if not head.isdigit():
            continue
        groups = clients.setdefault(int(head), [int(head)])
        if alias.isdigit():
            groups.append(int(alias))
    return {client: tuple(groups) for client, groups in clients.items()}


def merge_groups(
    clients: dict[int, tuple[int, ...]], samples: dict[int, GroupSample]
) -> dict[int, GroupSample]:
    """One sample per client whose registered group is alive: its groups' CPU and wait added,
    its registered group's age."""
    merged: dict[int, GroupSample] = {}
    for client, groups in clients.items():
        own = samples.get(client)
        if own is None:
            continue
        parts = [samples[g] for g in groups if g in samples]
        merged[client] = GroupSample(
            cpu_s=sum(p.cpu_s for p in parts),
            wait_s=sum(p.wait_s for p in parts),
            age_s=own.age_s,
        )
    return merged


def write_limit(slot_dir: Path, limit: int) -> None:
    """Replace the limit file in one rename (a wrapper never reads half a number), the one way
    tiercheck replaces a file (`durable`). Not fsynced: the file means something only while the
    runs sharing the directory are alive."""
    durable.write_text(slot_dir / LIMIT_FILE, f"{limit}\n", sync=False)


class Admission:
    """While the block runs: set the slot directory's limit from the clients' measured demand."""

    def __init__(self, slot_dir: Path, policy: Policy, *, interval_s: float = 0.25) -> None:
        self.slot_dir = slot_dir
        self.policy = policy
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock: locks.Held | None = None
        self._live: dict[int, GroupSample] = {}
        self._done: deque[GroupSample] = deque(maxlen=MEMORY)
        self._limit: int | None = None
        self._outsiders: set[int] = set()
        #: The highest limit set, for the scorecard's timings and the bench.
        self.peak = 0

    def __enter__(self) -> Admission:
        (self.slot_dir / RUN_DIR).mkdir(parents=True, exist_ok=True)
        self._thread = threading.Thread(target=self._loop, name="admission", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _controlling(self) -> bool:
        """Whether this run controls the slot folder's limit: the first to hold its lock does,
        until its admission stops (the one file lock, `locks`)."""
        if self._lock is None:
            self._lock = locks.try_hold([self.slot_dir / "controller.lock"])
        return self._lock is not None

    def _loop(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError):
                if self._controlling():
                    self.tick()
            self._stop.wait(self.interval_s)

    def tick(self) -> int:
        """Sample the registered clients, and set and return the limit."""
        clients = registered(self.slot_dir)
        groups = {g for members in clients.values() for g in members}
        now = merge_groups(clients, read_groups(groups, self._outsiders))
        for group in set(self._live) - set(now):
            self._done.append(self._live.pop(group))  # finished: its last sample stays
        self._live.update(now)
        limit = admit_limit(
            self.policy,
            list(now.values()),
            expected_demand([*self._done, *now.values()]),
        )
        if limit != self._limit:
            write_limit(self.slot_dir, limit)
            self._limit = limit
        self.peak = max(self.peak, limit)
        return limit
