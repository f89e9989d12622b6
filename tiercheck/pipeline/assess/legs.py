"""Step 5, legs: the server and client legs of every planned revision, overlapped.

Per revision: {server on a free port → server leg → stop} and {client leg, slot-limited}. Server
legs take turns, each overlapping the client legs (a server on a fixed port holds its turn until
it has stopped: `would_run.server_turns`, said in the run's log); client processes across the whole
assessment are admitted by the CPU they use (`conformance.admission`), never more than
`RunSettings.concurrency` when that is given. A leg that cannot be measured is an unmeasured
verdict with its reason. Ctrl-C (or SIGTERM) stops every child, marks the legs that had not
finished as interrupted, and still returns what was measured.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tiercheck import process
from tiercheck.config.resolve import RevisionConfig
from tiercheck.conformance import admission, node_warm, slots, warm
from tiercheck.conformance.harness import Harness
from tiercheck.conformance.legs import LegRun, run_client_leg, run_server_leg
from tiercheck.errors import ServerStartError, TiercheckError
from tiercheck.pipeline.assess.base import (
    AssessOptions,
    ProgressSink,
    Unmeasured,
    default_concurrency,
    elapsed,
)
from tiercheck.pipeline.assess.compare import COMPARE_DIR, ComparedRun, Comparing, compare_dir
from tiercheck.pipeline.assess.confirm import CONFIRM_DIR, confirm_failures
from tiercheck.pipeline.assess.diagnosis import diagnose, missing_note
from tiercheck.pipeline.assess.liveness import Liveness, LivenessWatch, judge_liveness
from tiercheck.pipeline.assess.plan import RevisionPlan
from tiercheck.pipeline.assess.verdict import score_leg_run
from tiercheck.pipeline.assess.would_run import (
    legs_to_run,
    nothing_would_run,
    server_turns,
    unconfigured,
)
from tiercheck.revisions import LEGS, Leg, is_known_revision
from tiercheck.scoring import LegVerdict, skipped_leg, unmeasured_leg

if TYPE_CHECKING:
    from tiercheck.probes import ProbeReport
    from tiercheck.sdk.server import ManagedServer

__all__ = [
    "CLIENT_LEG_TIMEOUT_S",
    "SERVER_LEG_TIMEOUT_S",
    "WATCH_EVERY_S",
    "LegsResult",
    "nothing_to_run",
    "run_legs",
]

#: Leg timeouts: the harness is killed (and the leg reported unmeasured) past these.
SERVER_LEG_TIMEOUT_S = 600.0
CLIENT_LEG_TIMEOUT_S = 1200.0
#: How often a running leg's finished scenarios are counted for the progress line.
WATCH_EVERY_S = 0.5


@dataclass(frozen=True)
class LegsResult:
    """Every planned leg's verdict, and what running them produced on the way."""

    verdicts: Mapping[tuple[str, Leg], LegVerdict]
    #: The URL each revision's server answered at.
    server_urls: Mapping[str, str] = field(default_factory=dict)
    logs: Mapping[str, str] = field(default_factory=dict)
    unmeasured: tuple[Unmeasured, ...] = ()
    timings: Mapping[str, float] = field(default_factory=dict)
    interrupted: bool = False
    #: Revision → the advisory probes' report, for each server they ran against.
    probes: Mapping[str, ProbeReport] = field(default_factory=dict)
    #: (revision, leg) → the `--compare-harness` run of the leg, or why it was not run.
    compared: Mapping[tuple[str, Leg], ComparedRun] = field(default_factory=dict)
    #: Failures measured beside other work and run again by themselves (`confirm`), and the
    #: wall seconds that took; None when the legs were interrupted before it.
    rerun: int | None = None
    rerun_s: float = 0.0


