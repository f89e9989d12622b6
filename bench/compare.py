"""tiercheck against the official harness's own orchestration, side by side.

    .venv/bin/python bench/compare.py [--sdk-path examples/sample-sdk] [--sdk NAME]
                                      [--runs 3] [--json bench/results/NAME.json] [--quick]

A: `tier-check --sdk-path P --skip-governance --skip-build --output json --out TMP` (both
   revisions, overlapped, client slots).
B: the official harness's `sdk` subcommand, one leg and revision at a time, as its `tier-check`
   does it (server 2025, client 2025, server 2026, client 2026), with the server and client
   commands and environment tiercheck resolves for each revision (`tier-check show-config`).

A and B alternate (A, B, A, B, …). For every run: wall time; CPU (user+sys of the whole process
tree, from RUSAGE_CHILDREN deltas; the benchmark is a child subreaper, so orphaned grandchildren
are reaped by it and counted too); peak memory as the sum of RSS over every process below the
benchmark, sampled every 100 ms, the peak of the summed PSS (read at most once a second), and
the kernel's peak of a memory cgroup each run has to itself; peak process count; where the wall
went (bench/breakdown.py); per-scenario verdicts of both sides.
Also: a warm re-run of tiercheck (build must be `cached`), tiercheck's own CPU outside its
children, and `tier-check --help` start-up time. See bench/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import platform
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from attribution import THREAD_BOOT, KindLedger, classify
from breakdown import Row, Timeline
from cgroup import MemoryGroup

REPO = Path(__file__).resolve().parent.parent
TIER_CHECK = Path(sys.executable).with_name("tier-check")

#: Targets for A/B ratios and absolute figures (A is tiercheck).
TARGETS: dict[str, tuple[str, float]] = {
    "wall_ratio": ("<=", 0.30),
    "rss_ratio": ("<=", 0.35),
    "cgroup_peak_ratio": ("<=", 0.15),
    "floor_ratio": ("<=", 1.3),
    "own_cpu_s": ("<", 1.0),
    "help_s": ("<", 0.3),
}

SAMPLE_INTERVAL_S = 0.1
#: PSS (`memory_full_info`) makes the kernel walk every page of every process (~25 ms for a
#: 400 MB Node process, ~100 ms for 25 Python clients), too dear for every tick: it is read
#: every `PSS_EVERY_S`, and sooner (not within `PSS_GAP_S`) when the summed RSS is within 5 % of
#: its peak so far, where the peak of the PSS sum is to be found; and never sooner than
#: `PSS_BUDGET` × the CPU the last reading took, so that it costs at most 1/`PSS_BUDGET` of a
#: core whatever the tree.
PSS_EVERY_S = 1.0
PSS_GAP_S = 0.3
PSS_BUDGET = 20.0
HELP_RUNS = 10
_TIMESTAMP = re.compile(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$")

#: Runs tiercheck's CLI exactly as the console script does, and on exit writes the process's own
#: resource usage (RUSAGE_SELF: every thread of this process, none of its children) to argv[1].
_OWN_CPU_BOOT = (
    """\
import atexit, json, resource, sys
_path = sys.argv.pop(1)
"""
    + THREAD_BOOT
    + """\
def _own():
    r = resource.getrusage(resource.RUSAGE_SELF)
    with open(_path, "w") as f:
        json.dump({"user_s": r.ru_utime, "sys_s": r.ru_stime, "maxrss_kb": r.ru_maxrss,
                   "threads": _cpu, "probe_spans": _spans}, f)
atexit.register(_own)
sys.argv[0] = "tier-check"
from tiercheck.cli import main
sys.exit(main())
"""
)


# --- process-tree sampling ----------------------------------------------------------------


@dataclass
class TreePeak:
    """Peaks seen over a process tree."""

    rss_bytes: int = 0
    pss_bytes: int = 0
    processes: int = 0
    samples: int = 0
    pss_samples: int = 0
    #: PSS bytes per process kind at the peak of the PSS sum.
    pss_kinds: dict[str, int] = field(default_factory=dict)


def tree_processes(root: psutil.Process, *, include_root: bool) -> list[psutil.Process]:
    """`root`'s recursive children (and `root` itself when asked); empty if it is gone."""
    try:
        children = root.children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    return [root, *children] if include_root else children


def sample_tree(root: psutil.Process, *, include_root: bool) -> tuple[int, int]:
    """(summed RSS in bytes, process count) of the tree right now."""
    total = 0
    count = 0
    for proc in tree_processes(root, include_root=include_root):
        try:
            total += proc.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        count += 1
    return total, count


def sample_pss(
    root: psutil.Process, *, include_root: bool, kinds: Mapping[int, str] | None = None
) -> tuple[int, dict[str, int]]:
    """Summed PSS (proportional set size: each shared page divided among its sharers) of the
    tree right now, in bytes, and its split by `kinds` (pid → kind; "other" for the rest)."""
    total = 0
    split: dict[str, int] = {}
    for proc in tree_processes(root, include_root=include_root):
        try:
            pss = int(proc.memory_full_info().pss)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        total += pss
        kind = (kinds or {}).get(proc.pid, "other")
        split[kind] = split.get(kind, 0) + pss
    return total, split


