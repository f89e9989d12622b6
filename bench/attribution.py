"""CPU per process kind: which part of an assessment used the CPU.

Two sources, each measuring what the other cannot:

- **Processes** (`KindLedger`, fed by compare.py's tree sampler every 100 ms): every process
  below the benchmark is given a kind from its ancestry (`classify`): the harness (`node …
  conformance …`), the SDK's clients (anything the harness started in tiercheck's run: the
  slot wrappers and the clients under them; and the warm start's zygote, which imports for the
  clients, with every client forked from it), the SDK's server (anything else tiercheck
  started), tiercheck itself (its own process, whose CPU comes exactly from the boot snippet
  instead: it makes itself non-dumpable, so its /proc entries may not be readable). In the
  official orchestration each step runs one leg, so whatever is not the harness is that leg's
  server or clients. A process's own CPU (user+sys, not its children's) is kept at its last
  sample; summed per kind. CPU a process used after its last sample (at most one interval) is
  not seen: the exact total (RUSAGE_CHILDREN) minus the sum is reported as `unattributed`.
- **Threads inside tiercheck** (`THREAD_BOOT`, run by the boot snippet that starts tier-check):
  each thread's CPU (`time.thread_time()` around `Thread.run`) by its name, and the probes'
  CPU (around `run_probes`, in the thread that calls it, plus the `probe-call` threads), so that
  tiercheck's own CPU splits into probes, the liveness watch, the progress watches, admission,
  the leg threads and the main thread. While the probes run, the SDK server's CPU is read too
  (`server_during_probes_s`): the server's share of what probing costs; and each probing's
  span (`time.monotonic()`, the same clock in every process) is kept (`_spans`) for the
  breakdown of the run's wall (breakdown.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["KINDS", "THREAD_BOOT", "KindLedger", "classify", "is_harness"]

KINDS = ("harness", "sdk-server", "sdk-clients", "tiercheck", "other")


def is_harness(cmdline: Sequence[str]) -> bool:
    """The pinned harness: `node …/conformance/…` (its CLI, whatever the install path)."""
    if not cmdline:
        return False
    exe = cmdline[0].rsplit("/", 1)[-1]
    return exe.startswith("node") and any("conformance" in arg for arg in cmdline[1:])


def is_warm_zygote(cmdline: Sequence[str]) -> bool:
    """tiercheck's warm start for Python clients: `PYTHON …/warm_zygote.py SOCKET SCRIPT`."""
    return len(cmdline) > 1 and cmdline[1].endswith("/warm_zygote.py")


def classify(
    chain: Sequence[Sequence[str]], *, tiercheck: bool, leg: str | None, itself: bool = False
) -> str:
    """The kind of a process from its ancestry below the benchmark, `chain[-1]` the process
    itself (each a command line; an ancestor whose command line cannot be read is left out).

    `tiercheck`: the run is tiercheck's, and `itself` says the process is tier-check. Otherwise
    the run is the official orchestration, whose steps each run one leg (`leg`: "server" or
    "client"), so whatever is not the harness belongs to that leg's side of the SDK.
    """
    if itself:
        return "tiercheck"
    if tiercheck and any(is_warm_zygote(cmd) for cmd in chain):
        return "sdk-clients"  # the warm start's zygote (the clients' imports) and its forks
    for depth, cmd in enumerate(chain):
        if is_harness(cmd):
            if depth == len(chain) - 1:
                return "harness"
            if tiercheck:
                return "sdk-clients"  # tiercheck's server legs' harness starts nothing
            break
    if tiercheck:
        return "sdk-server"  # tiercheck starts the harness, the server and nothing else
    return {"client": "sdk-clients", "server": "sdk-server"}.get(leg or "", "other")


@dataclass
class KindLedger:
    """Last-seen own CPU of every process, summed per kind."""

    #: (pid, start time) → (kind, CPU-seconds at the last sample)
    seen: dict[tuple[int, float], tuple[str, float]] = field(default_factory=dict)

    def note(self, key: tuple[int, float], kind: str, cpu_s: float) -> None:
        """One sample of one process. A process once found below the harness keeps that kind:
        a client whose harness has exited is re-parented to the benchmark (a subreaper), and
        its ancestry no longer says what it was."""
        known = self.seen.get(key)
        if known is not None and known[0] in {"harness", "sdk-clients"}:
            kind = known[0]
        self.seen[key] = (kind, cpu_s)

    def totals(self) -> dict[str, float]:
        """CPU-seconds per kind (every kind present, 0 when none was seen)."""
        sums = dict.fromkeys(KINDS, 0.0)
        for kind, cpu in self.seen.values():
            sums[kind] = sums.get(kind, 0.0) + cpu
        return {k: round(v, 2) for k, v in sums.items()}


#: Prepended to compare.py's boot snippet: per-thread CPU by name, and the probes' CPU.
THREAD_BOOT = """\
import threading as _t, time as _time, os as _os
_cpu = {}
_spans = []
_lock = _t.Lock()
def _kind(name):
    for prefix, kind in (("probe-call", "probes"), ("liveness", "liveness watch"),
                         ("watch-", "progress watches"), ("admission", "admission"),
                         ("leg", "leg threads")):
        if name.startswith(prefix):
            return kind
    return "other threads"
def _add(kind, seconds):
    with _lock:
        _cpu[kind] = _cpu.get(kind, 0.0) + seconds
_run = _t.Thread.run
def _timed_run(self):
    began = _time.thread_time()
    try:
        _run(self)
    finally:
        _add(_kind(self.name), _time.thread_time() - began)
_t.Thread.run = _timed_run
def _server_cpu(port):
    # Per process (pid, start) of the server probed: the child whose command line names the
    # probed port (with its descendants); not the harness, not the other revision's server,
    # not the warm start's zygote and its forked clients.
    import psutil
    found = {}
    me = psutil.Process()
    for child in me.children():
        try:
            cmd = child.cmdline()
            if cmd and cmd[0].rsplit("/", 1)[-1].startswith("node"):
                continue
            if not any(arg == port or arg.endswith("=" + port) or arg.endswith(":" + port)
                       for arg in cmd):
                continue
            for proc in [child, *child.children(recursive=True)]:
                times = proc.cpu_times()
                found[(proc.pid, proc.create_time())] = (
                    times.user + times.system + times.children_user + times.children_system)
        except psutil.Error:
            continue
    return found
def _patch_probes():
    import tiercheck.probes as probes
    original = probes.run_probes
    def run_probes(url, *args, **kwargs):
        from urllib.parse import urlsplit
        port = str(urlsplit(url).port)
        began, server = _time.thread_time(), _server_cpu(port)
        since = _time.monotonic()
        try:
            return original(url, *args, **kwargs)
        finally:
            _spans.append((since, _time.monotonic()))
            spent = _time.thread_time() - began
            _add("probes", spent)
            _add("leg threads", -spent)
            after = _server_cpu(port)
            _add("server during probes",
                 sum(after[key] - server[key] for key in after.keys() & server.keys()))
    probes.run_probes = run_probes
_patch_probes()
"""