def nothing_to_run(options: AssessOptions, revisions: Sequence[RevisionPlan]) -> LegsResult | None:
    """Every leg skipped, when no leg at any revision has a command to run (`would_run`, the
    preview's own answer); else None.

    Then neither the harness nor the build is needed: the run measures nothing (exit 3) and
    says so at once, instead of after provisioning and building for no leg.
    """
    planned = [legs_to_run(plan.config, server_url=options.server_url) for plan in revisions]
    if not nothing_would_run(planned):
        return None
    return LegsResult(
        verdicts={
            (legs.revision, leg): skipped_leg(leg, legs.revision, reason)
            for legs in planned
            for leg, reason in legs.skipped
        }
    )


@dataclass
class _Record:
    """What the leg tasks of one `run_legs` call note as they go, from their threads.

    Private to one call of this step; the dicts and the list keep the order things happened
    in, which the scorecard shows.
    """

    server_urls: dict[str, str] = field(default_factory=dict)
    logs: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    unmeasured: list[Unmeasured] = field(default_factory=list)
    probes: dict[str, ProbeReport] = field(default_factory=dict)
    compared: dict[tuple[str, Leg], ComparedRun] = field(default_factory=dict)


@contextmanager
def _watching(
    progress: ProgressSink,
    plan: RevisionPlan,
    leg: Leg,
    results_dir: Path,
    *,
    every_s: float = WATCH_EVERY_S,
) -> Iterator[None]:
    """Report scenarios finished (each writes one checks.json) while a leg runs, looking every
    `every_s` seconds."""
    total = len(plan.requirements.expected(leg))
    finished = threading.Event()

    def watch() -> None:
        seen = -1
        while not finished.wait(every_s):
            done = sum(1 for _ in results_dir.rglob("checks.json")) if results_dir.is_dir() else 0
            if done != seen:
                seen = done
                progress.leg_progress(plan.revision, leg, min(done, total), total)

    watcher = threading.Thread(target=watch, name=f"watch-{leg}-{plan.revision}", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        finished.set()
        watcher.join(timeout=2)


@dataclass(frozen=True)
class _ClientSlots:
    script: Path | None
    #: The hard cap the wrapper enforces (`--concurrency N`, else every queued client).
    slots: int
    queued: int
    #: Clients always admitted (one per core, or the cap if lower): the harness timeout
    #: covers a queue that moves at this pace.
    floor: int = 1


@dataclass(frozen=True)
class _LegContext:
    """What every leg task of one assessment shares."""

    options: AssessOptions
    record: _Record
    cwd: Path
    harness: Harness
    client_slots: _ClientSlots
    progress: ProgressSink
    stop: threading.Event
    #: Server legs take turns from their server's start to the end of their harness run (each
    #: still overlaps the client legs): two harness runs at once only add a server and a
    #: harness (~200 MB) to the assessment's peak memory. The probes run after the turn is
    #: given up, beside the next server leg: they are seconds of one thread's calls to a
    #: server already up (concurrent-ids' rounds), which would otherwise hold every later
    #: server leg back.
    server_turn: threading.Lock = field(default_factory=threading.Lock)
    #: A server on a fixed port keeps its turn through its probes and its stop: the next
    #: server must find the port free (`would_run.server_turns`).
    hold_turn: bool = False
    #: `--compare-harness`: the other harness each leg is run with again, after the referee.
    compare: Comparing | None = None


class _Turn:
    """A server leg's turn: taken on entry, given up by `release()` or on exit, once."""

    def __init__(self, lock: threading.Lock) -> None:
        self._lock = lock
        self._held = False

    def __enter__(self) -> _Turn:
        self._lock.acquire()
        self._held = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        """Let the next server leg start (idempotent)."""
        if self._held:
            self._held = False
            self._lock.release()


def _client_command(
    command: str, config: RevisionConfig, client_slots: _ClientSlots
) -> tuple[str, int]:
    """(`command` as the harness should run it, harness per-scenario timeout in ms)."""
    if client_slots.script is None:
        return command, int(config.client_timeout * 1000)
    wrapped = slots.wrap_client_command(
        command,
        script=client_slots.script,
        slots=client_slots.slots,
        timeout_s=config.client_timeout,
    )
    timeout_ms = slots.harness_timeout_ms(
        scenario_timeout_s=config.client_timeout,
        queued_clients=client_slots.queued,
        slots=client_slots.floor,
    )
    return wrapped, timeout_ms


@contextmanager
def _warm_clients(ctx: _LegContext, config: RevisionConfig, revision: str) -> Iterator[str]:
    """The client command for the leg: through a warm zygote when the command is a plain
    Python script run (`conformance.warm`), with a compile cache prepared for the leg when it
    runs on Node 22.1+ (`conformance.node_warm`), else as configured; as configured too with
    `--cold-clients`."""
    command = config.client_command or ""
    if ctx.options.settings.cold_clients:
        yield command
        return
    plan = warm.warm_plan(command)
    if plan is not None:
        with _python_warm(ctx, config, revision, plan) as client:
            yield client
        return
    node = node_warm.node_plan(command)
    if node is not None:
        with _node_warm(ctx, config, revision, node) as client:
            yield client
        return
    yield command


def _warm_log(ctx: _LegContext, revision: str) -> Path:
    log = ctx.options.out_dir / "logs" / f"client-warm-{revision}.log"
    ctx.record.logs[f"client-warm-{revision}"] = str(log)
    return log


@contextmanager
def _python_warm(
    ctx: _LegContext, config: RevisionConfig, revision: str, plan: warm.WarmPlan
) -> Iterator[str]:
    log = _warm_log(ctx, revision)
    env = process.sdk_environment(config.env, allow=config.pass_env)
    with warm.zygote(plan, cwd=ctx.cwd, env=env, log_path=log) as socket_path:
        if socket_path is None:
            ctx.progress.warn(f"client {revision}: warm start unavailable, clients start cold")
            yield config.client_command or ""
            return
        script = ctx.client_slots.script
        yield warm.launcher_command(
            plan,
            socket_path=socket_path,
            run_dir=None if script is None else script.parent / admission.RUN_DIR,
        )


@contextmanager
def _node_warm(
    ctx: _LegContext, config: RevisionConfig, revision: str, plan: node_warm.NodePlan
) -> Iterator[str]:
    """The leg's clients with a compile cache of their own, in a folder of the run's output
    that is removed when the leg ends."""
    log = _warm_log(ctx, revision)
    env = process.sdk_environment(config.env, allow=config.pass_env)
    try:
        ctx.options.out_dir.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f".node-cache-{revision}-", dir=ctx.options.out_dir))
    except OSError as exc:
        ctx.progress.warn(
            f"client {revision}: no compile cache folder ({exc.strerror or exc}); "
            "clients start cold"
        )
        yield plan.command
        return
    try:
        prepared = node_warm.prepare(plan, cache_dir=folder, cwd=ctx.cwd, env=env, log_path=log)
        if prepared.cache_dir is None:
            ctx.progress.warn(f"client {revision}: {prepared.note}; clients start cold")
            yield plan.command
            return
        yield node_warm.cached_command(plan, prepared.cache_dir)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _server_task(ctx: _LegContext, plan: RevisionPlan) -> LegVerdict:
    with _Turn(ctx.server_turn) as turn:
        if ctx.stop.is_set():
            return unmeasured_leg("server", plan.revision, "interrupted")
        return _server_leg(ctx, plan, turn)


