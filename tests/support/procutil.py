"""Test helpers: prove that a test left no process and no listening port behind.

Every process a test starts inherits a unique marker in its environment, so a grandchild that
was re-parented to init (the very leak process groups exist to prevent) is still found: by
walking our own descendants *and* scanning our user's processes for the marker.

Scanning every process of the machine is most of the check's cost, and most tests start no
process: the scan runs only after a test in which this process started one, as its audit
events say (`subprocess.Popen`, `os.fork`, `os.forkpty`, `os.posix_spawn`, `os.exec`,
`os.system`, `os.spawn`, from any thread). A process carrying the test's marker can only come
from one started while the marker was set. (multiprocessing's spawn and forkserver start
theirs with no audit event; the package and the tests do not use them, and their children are
found as descendants all the same.)

`no_leftovers` is an autouse fixture, switched on for every test by `tests/conftest.py`.

A process group a module-scoped fixture keeps alive across its tests (one browser serving
every page of a module, `support.browser.shared`) is registered with `kept_group`: its members
are that fixture's to stop and check, not a test's leftovers.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

import psutil
import pytest

__all__ = [
    "MARK_ENV",
    "assert_port_free",
    "kept_group",
    "left_behind",
    "leftover_processes",
    "no_leftovers",
    "own_listening_ports",
    "pid_gone",
    "processes_started",
    "wait_for",
]

#: The environment variable carrying the per-test marker (not secret-like, so it is inherited
#: through `process.sdk_environment`).
MARK_ENV = "TIERCHECK_TEST_PROCESS_MARK"

#: The audit events of this process starting another one.
_START_EVENTS = frozenset(
    {
        "subprocess.Popen",
        "os.fork",
        "os.forkpty",
        "os.posix_spawn",
        "os.exec",
        "os.system",
        "os.spawn",
    }
)
#: How many processes this process has started (its audit events, counted by `_count_start`).
_started = [0]


def _count_start(event: str, _args: tuple[object, ...]) -> None:
    if event in _START_EVENTS:
        _started[0] += 1


sys.addaudithook(_count_start)


def processes_started() -> int:
    """How many processes this test process has started so far, from any thread."""
    return _started[0]


def interruptible() -> None:
    """`preexec_fn` for a child a test interrupts with SIGINT: Ctrl-C's default action restored.

    A shell without job control starts its background commands with SIGINT ignored (`nohup`,
    `cmd &` in a script), and a child inherits that; the test is about what tiercheck does on
    Ctrl-C, not about how the test run was started.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


#: The process groups a fixture keeps alive across tests (`kept_group`).
_kept: set[int] = set()


@contextmanager
def kept_group(pgid: int) -> Iterator[None]:
    """While inside, the members of process group `pgid` are no test's leftovers: the caller
    started the group for many tests and stops it itself (and checks that it did)."""
    _kept.add(pgid)
    try:
        yield
    finally:
        _kept.discard(pgid)


def _kept_member(proc: psutil.Process) -> bool:
    if not _kept:
        return False
    try:
        return os.getpgid(proc.pid) in _kept
    except OSError:
        return False


#: Linux lists each thread's children in /proc/PID/task/TID/children: reading those of this
#: process and of its descendants finds them without reading every process's stat file, which
#: is what psutil's `children(recursive=True)` does (a few ms a call on a busy machine, and the
#: check runs after every test).
_PROC_CHILDREN = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def _child_pids(pid: int) -> list[int]:
    pids: list[int] = []
    with suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with suppress(OSError), open(f"/proc/{pid}/task/{tid}/children") as listed:
                pids.extend(int(child) for child in listed.read().split())
    return pids


def _descendants(me: psutil.Process) -> list[psutil.Process]:
    if not _PROC_CHILDREN:
        with suppress(psutil.Error):
            return me.children(recursive=True)
        return []
    found: list[psutil.Process] = []
    seen: set[int] = set()
    todo = [me.pid]
    while todo:
        for pid in _child_pids(todo.pop()):
            if pid in seen:
                continue
            seen.add(pid)
            todo.append(pid)
            with suppress(psutil.Error):
                found.append(psutil.Process(pid))
    return found