class TreeSampler:
    """Samples a process tree every `interval` seconds on a thread, keeping the peaks.

    `watch` (a pid) also has its own CPU time (not its children's) read at every sample; the
    last reading is kept as a cross-check of the exact figure the process reports itself.
    """

    def __init__(
        self,
        root_pid: int,
        *,
        include_root: bool,
        interval: float = SAMPLE_INTERVAL_S,
        pss: bool = True,
    ) -> None:
        self.root = psutil.Process(root_pid)
        self.include_root = include_root
        self.interval = interval
        self.pss = pss
        self.peak = TreePeak()
        self.watch: psutil.Process | None = None
        self.watch_cpu_s: float | None = None
        #: CPU per process kind (bench/attribution.py): whose run this is, and the step's leg.
        self.ledger = KindLedger()
        self.tiercheck = False
        self.leg: str | None = None
        #: The step's "REV/LEG" (the official side) for the breakdown.
        self.step: str | None = None
        self.timeline = Timeline(_cores())
        self._pss_at = float("-inf")
        self._pss_cost_s = 0.0
        #: Each process's ancestry's command lines, kept once (a tick's rows share them).
        self._chains: dict[tuple[int, float], tuple[tuple[str, ...], ...]] = {}
        #: pid → kind at the last tick.
        self._kinds: dict[int, str] = {}
        self._procs: dict[int, tuple[float, int, list[str]]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="tree-sampler", daemon=True)

    def _attribute(self) -> None:
        """Note every process's own CPU under its kind."""
        try:
            procs = self.root.children(recursive=True)
        except psutil.NoSuchProcess:
            return
        live: dict[int, tuple[float, int, list[str]]] = {}
        cpu: dict[int, float] = {}
        runnable: set[int] = set()
        for proc in procs:
            try:
                with proc.oneshot():
                    created = proc.create_time()
                    known = self._procs.get(proc.pid)
                    if known is not None and known[0] == created:
                        live[proc.pid] = known
                    else:
                        live[proc.pid] = (created, proc.ppid(), proc.cmdline())
                    times = proc.cpu_times()
                    cpu[proc.pid] = times.user + times.system
                    if proc.status() == psutil.STATUS_RUNNING:
                        runnable.add(proc.pid)
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
        self._procs = live
        self._kinds = {}
        rows: list[Row] = []
        for pid, used in cpu.items():
            chain: list[list[str]] = []
            at: int | None = pid
            while at is not None and at in live:
                chain.append(live[at][2])
                at = live[at][1]
            watch = self.watch
            kind = classify(
                chain[::-1],
                tiercheck=self.tiercheck,
                leg=self.leg,
                itself=watch is not None and pid == watch.pid,
            )
            self.ledger.note((pid, live[pid][0]), kind, used)
            self._kinds[pid] = kind
            key = (pid, live[pid][0])
            if key not in self._chains:
                self._chains[key] = tuple(tuple(cmd) for cmd in chain[::-1])
            rows.append(Row(key, kind, self._chains[key], used, pid in runnable, self.step))
        self.timeline.observe(time.monotonic(), rows)

    def sample_once(self) -> None:
        """Take one sample now."""
        self._attribute()
        rss, count = sample_tree(self.root, include_root=self.include_root)
        now = time.monotonic()
        since = now - self._pss_at
        near_peak = since >= PSS_GAP_S and rss >= 0.95 * self.peak.rss_bytes
        afford = since >= PSS_BUDGET * self._pss_cost_s
        if self.pss and afford and (since >= PSS_EVERY_S or near_peak):
            self._pss_at = now
            began = time.thread_time()
            pss, split = sample_pss(self.root, include_root=self.include_root, kinds=self._kinds)
            self._pss_cost_s = time.thread_time() - began
            if pss > self.peak.pss_bytes:
                self.peak.pss_bytes = pss
                self.peak.pss_kinds = split
            self.peak.pss_samples += 1
        self.peak.rss_bytes = max(self.peak.rss_bytes, rss)
        self.peak.processes = max(self.peak.processes, count)
        self.peak.samples += 1
        watch = self.watch
        if watch is not None:
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                cpu = watch.cpu_times()
                self.watch_cpu_s = cpu.user + cpu.system

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sample_once()
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def children_cpu_s() -> float:
    """user+sys of every reaped descendant of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to us (so they are sampled, reaped and counted)."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_child_subreaper = 36
    return bool(libc.prctl(pr_set_child_subreaper, 1, 0, 0, 0) == 0)


def reap_stragglers(grace_s: float = 2.0) -> int:
    """Children still alive after a step ended: wait `grace_s`, then stop and reap them.

    Only processes below this benchmark (which it started, directly or not) are touched.
    Returns how many there were.
    """
    me = psutil.Process()
    deadline = time.monotonic() + grace_s
    leftover = me.children(recursive=True)
    while leftover and time.monotonic() < deadline:
        time.sleep(0.1)
        _reap_zombies()
        leftover = [p for p in me.children(recursive=True) if _alive(p)]
    for proc in leftover:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.terminate()
    _gone, alive = psutil.wait_procs(leftover, timeout=3)
    for proc in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    psutil.wait_procs(alive, timeout=3)
    _reap_zombies()
    return len(leftover)


def _alive(proc: psutil.Process) -> bool:
    try:
        return proc.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _reap_zombies() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


# --- one measured run ---------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One command of a measured run."""

    argv: list[str]
    cwd: Path
    env: Mapping[str, str]
    log: Path
    watch_own_cpu: bool = False
    #: The official orchestration's step: the leg it runs (its harness starts the server in a
    #: server leg, the clients in a client leg).
    leg: str | None = None
    label: str = ""


@dataclass
class RunSample:
    """What one run of one side cost."""

    side: str
    index: int
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    peak_processes: int
    samples: int
    returncodes: list[int]
    stragglers: int
    mem_available_drop_mb: float
    loadavg_before: float
    #: CPU the rest of the machine used meanwhile (busy time of all cores minus this run's tree
    #: and the benchmark itself): a noisy neighbour shows up here.
    foreign_cpu_s: float = 0.0
    #: The benchmark's own CPU during the run (sampling).
    bench_cpu_s: float = 0.0
    own_cpu_s: float | None = None
    own_cpu_sampled_s: float | None = None
    #: CPU-seconds per process kind (bench/attribution.py), `unattributed` the rest.
    kinds: dict[str, float] = field(default_factory=dict)
    #: Peak of the summed PSS (read at most every PSS_EVERY_S; `pss_samples` readings).
    peak_pss_mb: float | None = None
    pss_samples: int = 0
    #: MB of PSS per process kind at the peak of the PSS sum.
    pss_kinds_mb: dict[str, float] = field(default_factory=dict)
    #: The kernel's peak of the run's own memory cgroup (cgroup.py), None where none was made.
    cgroup_peak_mb: float | None = None
    #: CPU and wall per kind, leg and phase, and the cores left idle (breakdown.py).
    breakdown: dict[str, Any] = field(default_factory=dict)
    #: Wall seconds of each step (the official side: one per leg).
    step_walls: dict[str, float] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