def _server_leg(ctx: _LegContext, plan: RevisionPlan, turn: _Turn) -> LegVerdict:
    """The server leg of one revision: against `--server-url` as given, else against the SDK's
    server started here (or skipped when nothing says how to start one)."""
    options, config, revision = ctx.options, plan.config, plan.revision
    if options.server_url is not None:
        return _given_server_leg(ctx, plan, options.server_url)
    skip = unconfigured(config, "server", server_url=options.server_url)
    if skip is not None or not config.server_command or not config.server_url:
        return skipped_leg("server", revision, skip or "no server command/url configured")
    return _started_server_leg(ctx, plan, turn, config.server_command, config.server_url)


def _given_server_leg(ctx: _LegContext, plan: RevisionPlan, url: str) -> LegVerdict:
    """The leg against a server someone else runs (`--server-url`): nothing started or watched."""
    raw = ctx.options.out_dir / "raw" / plan.revision / "server"
    ctx.record.server_urls[plan.revision] = url
    with _watching(ctx.progress, plan, "server", raw):
        run = run_server_leg(
            ctx.harness, url=url, revision=plan.revision, results_dir=raw, cwd=ctx.cwd
        )
    _compare_server(ctx, plan, url)
    return _scored(ctx.record, run, plan, ctx.stop, ctx.progress)