def leftover_processes(mark: str | None = None, *, since: float = 0.0) -> list[psutil.Process]:
    """Live descendants of this process, plus any process of our user carrying `mark`.

    `since` (a `time.time()`): the mark was set then, and a process's environment is fixed
    when it starts, so only processes started from a second before it can carry the mark; the
    others are not read (their creation time is one small read, their environment a larger
    one)."""
    me = psutil.Process()
    found: dict[int, psutil.Process] = {}
    for child in _descendants(me):
        if _alive(child) and not _kept_member(child):
            found[child.pid] = child
    if mark is not None:
        uid = os.getuid()
        for proc in psutil.process_iter():
            if proc.pid in found or proc.pid == me.pid:
                continue
            try:
                if since and proc.create_time() < since - 1.0:
                    continue
                if proc.uids().real != uid or not _alive(proc):
                    continue
                if proc.environ().get(MARK_ENV) == mark:
                    found[proc.pid] = proc
            except psutil.Error:
                continue
    return sorted(found.values(), key=lambda p: p.pid)


def left_behind(mark: str, *, began: float, started: int) -> list[psutil.Process]:
    """What a test that set `mark` at `began`, when this process had started `started`
    processes, left alive: our descendants, and our user's processes carrying `mark` when this
    process started one since (only those can carry it)."""
    return leftover_processes(mark if processes_started() != started else None, since=began)


def own_listening_ports() -> set[int]:
    """TCP ports this very process listens on (a squatter thread, a leaked socket)."""
    ports: set[int] = set()
    with suppress(psutil.Error):
        for conn in psutil.Process().net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr:
                ports.add(conn.laddr[1])
    return ports


def pid_gone(pid: int) -> bool:
    """Whether `pid` no longer names a live (non-zombie) process."""
    try:
        return not _alive(psutil.Process(pid))
    except psutil.NoSuchProcess:
        return True


def _other_runs_listener(port: int, mark: str | None) -> psutil.Process | None:
    """The process listening on `port` when it carries another test run's mark (tests run side
    by side, and a port one run let go is free for the next one to be given), else None."""
    with suppress(psutil.Error):
        for conn in psutil.net_connections(kind="tcp"):
            if conn.status != psutil.CONN_LISTEN or not conn.laddr or conn.laddr[1] != port:
                continue
            if conn.pid is None:
                return None
            with suppress(psutil.Error):
                proc = psutil.Process(conn.pid)
                other = proc.environ().get(MARK_ENV)
                if other is not None and other != mark:
                    return proc
    return None


def assert_port_free(port: int, host: str = "127.0.0.1", *, mark: str | None = None) -> None:
    """Fail if anything still accepts connections on `host:port` — unless, given this run's
    `mark`, the listener is plainly another test run's process (it carries that run's mark)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        refused = sock.connect_ex((host, port)) != 0
    if not refused and mark is not None and _other_runs_listener(port, mark) is not None:
        return
    assert refused, f"port {port} on {host} still accepts connections"


def wait_for(
    predicate: Callable[[], bool], timeout_s: float = 20.0, interval_s: float = 0.05
) -> bool:
    """Poll `predicate()` until it is true or `timeout_s` passes; return its last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval_s)


def _describe(procs: list[psutil.Process]) -> str:
    parts = []
    for proc in procs:
        try:
            parts.append(f"{proc.pid} {' '.join(proc.cmdline())[:120]}")
        except psutil.Error:
            parts.append(str(proc.pid))
    return "; ".join(parts)


def _reap(procs: list[psutil.Process]) -> None:
    # Only processes this test started (descendants or carrying its marker), by PID.
    for proc in procs:
        with suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(procs, timeout=5)


@pytest.fixture(autouse=True)
def no_leftovers(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Mark every process the test starts; afterwards fail if any is alive or a port is bound.

    Leftovers are given a few seconds to finish dying (a group just sent SIGKILL is reaped
    asynchronously by init), then killed by PID so one failure does not poison later tests.
    """
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK_ENV, mark)
    ports_before = own_listening_ports()
    began = time.time()
    started = processes_started()
    yield mark
    lingering: list[psutil.Process] = []

    def settled() -> bool:
        nonlocal lingering
        lingering = left_behind(mark, began=began, started=started)
        return not lingering

    if not wait_for(settled, timeout_s=10.0, interval_s=0.1):
        described = _describe(lingering)
        _reap(lingering)
        pytest.fail(f"processes left behind by the test: {described}")
    new_ports = own_listening_ports() - ports_before
    assert not new_ports, f"the test process still listens on {sorted(new_ports)}"