def wait_for_quiet(max_wait_s: float, busy_pct: float) -> dict[str, float]:
    """Wait (up to `max_wait_s`) until the machine's CPU is less than `busy_pct` % busy over a
    second: on a shared machine another job's load would be measured as ours."""
    began = time.monotonic()
    busy = psutil.cpu_percent(interval=1.0)
    while busy >= busy_pct and time.monotonic() - began < max_wait_s:
        busy = psutil.cpu_percent(interval=1.0)
    return {"waited_s": round(time.monotonic() - began, 1), "busy_pct": busy}


def _busy_cpu_s() -> float:
    times = psutil.cpu_times()
    idle = times.idle + getattr(times, "iowait", 0.0)
    return float(sum(times)) - idle


def _self_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _mem_available_mb() -> float:
    return psutil.virtual_memory().available / 2**20


def measure(
    side: str,
    index: int,
    steps: Sequence[Step],
    *,
    interval_s: float = SAMPLE_INTERVAL_S,
    probe_file: Path | None = None,
    pss: bool = True,
) -> RunSample:
    """Run `steps` one after another as children of this process and measure the whole.

    Sampling walks every process below this one each `interval_s`: its cost grows with the
    tree, so a tree of hundreds of processes (a matrix) wants a longer interval, or the
    sampler's CPU slows the very run it measures (`bench_cpu_s` says what it cost). The steps
    run in a memory cgroup of their own (cgroup.py) where one can be made. `probe_file`: the
    boot snippet's file, whose probing spans mark the breakdown's phases. `pss`: also the
    summed PSS (dear for a tree of hundreds of processes)."""
    load = os.getloadavg()[0]
    avail_before = _mem_available_mb()
    avail_min = avail_before
    cpu_before = children_cpu_s()
    busy_before = _busy_cpu_s()
    self_before = _self_cpu_s()
    codes: list[int] = []
    stragglers = 0
    own: float | None = None
    wall = 0.0
    step_walls: dict[str, float] = {}
    group = MemoryGroup.create(f"tiercheck-bench-{os.getpid()}-{side}-{index}")
    # The group is removed however the run ends (an interrupted run leaves no group behind).
    with (
        group if group is not None else contextlib.nullcontext(),
        TreeSampler(os.getpid(), include_root=False, interval=interval_s, pss=pss) as sampler,
    ):
        sampler.tiercheck = any(step.watch_own_cpu for step in steps)
        for step in steps:
            sampler.leg = step.leg
            sampler.step = step.label if step.leg else None
            step_began = time.monotonic()
            sampler.timeline.begin(step_began)
            step.log.parent.mkdir(parents=True, exist_ok=True)
            with step.log.open("wb") as log:
                child = subprocess.Popen(
                    group.wrap(step.argv) if group else step.argv,
                    cwd=step.cwd,
                    env=dict(step.env),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
                if step.watch_own_cpu:
                    sampler.watch = psutil.Process(child.pid)
                while True:
                    try:
                        codes.append(child.wait(timeout=SAMPLE_INTERVAL_S))
                        break
                    except subprocess.TimeoutExpired:
                        avail_min = min(avail_min, _mem_available_mb())
                sampler.watch = None
            # Wall time ends when the command returns; a straggler's grace is not counted.
            wall += time.monotonic() - step_began
            if step.label:
                step_walls[step.label] = round(time.monotonic() - step_began, 3)
            sampler.sample_once()  # nothing of the step is left to see; the sums are final
            stragglers += reap_stragglers()
        own = sampler.watch_cpu_s
        cgroup_peak = None if group is None else group.peak_bytes()
    if probe_file is not None:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            spans = json.loads(probe_file.read_text(encoding="utf-8"))["probe_spans"]
            sampler.timeline.probes = [(float(a), float(b)) for a, b in spans]
    tree_cpu = children_cpu_s() - cpu_before
    bench_cpu = _self_cpu_s() - self_before
    foreign = _busy_cpu_s() - busy_before - tree_cpu - bench_cpu
    kinds = sampler.ledger.totals()
    kinds["unattributed"] = round(tree_cpu - sum(kinds.values()), 2)
    return RunSample(
        side=side,
        index=index,
        wall_s=round(wall, 3),
        cpu_s=round(tree_cpu, 3),
        peak_rss_mb=round(sampler.peak.rss_bytes / 2**20, 1),
        peak_pss_mb=round(sampler.peak.pss_bytes / 2**20, 1) if pss else None,
        pss_samples=sampler.peak.pss_samples,
        pss_kinds_mb={k: round(v / 2**20, 1) for k, v in sorted(sampler.peak.pss_kinds.items())},
        cgroup_peak_mb=None if cgroup_peak is None else round(cgroup_peak / 2**20, 1),
        breakdown=sampler.timeline.report(),
        peak_processes=sampler.peak.processes,
        samples=sampler.peak.samples,
        returncodes=codes,
        stragglers=stragglers,
        mem_available_drop_mb=round(max(0.0, avail_before - avail_min), 1),
        loadavg_before=round(load, 2),
        foreign_cpu_s=round(max(0.0, foreign), 2),
        bench_cpu_s=round(bench_cpu, 2),
        own_cpu_sampled_s=None if own is None else round(own, 3),
        kinds=kinds,
        step_walls=step_walls,
    )


# --- verdicts -----------------------------------------------------------------------------


def scenario_verdicts(results_dir: Path, leg: str) -> dict[str, bool]:
    """scenario → passed (≥1 SUCCESS and no FAILURE) for every checks.json under the dir."""
    verdicts: dict[str, bool] = {}
    if not results_dir.is_dir():
        return verdicts
    for checks_file in sorted(results_dir.rglob("checks.json")):
        rel = checks_file.parent.relative_to(results_dir).as_posix()
        name = _TIMESTAMP.sub("", rel)
        if leg == "server":
            name = name.removeprefix("server-")
        try:
            checks = json.loads(checks_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            checks = []
        statuses = [c.get("status") for c in checks if isinstance(c, dict)]
        verdicts[name] = "SUCCESS" in statuses and "FAILURE" not in statuses
    return verdicts


def compare_verdicts(
    a: Mapping[str, Mapping[str, bool]], b: Mapping[str, Mapping[str, bool]]
) -> dict[str, Any]:
    """Compare {"<rev>/<leg>": {scenario: passed}} of both sides."""
    differences: list[str] = []
    scenarios = 0
    for key in sorted(set(a) | set(b)):
        left, right = a.get(key, {}), b.get(key, {})
        for name in sorted(set(left) | set(right)):
            scenarios += 1
            lv, rv = left.get(name), right.get(name)
            if lv != rv:
                differences.append(f"{key} {name}: A={_word(lv)} B={_word(rv)}")
    return {"identical": not differences, "scenarios": scenarios, "differences": differences}


def _word(value: bool | None) -> str:
    return "missing" if value is None else ("pass" if value else "fail")


# --- the two sides ------------------------------------------------------------------------


@dataclass(frozen=True)
class Revision:
    """One revision's invocation, as tiercheck resolves it."""

    name: str
    server_command: str | None
    server_url: str | None
    client_command: str | None
    client_timeout_s: float
    env: dict[str, str]
    pass_env: list[str]


def load_config(sdk: str, cache_dir: Path, config_args: Sequence[str] = ()) -> list[Revision]:
    """Per-revision invocation from `tier-check show-config --sdk NAME --json [CONFIG_ARGS]`."""
    out = subprocess.run(
        [str(TIER_CHECK), "show-config", "--sdk", sdk, "--json", *config_args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TIERCHECK_CACHE": str(cache_dir)},
    ).stdout
    doc = json.loads(out)
    revisions = []
    for name, values in doc["revisions"].items():

        def value(key: str, values: dict[str, Any] = values) -> Any:
            return values.get(key, {}).get("value")

        revisions.append(
            Revision(
                name=name,
                server_command=value("server.command"),
                server_url=value("server.url"),
                client_command=value("client.command"),
                client_timeout_s=float(value("client.timeout") or 30.0),
                env=dict(value("env") or {}),
                pass_env=list(value("pass_env") or []),
            )
        )
    return revisions


def free_port() -> int:
    """A port nothing listens on right now (127.0.0.1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _with_port(text: str, port: int) -> str:
    return text.replace("{port}", str(port))


def official_steps(
    revisions: Sequence[Revision], *, harness_argv: list[str], sdk_path: Path, out: Path
) -> list[Step]:
    """The official `sdk` subcommand per leg and revision, in the official order."""
    from tiercheck.process import sdk_environment

    steps = []
    for rev in revisions:
        for leg in ("server", "client"):
            argv = [*harness_argv, "sdk", "--path", str(sdk_path), "--mode", leg]
            argv += ["--requirements", rev.name, "--skip-build"]
            extra = dict(rev.env)
            if leg == "server":
                if not (rev.server_command and rev.server_url):
                    continue
                port = free_port()
                extra = {k: _with_port(v, port) for k, v in extra.items()}
                extra["PORT"] = str(port)
                argv += ["--server-cmd", _with_port(rev.server_command, port)]
                argv += ["--server-url", _with_port(rev.server_url, port)]
            else:
                if not rev.client_command:
                    continue
                argv += ["--client-cmd", rev.client_command]
                argv += ["--timeout", str(int(rev.client_timeout_s * 1000))]
            argv += ["-o", str(out / rev.name / leg)]
            env = sdk_environment(extra, allow=rev.pass_env)
            log = out / "logs" / f"{rev.name}-{leg}.log"
            steps.append(Step(argv, sdk_path, env, log, leg=leg, label=f"{rev.name}/{leg}"))
    return steps


def tiercheck_argv(
    sdk_path: Path,
    sdk: str | None,
    out: Path,
    own_cpu_file: Path,
    *,
    skip_build: bool,
    revisions: Sequence[str] | None,
    extra: Sequence[str] = (),
) -> list[str]:
    """tier-check through a boot snippet that records its own CPU (see `_OWN_CPU_BOOT`)."""
    argv = [sys.executable, "-c", _OWN_CPU_BOOT, str(own_cpu_file), "--sdk-path", str(sdk_path)]
    if sdk:
        argv += ["--sdk", sdk]
    argv += ["--skip-governance", "--output", "json", "--out", str(out)]
    if skip_build:
        argv.append("--skip-build")
    for rev in revisions or ():
        argv += ["--revision", rev]
    return [*argv, *extra]


def run_tiercheck(
    index: int,
    label: str,
    *,
    sdk_path: Path,
    sdk: str | None,
    cache_dir: Path,
    work: Path,
    skip_build: bool,
    revisions: Sequence[str] | None,
    extra: Sequence[str] = (),
) -> tuple[RunSample, dict[str, Any]]:
    """One measured tiercheck run; returns the sample and the scorecard."""
    out = work / f"{label}-{index}"
    own_file = work / f"{label}-{index}.own.json"
    env = {**os.environ, "TIERCHECK_CACHE": str(cache_dir)}
    step = Step(
        tiercheck_argv(
            sdk_path, sdk, out, own_file, skip_build=skip_build, revisions=revisions, extra=extra
        ),
        REPO,
        env,
        work / f"{label}-{index}.log",
        watch_own_cpu=True,
    )
    sample = measure(label, index, [step], probe_file=own_file)
    scorecard: dict[str, Any] = {}
    threads: dict[str, float] = {}
    with contextlib.suppress(OSError, ValueError):
        scorecard = json.loads((out / "scorecard.json").read_text(encoding="utf-8"))
    with contextlib.suppress(OSError, ValueError, KeyError):
        own = json.loads(own_file.read_text(encoding="utf-8"))
        sample.own_cpu_s = round(own["user_s"] + own["sys_s"], 3)
        threads = own.get("threads") or {}
    sample.extra = {
        "out": str(out),
        "build_state": (scorecard.get("build") or {}).get("state"),
        "timings": scorecard.get("timings"),
        "exit_code": scorecard.get("exit_code"),
        "sdk_commit": (scorecard.get("sdk") or {}).get("commit"),
    }
    split_own_cpu(sample, threads)
    return sample, scorecard


def split_own_cpu(sample: RunSample, threads: Mapping[str, float]) -> None:
    """Replace the sampled CPU of tiercheck's process by its exact own CPU, split by thread kind
    (`attribution.THREAD_BOOT`): probes, liveness watch, …, main thread the rest."""
    if sample.own_cpu_s is None or not sample.kinds:
        return
    sampled = sample.kinds.get("tiercheck", 0.0)
    sample.kinds["tiercheck"] = sample.own_cpu_s
    sample.kinds["unattributed"] = round(
        sample.kinds.get("unattributed", 0.0) + sampled - sample.own_cpu_s, 2
    )
    own = {k: round(v, 2) for k, v in threads.items() if k != "server during probes"}
    own["main thread"] = round(sample.own_cpu_s - sum(own.values()), 2)
    sample.extra["tiercheck_threads"] = own
    if "server during probes" in threads:
        sample.extra["server_during_probes_s"] = round(threads["server during probes"], 2)


def tiercheck_verdicts(scorecard: Mapping[str, Any], legs: Sequence[str]) -> dict[str, Any]:
    """{"<rev>/<leg>": verdicts} from the scorecard's raw results (`artifacts.raw`)."""
    raw = Path((scorecard.get("artifacts") or {}).get("raw") or "/nonexistent")
    return {key: scenario_verdicts(raw / key, key.split("/")[1]) for key in legs}


def help_times(runs: int = HELP_RUNS) -> list[float]:
    """Wall time of `tier-check --help`, `runs` times."""
    times = []
    for _ in range(runs):
        began = time.monotonic()
        subprocess.run([str(TIER_CHECK), "--help"], stdout=subprocess.DEVNULL, check=True)
        times.append(round(time.monotonic() - began, 4))
    return times


# --- summary and table --------------------------------------------------------------------


def median(values: Sequence[float]) -> float | None:
    """The median, None for no values."""
    return statistics.median(values) if values else None


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b, None when either is missing or b is zero."""
    if a is None or not b:
        return None
    return a / b


def meets(name: str, value: float | None) -> bool | None:
    """Whether `value` meets the target `name` (None when not measured)."""
    if value is None:
        return None
    op, limit = TARGETS[name]
    return value <= limit if op == "<=" else value < limit


def mark(ok: bool | None) -> str:
    """✓, ✗ or – (not measured)."""
    return "–" if ok is None else ("✓" if ok else "✗")


def summarize(samples: Sequence[RunSample]) -> dict[str, dict[str, float | None]]:
    """Medians per side."""
    sides: dict[str, dict[str, float | None]] = {}
    for side in sorted({s.side for s in samples}):
        mine = [s for s in samples if s.side == side]
        own = [s.own_cpu_s for s in mine if s.own_cpu_s is not None]
        cores = [s.breakdown.get("cores") for s in mine]
        floors = [
            s.wall_s / (s.cpu_s / n) for s, n in zip(mine, cores, strict=True) if n and s.cpu_s
        ]
        sides[side] = {
            "wall_s": median([s.wall_s for s in mine]),
            "cpu_s": median([s.cpu_s for s in mine]),
            "floor_ratio": median(floors),
            "peak_rss_mb": median([s.peak_rss_mb for s in mine]),
            "peak_pss_mb": median([s.peak_pss_mb for s in mine if s.peak_pss_mb is not None]),
            "cgroup_peak_mb": median(
                [s.cgroup_peak_mb for s in mine if s.cgroup_peak_mb is not None]
            ),
            "peak_processes": median([float(s.peak_processes) for s in mine]),
            "own_cpu_s": median(own),
            "foreign_cpu_s": median([s.foreign_cpu_s for s in mine]),
        }
    return sides


def ratios(
    medians: Mapping[str, Mapping[str, float | None]], side: str = "A"
) -> dict[str, float | None]:
    """`side`/B for each figure."""
    a, b = medians.get(side, {}), medians.get("B", {})
    return {
        "wall": ratio(a.get("wall_s"), b.get("wall_s")),
        "cpu": ratio(a.get("cpu_s"), b.get("cpu_s")),
        "peak_rss": ratio(a.get("peak_rss_mb"), b.get("peak_rss_mb")),
        "peak_pss": ratio(a.get("peak_pss_mb"), b.get("peak_pss_mb")),
        "cgroup_peak": ratio(a.get("cgroup_peak_mb"), b.get("cgroup_peak_mb")),
        "peak_processes": ratio(a.get("peak_processes"), b.get("peak_processes")),
    }


def kind_medians(samples: Sequence[RunSample]) -> dict[str, dict[str, float | None]]:
    """Per side, the median CPU-seconds of each process kind (and of tiercheck's threads)."""
    sides: dict[str, dict[str, float | None]] = {}
    for side in sorted({s.side for s in samples}):
        mine = [s for s in samples if s.side == side]
        keys = sorted({k for s in mine for k in s.kinds})
        sides[side] = {k: median([s.kinds[k] for s in mine if k in s.kinds]) for k in keys}
        threads = sorted({k for s in mine for k in s.extra.get("tiercheck_threads", {})})
        for key in threads:
            values = [s.extra["tiercheck_threads"][key] for s in mine]
            sides[side][f"tiercheck: {key}"] = median(
                [v for v in values if isinstance(v, (int, float))]
            )
        probes = [
            s.extra["server_during_probes_s"] for s in mine if "server_during_probes_s" in s.extra
        ]
        if probes:
            sides[side]["sdk-server: during probes"] = median(probes)
    return sides


def _median_tree(docs: Sequence[Any]) -> Any:
    """The median of every number at the same place in `docs` (dicts nested alike; a key
    missing from some documents takes the median of those that have it)."""
    present = [d for d in docs if d is not None]
    if present and all(isinstance(d, dict) for d in present):
        keys = sorted({k for d in present for k in d})
        return {k: _median_tree([d.get(k) for d in present]) for k in keys}
    numbers = [float(d) for d in present if isinstance(d, (int, float))]
    return None if not numbers else round(statistics.median(numbers), 2)


def breakdown_medians(samples: Sequence[RunSample]) -> dict[str, Any]:
    """Per side, the median of each figure of the runs' breakdowns (breakdown.py)."""
    return {
        side: _median_tree([s.breakdown for s in samples if s.side == side and s.breakdown])
        for side in sorted({s.side for s in samples})
    }


def format_breakdown(side: str, doc: Mapping[str, Any]) -> list[str]:
    """The breakdown's lines for one side."""
    if not doc:
        return []
    lines = [
        f"breakdown {side}: wall {_fmt(doc.get('wall_s'))} s, CPU {_fmt(doc.get('cpu_s'))} s "
        f"on {_fmt(doc.get('cores'), 0)} cores (floor {_fmt(doc.get('floor_s'))} s), idle "
        f"{_fmt(doc.get('idle_core_s'))} core-s, short of cores "
        f"{_fmt(doc.get('short_of_cores_s'))} s"
    ]
    for kind, row in (doc.get("kinds") or {}).items():
        lines.append(
            f"  kind {kind}: CPU {_fmt(row.get('cpu_s'))} s, alive {_fmt(row.get('alive_s'))} s, "
            f"runnable {_fmt(row.get('runnable_s'))} s"
        )
    for leg, row in (doc.get("legs") or {}).items():
        kinds = ", ".join(f"{k} {_fmt(v)}" for k, v in (row.get("kinds") or {}).items())
        lines.append(
            f"  leg {leg}: span {_fmt(row.get('span_s'))} s, CPU {_fmt(row.get('cpu_s'))} s "
            f"({kinds}), runnable {_fmt(row.get('runnable_s'))} s"
        )
    for phase, row in (doc.get("phases") or {}).items():
        lines.append(
            f"  phase {phase}: wall {_fmt(row.get('wall_s'))} s, CPU {_fmt(row.get('cpu_s'))} s, "
            f"idle {_fmt(row.get('idle_core_s'))} core-s, short of cores "
            f"{_fmt(row.get('short_of_cores_s'))} s"
        )
    return lines


def leg_walls(samples: Sequence[RunSample], legs: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per leg ("REV/LEG"), the median wall of each side: tiercheck's own timing of the leg
    (`timings["LEG REV"]`, a server leg's start-up included), the official side's step."""
    out: dict[str, dict[str, Any]] = {}
    for key in legs:
        rev, leg = key.split("/")
        row: dict[str, Any] = {}
        for side in sorted({s.side for s in samples}):
            mine = [s for s in samples if s.side == side]
            if side == "B":
                values = [s.step_walls[key] for s in mine if key in s.step_walls]
            else:
                values = [
                    float(s.extra["timings"][f"{leg} {rev}"])
                    for s in mine
                    if f"{leg} {rev}" in (s.extra.get("timings") or {})
                ]
            row[side] = median(values)
        for side, value in list(row.items()):
            if side != "B":
                row[f"{side}/B"] = ratio(value, row.get("B"))
        out[key] = row
    return out


def _fmt(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def format_table(result: Mapping[str, Any]) -> str:
    """The human summary of a result document."""
    med = result["medians"]
    rat = result["ratios"]
    a, b = med.get("A", {}), med.get("B", {})
    rows = [
        ("wall (s)", "wall_s", "wall", "wall_ratio", 1),
        ("CPU user+sys (s)", "cpu_s", "cpu", None, 1),
        ("peak summed RSS (MB)", "peak_rss_mb", "peak_rss", "rss_ratio", 0),
        ("peak summed PSS (MB)", "peak_pss_mb", "peak_pss", None, 0),
        ("cgroup peak (MB)", "cgroup_peak_mb", "cgroup_peak", "cgroup_peak_ratio", 0),
        ("wall ÷ (CPU ÷ cores)", "floor_ratio", "", None, 2),
        ("peak processes", "peak_processes", "peak_processes", None, 0),
        ("others' CPU meanwhile", "foreign_cpu_s", "", None, 1),
    ]
    lines = [
        f"{'median of ' + str(result['runs']) + ' run(s)':<24}{'A tiercheck':>13}"
        f"{'B official':>13}{'A/B':>8}  target",
    ]
    for label, key, rkey, target, digits in rows:
        value = rat.get(rkey)
        goal = ""
        if target is not None:
            op, limit = TARGETS[target]
            goal = f"{op} {limit:.2f}× {mark(meets(target, value))}"
        lines.append(
            f"{label:<24}{_fmt(a.get(key), digits):>13}{_fmt(b.get(key), digits):>13}"
            f"{_fmt(value, 2):>8}  {goal}".rstrip()
        )
    verdicts = result["verdicts"]
    same = "identical" if verdicts["identical"] else f"DIFFER ({len(verdicts['differences'])})"
    lines.append(f"verdicts: {same} over {verdicts['scenarios']} scenario(s)")
    lines.extend(f"  {d}" for d in verdicts["differences"][:20])
    floor = a.get("floor_ratio")
    lines.append(
        f"A wall ÷ its CPU floor  {_fmt(floor, 2):>13}   target ≤ 1.3 "
        f"{mark(meets('floor_ratio', floor))}"
    )
    own = a.get("own_cpu_s")
    lines.append(
        f"tiercheck own CPU (s)   {_fmt(own, 2):>13}   target < 1 s {mark(meets('own_cpu_s', own))}"
    )
    help_s = result["help"]["median_s"]
    lines.append(
        f"tier-check --help (s)   {_fmt(help_s, 3):>13}   target < 0.3 s "
        f"{mark(meets('help_s', help_s))}"
    )
    for side, kinds in (result.get("kinds") or {}).items():
        lines.append(
            f"CPU-s by kind, {side}: " + ", ".join(f"{k} {_fmt(v)}" for k, v in kinds.items())
        )
    for key, row in (result.get("legs") or {}).items():
        lines.append(
            f"leg {key} wall (s): "
            + ", ".join(f"{k} {_fmt(v, 2 if '/' in k else 1)}" for k, v in row.items())
        )
    for side, split in (result.get("pss_kinds_mb") or {}).items():
        if split:
            lines.append(
                f"PSS at its peak by kind, {side} (MB): "
                + ", ".join(f"{k} {_fmt(v, 0)}" for k, v in split.items())
            )
    for side, doc in (result.get("breakdown") or {}).items():
        lines.extend(format_breakdown(side, doc or {}))
    if result.get("ratios_before"):
        rb = result["ratios_before"]
        lines.append(f"A0/B (before): wall {_fmt(rb.get('wall'), 2)}, CPU {_fmt(rb.get('cpu'), 2)}")
    warm = result.get("warm")
    if warm:
        timings = warm.get("timings") or {}
        ok = warm.get("build_state") == "cached" and not warm.get("provisioned")
        lines.append(
            f"warm re-run (s)         {_fmt(warm.get('wall_s'), 1):>13}   build "
            f"{warm.get('build_state')} ({_fmt(timings.get('build'), 3)} s), harness "
            f"{_fmt(timings.get('harness'), 3)} s {mark(ok)}"
        )
    return "\n".join(lines)


# --- facts about the machine and versions -------------------------------------------------


def _git(*args: str, cwd: Path = REPO) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip()


def machine_facts() -> dict[str, Any]:
    """What the figures were measured on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    cpu_model = None
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cores": cores,
        "cpu_model": cpu_model,
        "mem_total_mb": round(psutil.virtual_memory().total / 2**20),
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
    }


# --- main ---------------------------------------------------------------------------------


def _brief(sample: RunSample) -> str:
    return (
        f"{sample.wall_s:.1f} s, CPU {sample.cpu_s:.1f} s, RSS {sample.peak_rss_mb:.0f} MB, "
        f"PSS {_fmt(sample.peak_pss_mb, 0)} MB, cgroup {_fmt(sample.cgroup_peak_mb, 0)} MB, "
        f"{sample.peak_processes} processes (others used {sample.foreign_cpu_s:.1f} CPU-s)"
    )


def say(text: str) -> None:
    """Progress, on stderr."""
    print(text, file=sys.stderr, flush=True)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sdk-path", type=Path, default=REPO / "examples" / "sample-sdk")
    parser.add_argument("--sdk", help="known SDK name for the config (default: the dir name)")
    parser.add_argument("--runs", type=int, default=3, help="A/B pairs (default 3)")
    parser.add_argument("--json", type=Path, help="write the result here")
    parser.add_argument("--cache-dir", type=Path, help="tiercheck cache (TIERCHECK_CACHE)")
    parser.add_argument("--revision", action="append", help="only these revisions")
    parser.add_argument("--quick", action="store_true", help="smoke test: 1 run, one revision")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between runs")
    parser.add_argument(
        "--quiet-cpu",
        type=float,
        default=30.0,
        help="before each run wait until the machine is less than this %% busy (default 30)",
    )
    parser.add_argument(
        "--quiet-wait", type=float, default=300.0, help="wait at most this long, s (default 300)"
    )
    parser.add_argument("--keep", action="store_true", help="keep the raw outputs")
    parser.add_argument(
        "--config-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="a configuration flag for both sides (show-config and tier-check), e.g. "
        "--config-arg=--client-cmd=./client; repeatable",
    )
    parser.add_argument(
        "--before-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="also run tiercheck with these extra arguments as side A0 (e.g. "
        "--before-arg=--concurrency=2: the former one-client-per-core rule); repeatable",
    )
    parser.add_argument(
        "--no-warm", action="store_true", help="skip the priming and warm re-runs (built already)"
    )
    return parser.parse_args(argv)


@dataclass
class Bench:
    """One benchmark session: where things are and how to run each side."""

    args: argparse.Namespace
    sdk_path: Path
    cache_dir: Path
    work: Path
    revisions: list[Revision]
    only: list[str] | None
    harness_argv: list[str]

    @property
    def legs(self) -> list[str]:
        return [f"{r.name}/{leg}" for r in self.revisions for leg in ("server", "client")]

    def settle(self) -> dict[str, float]:
        time.sleep(self.args.pause)
        if self.args.quiet_wait <= 0:
            return {}
        quiet = wait_for_quiet(self.args.quiet_wait, self.args.quiet_cpu)
        if quiet["busy_pct"] >= self.args.quiet_cpu:
            say(f"  (machine still {quiet['busy_pct']:.0f} % busy; measuring anyway)")
        return quiet

    def tiercheck(
        self, index: int, label: str, *, skip_build: bool, extra: Sequence[str] = ()
    ) -> tuple[RunSample, dict[str, Any]]:
        quiet = self.settle()
        sample, card = run_tiercheck(
            index,
            label,
            sdk_path=self.sdk_path,
            sdk=self.args.sdk,
            cache_dir=self.cache_dir,
            work=self.work,
            skip_build=skip_build,
            revisions=self.only,
            extra=[*self.args.config_arg, *extra],
        )
        sample.extra["quiet"] = quiet
        return sample, card

    def official(self, index: int) -> tuple[RunSample, dict[str, dict[str, bool]]]:
        quiet = self.settle()
        out = self.work / f"B-{index}"
        steps = official_steps(
            self.revisions, harness_argv=self.harness_argv, sdk_path=self.sdk_path, out=out
        )
        sample = measure("B", index, steps)
        sample.extra["quiet"] = quiet
        verdicts = {key: scenario_verdicts(out / key, key.split("/")[1]) for key in self.legs}
        return sample, verdicts


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    from tiercheck import __version__
    from tiercheck.conformance.harness import provision
    from tiercheck.paths import default_cache_dir

    sdk_path = args.sdk_path.resolve()
    sdk = args.sdk or sdk_path.name
    cache_dir = (args.cache_dir or default_cache_dir()).resolve()
    runs = 1 if args.quick else max(1, args.runs)
    all_revisions = load_config(sdk, cache_dir, args.config_arg)
    wanted = args.revision or ([all_revisions[0].name] if args.quick else None)
    revisions = [r for r in all_revisions if wanted is None or r.name in wanted]
    harness = provision(cache_dir)
    subreaper = become_subreaper()
    machine = machine_facts()
    # The code measured is the code at the start (others may commit while this runs).
    code = {
        "version": __version__,
        "commit": _git("rev-parse", "HEAD"),
        "dirty": bool(_git("status", "--porcelain", "--", "tiercheck")),
    }
    sdk_commit = _git("rev-parse", "HEAD", cwd=sdk_path)
    work = Path(tempfile.mkdtemp(prefix="tiercheck-bench-"))
    bench = Bench(
        args,
        sdk_path,
        cache_dir,
        work,
        revisions,
        [r.name for r in revisions] if wanted else None,
        harness.argv(),
    )
    rev_names = [r.name for r in revisions]
    try:
        say(f"bench: {sdk} at {sdk_path}, revisions {', '.join(rev_names)}, {runs} run(s)")
        say(f"bench: tier-check --help ×{HELP_RUNS}")
        helps = help_times()
        # Build once (whatever state it finds), then the warm re-run must find it cached.
        prime: RunSample | None = None
        warm: RunSample | None = None
        warm_card: dict[str, Any] = {}
        provisioned = False
        if not args.no_warm:
            say("bench: priming run (build)")
            prime, _ = bench.tiercheck(0, "prime", skip_build=False)
            say(f"  build {prime.extra.get('build_state')}, {prime.wall_s:.1f} s")
            say("bench: warm re-run")
            warm, warm_card = bench.tiercheck(0, "warm", skip_build=False)
            say(f"  build {warm.extra.get('build_state')}, {warm.wall_s:.1f} s")
            warm_log = (work / "warm-0.log").read_text(encoding="utf-8", errors="replace")
            provisioned = "provisioning" in warm_log

        def build(pairs: int) -> dict[str, Any]:
            """The result document of the pairs measured so far."""
            differences = sorted({d for c in comparisons for d in c["differences"]})
            medians = summarize(samples)
            result: dict[str, Any] = {
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "command": ["python", "bench/compare.py", *(argv or sys.argv[1:])],
                "sdk": {"name": sdk, "path": str(sdk_path), "commit": sdk_commit},
                "revisions": rev_names,
                "runs": runs,
                "tiercheck": code,
                "harness": {"version": harness.version, "node_version": harness.node_version},
                "machine": {
                    **machine,
                    "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
                    "subreaper": subreaper,
                },
                "targets": {k: {"op": op, "limit": v} for k, (op, v) in TARGETS.items()},
                "samples": [asdict(s) for s in samples],
                "medians": medians,
                "ratios": ratios(medians),
                "ratios_before": ratios(medians, "A0") if args.before_arg else None,
                "verdicts": {
                    "identical": not differences,
                    "scenarios": max((c["scenarios"] for c in comparisons), default=0),
                    "differences": differences,
                    "per_run": comparisons,
                },
                "help": {"samples_s": helps, "median_s": median(helps)},
                "prime": asdict(prime) if prime else None,
                "warm": {
                    **asdict(warm),
                    "build_state": warm.extra.get("build_state"),
                    "timings": warm_card.get("timings"),
                    "provisioned": provisioned,
                }
                if warm
                else None,
                "before_args": args.before_arg,
                "kinds": kind_medians(samples),
                "breakdown": breakdown_medians(samples),
                "pss_kinds_mb": {
                    side: _median_tree([s.pss_kinds_mb for s in samples if s.side == side])
                    for side in sorted({s.side for s in samples})
                },
                "legs": leg_walls(samples, bench.legs),
            }
            result["met"] = {
                "wall_ratio": meets("wall_ratio", result["ratios"]["wall"]),
                "rss_ratio": meets("rss_ratio", result["ratios"]["peak_rss"]),
                "cgroup_peak_ratio": meets("cgroup_peak_ratio", result["ratios"]["cgroup_peak"]),
                "floor_ratio": meets("floor_ratio", medians.get("A", {}).get("floor_ratio")),
                "own_cpu_s": meets("own_cpu_s", medians.get("A", {}).get("own_cpu_s")),
                "help_s": meets("help_s", result["help"]["median_s"]),
                "warm_cached": None
                if warm is None
                else warm.extra.get("build_state") == "cached" and not provisioned,
                "verdicts_identical": not differences,
            }
            result["pairs_done"] = pairs
            result["complete"] = pairs == runs
            return result

        commit = (code["commit"] or "nocommit")[:7]
        target = args.json or REPO / "bench" / "results" / f"{sdk}-{commit}.json"
        target.parent.mkdir(parents=True, exist_ok=True)

        def write(result: Mapping[str, Any]) -> None:
            text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
            target.write_text(text, "utf-8")

        samples: list[RunSample] = []
        comparisons = []
        for index in range(runs):
            say(f"bench: run {index + 1}/{runs} A (tiercheck)")
            a_sample, card = bench.tiercheck(index, "A", skip_build=True)
            samples.append(a_sample)
            say(f"  A: {_brief(a_sample)}")
            if args.before_arg:
                say(f"bench: run {index + 1}/{runs} A0 (tiercheck {' '.join(args.before_arg)})")
                a0_sample, _ = bench.tiercheck(index, "A0", skip_build=True, extra=args.before_arg)
                samples.append(a0_sample)
                say(f"  A0: {_brief(a0_sample)}")
            say(f"bench: run {index + 1}/{runs} B (official sdk ×{len(bench.legs)})")
            b_sample, b_verdicts = bench.official(index)
            samples.append(b_sample)
            say(f"  B: {_brief(b_sample)}")
            comparisons.append(compare_verdicts(tiercheck_verdicts(card, bench.legs), b_verdicts))
            # Every pair is written as soon as it is measured: a run cut short keeps them.
            write(build(index + 1))
        result = build(runs)
        print(format_table(result))
        write(result)
        say(f"bench: wrote {target}")
    except KeyboardInterrupt:
        say("bench: interrupted")
        reap_stragglers(grace_s=0.0)
        return 130
    finally:
        if args.keep:
            say(f"bench: raw outputs kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