def _started_server_leg(
    ctx: _LegContext, plan: RevisionPlan, turn: _Turn, command: str, url: str
) -> LegVerdict:
    """Start the SDK's server, run the leg against it while watching that it answers, then the
    advisory probes; a server that could not start or died is an unmeasured leg with its reason."""
    from tiercheck.sdk.server import managed_server

    record, progress, stop = ctx.record, ctx.progress, ctx.stop
    config, revision = plan.config, plan.revision
    raw = ctx.options.out_dir / "raw" / revision / "server"
    log = ctx.options.out_dir / "logs" / f"server-{revision}.log"
    record.logs[f"server-{revision}"] = str(log)
    began = time.monotonic()
    progress.step(f"server {revision}", command)
    try:
        with managed_server(
            command,
            url,
            cwd=ctx.cwd,
            env=config.env,
            log_path=log,
            ready_timeout_s=config.ready_timeout,
            allow_env=config.pass_env,
        ) as server:
            record.server_urls[revision] = server.url
            progress.done(
                f"server {revision}", f"ready at {server.url} in {server.ready_after_s:.1f} s"
            )
            if stop.is_set():
                return unmeasured_leg("server", revision, "interrupted")
            progress.step(f"server leg {revision}")
            watch = LivenessWatch(raw, "server", lambda: _answers(server))
            with _watching(progress, plan, "server", raw), watch:
                run = run_server_leg(
                    ctx.harness,
                    url=server.url,
                    revision=revision,
                    results_dir=raw,
                    cwd=ctx.cwd,
                    env=config.env,
                    allow_env=config.pass_env,
                    timeout_s=SERVER_LEG_TIMEOUT_S,
                )
            lost = _server_lost(ctx, plan, server, raw)
            if lost is not None:
                return lost
            liveness = watch.liveness
            if liveness.end is None or liveness.end.ok:
                _compare_server(ctx, plan, server.url)
            if liveness.end is not None and not liveness.end.ok:
                # Every scenario passed (or failed while it still answered), but it is not
                # answering now: the advisory probes would only measure that.
                progress.warn(f"{revision}: the server stopped answering at the end of its leg")
                progress.warn(f"{revision}: probes not run: {liveness.end.detail}")
            else:
                if not ctx.hold_turn:
                    turn.release()
                _run_probes(ctx, plan, server.url)
    except TiercheckError as exc:
        return _server_not_run(ctx, plan, exc, raw)
    finally:
        record.timings[f"server {revision}"] = elapsed(began)
    return _scored(record, run, plan, stop, progress, liveness=liveness)


def _compare_server(ctx: _LegContext, plan: RevisionPlan, url: str) -> None:
    """With `--compare-harness`: the server leg again with the other harness, against the same
    server, into its own folder (recorded, never scored)."""
    compare, revision = ctx.compare, plan.revision
    if compare is None or ctx.stop.is_set():
        return
    way = compare.ways.get(revision)
    if way is None:
        return
    config = plan.config
    name = f"compare server {revision}"
    ctx.progress.step(name, f"harness {compare.harness.version}")
    began = time.monotonic()
    try:
        run = run_server_leg(
            compare.harness,
            url=url,
            revision=revision,
            results_dir=compare_dir(ctx.options.out_dir, revision, "server"),
            cwd=ctx.cwd,
            env=config.env,
            allow_env=config.pass_env,
            timeout_s=SERVER_LEG_TIMEOUT_S,
            way=way,
        )
    except TiercheckError as exc:
        ctx.record.compared[(revision, "server")] = exc.message
        ctx.progress.warn(f"{name}: {exc.message.splitlines()[0]}")
        return
    ctx.record.compared[(revision, "server")] = run
    ctx.record.timings[name] = elapsed(began)
    ctx.progress.done(name, f"exit {run.returncode} ({run.duration_s:.1f} s)")


def _compare_client(ctx: _LegContext, plan: RevisionPlan, command: str, timeout_ms: int) -> None:
    """With `--compare-harness`: the client leg again with the other harness, with the same
    client command, into its own folder (recorded, never scored)."""
    compare, revision = ctx.compare, plan.revision
    if compare is None or ctx.stop.is_set():
        return
    way = compare.ways.get(revision)
    if way is None:
        return
    config = plan.config
    name = f"compare client {revision}"
    ctx.progress.step(name, f"harness {compare.harness.version}")
    began = time.monotonic()
    try:
        run = run_client_leg(
            compare.harness,
            command=command,
            revision=revision,
            results_dir=compare_dir(ctx.options.out_dir, revision, "client"),
            cwd=ctx.cwd,
            env=config.env,
            allow_env=config.pass_env,
            timeout_s=CLIENT_LEG_TIMEOUT_S,
            scenario_timeout_ms=timeout_ms,
            way=way,
        )
    except TiercheckError as exc:
        ctx.record.compared[(revision, "client")] = exc.message
        ctx.progress.warn(f"{name}: {exc.message.splitlines()[0]}")
        return
    ctx.record.compared[(revision, "client")] = run
    ctx.record.timings[name] = elapsed(began)
    ctx.progress.done(name, f"exit {run.returncode} ({run.duration_s:.1f} s)")


def _server_lost(
    ctx: _LegContext, plan: RevisionPlan, server: ManagedServer, raw: Path
) -> LegVerdict | None:
    """The unmeasured leg when the leg's verdicts are not the server's answers: our own teardown
    stopped it, or it died during the leg. None when the leg stands."""
    revision = plan.revision
    if ctx.stop.is_set():
        # Our own teardown stopped the server (Ctrl-C, SIGTERM): not the server's fate.
        return unmeasured_leg("server", revision, "interrupted before the leg finished")
    # A server that died during its leg answered none of the scenarios after its death: their
    # failures are not the SDK's answers, so the leg is unmeasured.
    fate = server.fate()
    if fate is None:
        return None
    ctx.record.unmeasured.append(Unmeasured(f"server leg {revision}", fate))
    ctx.progress.warn(f"{revision}: {fate.splitlines()[0]}")
    ctx.progress.done(f"server leg {revision}", f"unmeasured: {fate.splitlines()[0]}")
    return unmeasured_leg("server", revision, fate, results_dir=raw)


def _server_not_run(
    ctx: _LegContext, plan: RevisionPlan, exc: TiercheckError, raw: Path
) -> LegVerdict:
    """The unmeasured leg when the server did not start or the harness refused the leg."""
    # Only a start-up failure is the server's; the harness refusing its folder is not.
    ready = isinstance(exc, ServerStartError)
    reason = f"the server did not become ready: {exc.message}" if ready else exc.message
    if ctx.stop.is_set():
        # Our own teardown stopped it (Ctrl-C while it started): not the server's failure.
        reason = f"interrupted before the leg ran ({reason})"
    ctx.record.unmeasured.append(Unmeasured(f"server leg {plan.revision}", reason))
    ctx.progress.warn(f"{plan.revision}: {exc.message.splitlines()[0]}")
    return unmeasured_leg("server", plan.revision, reason, results_dir=raw)


def _answers(server: ManagedServer) -> tuple[bool, str]:
    answer = server.answers()
    return answer.ok, answer.detail


def _run_probes(ctx: _LegContext, plan: RevisionPlan, url: str) -> None:
    """The advisory probes, while the server is still up; they never touch the leg's verdict."""
    from tiercheck.probes import run_probes

    names = ctx.options.settings.probes
    if names == () or ctx.stop.is_set():
        return
    began = time.monotonic()
    ctx.progress.step(f"probes {plan.revision}")
    try:
        report = run_probes(url, plan.revision, names)
    except ValueError as exc:  # a configured URL that is not loopback http
        ctx.progress.warn(f"probes {plan.revision}: {exc}")
        return
    ctx.record.probes[plan.revision] = report
    ctx.record.timings[f"probes {plan.revision}"] = elapsed(began)
    counts = Counter(r.outcome for r in report.results)
    ctx.progress.done(
        f"probes {plan.revision}", ", ".join(f"{n} {o}" for o, n in sorted(counts.items()))
    )


def _scored(
    record: _Record,
    run: LegRun,
    plan: RevisionPlan,
    stop: threading.Event,
    progress: ProgressSink,
    *,
    liveness: Liveness | None = None,
) -> LegVerdict:
    if stop.is_set():
        reason = "interrupted before the leg finished"
        return unmeasured_leg(run.leg, run.revision, reason, results_dir=run.results_dir)
    verdict = score_leg_run(run, plan.requirements)
    if liveness is not None:
        verdict = judge_liveness(verdict, liveness)
    # After liveness: failures while the server was down are not a missing fixture.
    verdict = diagnose(verdict)
    note = missing_note(verdict)
    if note is not None:
        progress.warn(f"server leg {run.revision}: {note}")
    if verdict.state == "unmeasured":
        what = f"{run.leg} leg {run.revision}"
        record.unmeasured.append(Unmeasured(what, verdict.reason or "unknown"))
    progress.done(
        f"{run.leg} leg {run.revision}",
        f"{verdict.passed}/{verdict.total} scored passed ({run.duration_s:.1f} s)"
        if verdict.state == "measured"
        else f"unmeasured: {(verdict.reason or '').splitlines()[0]}",
        # The mark follows the verdict: ✓ only when every scored scenario passed.
        ok=verdict.state == "measured" and verdict.status == "pass",
    )
    return verdict


def _client_task(ctx: _LegContext, plan: RevisionPlan) -> LegVerdict:
    options, record, cwd, harness = ctx.options, ctx.record, ctx.cwd, ctx.harness
    progress, stop, client_slots = ctx.progress, ctx.stop, ctx.client_slots
    config, revision = plan.config, plan.revision
    skip = unconfigured(config, "client")
    if skip is not None or not config.client_command:
        return skipped_leg("client", revision, skip or "no client command configured")
    if stop.is_set():
        return unmeasured_leg("client", revision, "interrupted")
    raw = options.out_dir / "raw" / revision / "client"
    began = time.monotonic()
    progress.step(f"client leg {revision}", config.client_command)
    with _warm_clients(ctx, config, revision) as client, _watching(progress, plan, "client", raw):
        if stop.is_set():
            # Interrupted while the warm start came up (its zygote stopped with every other
            # child): the harness must not start after the children were stopped.
            return unmeasured_leg("client", revision, "interrupted")
        command, timeout_ms = _client_command(client, config, client_slots)
        run = run_client_leg(
            harness,
            command=command,
            revision=revision,
            results_dir=raw,
            cwd=cwd,
            env=config.env,
            allow_env=config.pass_env,
            timeout_s=CLIENT_LEG_TIMEOUT_S,
            scenario_timeout_ms=timeout_ms,
        )
        record.timings[f"client {revision}"] = elapsed(began)
        # Inside the warm start: the same client command, still served.
        _compare_client(ctx, plan, command, timeout_ms)
    return _scored(record, run, plan, stop, progress)


_Task = Callable[[_LegContext, RevisionPlan], LegVerdict]


def _is_ours(entry: Path) -> bool:
    """Whether a folder of `raw/` is laid out as the legs step writes it: REVISION/LEG/…"""
    if not (entry.is_dir() and is_known_revision(entry.name)):
        return False
    return all(leg.is_dir() and leg.name in LEGS for leg in entry.iterdir())


def _fresh_raw(raw: Path) -> str | None:
    """Empty `raw/` of an earlier run into the same --out, so that this run measures afresh.

    A CI job writing to a fixed folder re-uses --out on every run; the harness must not find
    the old scenarios there (it would refuse, or they would be read as this run's). Only a
    `raw/` laid out as tiercheck writes it is removed; anything else is never deleted, and the
    reason is returned instead (every leg is then unmeasured with it).
    """
    if not raw.exists():
        return None
    if not raw.is_dir():
        return f"{raw} is not a directory; choose another --out"
    strangers = sorted(e.name for e in raw.iterdir() if not _is_ours(e))
    if strangers:
        return (
            f"{raw} holds files tiercheck did not write ({', '.join(strangers[:3])}); "
            "choose another --out"
        )
    try:
        shutil.rmtree(raw)
    except OSError as exc:
        return f"cannot clear the earlier results in {raw}: {exc.strerror or exc}"
    return None


def run_legs(  # noqa: PLR0917 - the step's inputs, and the harness compared
    options: AssessOptions,
    revisions: Sequence[RevisionPlan],
    cwd: Path,
    harness: Harness,
    progress: ProgressSink,
    compare: Comparing | None = None,
) -> LegsResult:
    """Run every leg of every revision in `cwd`; overlapped unless `options.settings.sequential`.
    With `compare` (`--compare-harness`), each leg the referee measured is run again with that
    harness after the referee's run."""
    refused = _fresh_raw(options.out_dir / "raw")
    if refused is None:
        refused = _fresh_raw(options.out_dir / CONFIRM_DIR)
    if refused is None and compare is not None:
        refused = _fresh_raw(options.out_dir / COMPARE_DIR)
    if refused is not None:
        progress.warn(refused)
        return LegsResult(
            verdicts={
                (p.revision, leg): unmeasured_leg(leg, p.revision, refused)
                for p in revisions
                for leg in LEGS
            },
            unmeasured=(Unmeasured("legs", refused),),
        )
    concurrency = options.settings.concurrency
    if options.settings.budget_dir is not None:
        # Slots shared with the other rows of a matrix: one client per slot machine-wide, and
        # a client may queue behind every sharer's clients.
        slot_dir = options.settings.budget_dir / "clients"
    else:
        slot_dir = options.settings.cache_dir / "slots" / f"{os.getpid()}-{time.monotonic_ns()}"
    script = slots.prepare_slots(slot_dir) if concurrency != 0 else None
    queued = sum(len(p.requirements.expected("client")) for p in revisions)
    if options.settings.budget_dir is not None:
        queued *= slots.sharers(slot_dir)
    cap = concurrency or None  # None: no cap; the measured limit alone
    policy = admission.Policy(
        cores=default_concurrency(), floor=min(default_concurrency(), cap or queued), cap=cap
    )
    client_slots = _ClientSlots(script, cap or max(1, queued), queued, max(1, policy.floor))
    # A cap no higher than the floor leaves nothing to measure: the limit is the cap.
    measured = script is not None and (cap is None or cap > policy.floor)
    admitting: contextlib.AbstractContextManager[object] = (
        admission.Admission(slot_dir, policy) if measured else contextlib.nullcontext()
    )
    try:
        with admitting:
            ran = _run_tasks(options, revisions, cwd, harness, progress, client_slots, compare)
    finally:
        if options.settings.budget_dir is None:  # a shared directory belongs to the matrix
            shutil.rmtree(slot_dir, ignore_errors=True)
    if ran.interrupted:
        return ran
    return _confirmed(options, revisions, cwd, harness, progress, ran)


def _confirmed(  # noqa: PLR0917 - run_legs's arguments and what the legs measured
    options: AssessOptions,
    revisions: Sequence[RevisionPlan],
    cwd: Path,
    harness: Harness,
    progress: ProgressSink,
    ran: LegsResult,
) -> LegsResult:
    """`ran` with each failure measured beside other work confirmed by a run by itself, now
    that no leg runs (`confirm`). Ctrl-C stops it: the failures are then left unconfirmed, as
    measured, and the run is interrupted."""
    began = time.monotonic()
    try:
        confirmed = confirm_failures(options, revisions, cwd, harness, progress, ran.verdicts)
    except KeyboardInterrupt:
        process.kill_all_children(term_grace_s=2.0)
        stopped = Unmeasured("confirming failures", "interrupted")
        return replace(ran, interrupted=True, unmeasured=(*ran.unmeasured, stopped))
    timings = dict(ran.timings)
    if confirmed.rerun:
        timings["confirm"] = elapsed(began)
    return replace(
        ran,
        verdicts=confirmed.verdicts,
        logs={**ran.logs, **confirmed.logs},
        timings=timings,
        rerun=confirmed.rerun,
        rerun_s=confirmed.duration_s,
    )


def _run_tasks(  # noqa: PLR0917 - run_legs's arguments and its client slots
    options: AssessOptions,
    revisions: Sequence[RevisionPlan],
    cwd: Path,
    harness: Harness,
    progress: ProgressSink,
    client_slots: _ClientSlots,
    compare: Comparing | None,
) -> LegsResult:
    stop = threading.Event()
    record = _Record()
    one_at_a_time = server_turns([p.config for p in revisions], server_url=options.server_url)
    if one_at_a_time is not None:
        progress.done("server legs", one_at_a_time)
    ctx = _LegContext(
        options,
        record,
        cwd,
        harness,
        client_slots,
        progress,
        stop,
        hold_turn=one_at_a_time is not None,
        compare=compare,
    )
    tasks: list[tuple[str, Leg, _Task, RevisionPlan]] = []
    for plan in revisions:
        tasks.append((plan.revision, "server", _server_task, plan))
        tasks.append((plan.revision, "client", _client_task, plan))
    began = time.monotonic()
    workers = 1 if options.settings.sequential else len(tasks)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="leg")
    futures: list[tuple[str, Leg, Future[LegVerdict]]] = [
        (revision, leg, pool.submit(task, ctx, plan)) for revision, leg, task, plan in tasks
    ]
    verdicts: dict[tuple[str, Leg], LegVerdict] = {}
    interrupted = False
    try:
        for revision, leg, future in futures:
            verdicts[(revision, leg)] = _result_of(future, leg, revision)
    except KeyboardInterrupt:
        # Stop every child (servers, harness runs and the clients they started); the worker
        # threads then return promptly and the legs they were on are marked interrupted.
        interrupted = True
        stop.set()
        for _, _, future in futures:
            future.cancel()
        process.kill_all_children(term_grace_s=2.0)
        pool.shutdown(wait=True, cancel_futures=True)
        for revision, leg, future in futures:
            if (revision, leg) in verdicts:
                continue
            if future.done() and not future.cancelled() and future.exception() is None:
                verdicts[(revision, leg)] = future.result()
            verdicts.setdefault(
                (revision, leg), unmeasured_leg(leg, revision, "interrupted before it finished")
            )
        record.unmeasured.append(Unmeasured("assessment", "interrupted"))
    finally:
        pool.shutdown(wait=True)
        record.timings["legs"] = elapsed(began)
    return LegsResult(
        verdicts=verdicts,
        server_urls=dict(record.server_urls),
        logs=dict(record.logs),
        unmeasured=tuple(record.unmeasured),
        timings=dict(record.timings),
        interrupted=interrupted,
        probes=dict(record.probes),
        compared=dict(record.compared),
    )


def _result_of(future: Future[LegVerdict], leg: Leg, revision: str) -> LegVerdict:
    try:
        return future.result()
    except TiercheckError as exc:
        return unmeasured_leg(leg, revision, exc.message)
    except Exception as exc:  # noqa: BLE001 - one leg's bug must not lose the other legs
        return unmeasured_leg(leg, revision, f"internal error: {type(exc).__name__}: {exc}")
