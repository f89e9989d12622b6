"""The ordered steps of one assessment.

resolve → checkout → provision harness → build (cached by commit) → per revision, overlapped:
{server on a free port → server leg → stop} and {client leg, slot-limited} → score → merge →
baseline → governance → tier → scorecard document.

Nothing here prints or parses YAML: progress goes through the `Progress` the CLI hands in, and
every failure to measure becomes an "unmeasured" entry with its reason, so a scorecard is
always produced. Ctrl-C (or SIGTERM) stops every child, marks what was not measured as
interrupted, and still returns the scorecard.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from tiercheck import __version__, process
from tiercheck.config.requirements import RequirementSet, load_requirement_set
from tiercheck.config.resolve import RevisionConfig, resolve
from tiercheck.conformance import slots
from tiercheck.conformance.harness import PACKAGE, PINNED_VERSION, Harness, provision
from tiercheck.conformance.legs import LegRun, run_client_leg, run_server_leg, score_leg_run
from tiercheck.errors import TiercheckError, ToolMissingError, UsageError
from tiercheck.revisions import KNOWN_REVISIONS, LEGS, Leg, is_known_revision, unknown_revision
from tiercheck.scoring import LegVerdict, skipped_leg, unmeasured_leg
from tiercheck.target import Target

__all__ = [
    "AssessOptions",
    "ConformanceOutcome",
    "ProgressSink",
    "RevisionPlan",
    "plan_revisions",
    "run_conformance",
]

#: Leg timeouts: the harness is killed (and the leg reported unmeasured) past these.
SERVER_LEG_TIMEOUT_S = 600.0
CLIENT_LEG_TIMEOUT_S = 1200.0


class ProgressSink(Protocol):
    """What the pipeline tells the person watching (implemented by `report.progress`)."""

    def step(self, name: str, detail: str = "") -> None:
        """A step started."""

    def done(self, name: str, detail: str = "") -> None:
        """A step finished."""

    def warn(self, text: str) -> None:
        """Something went wrong but the assessment goes on."""

    def leg_progress(self, revision: str, leg: str, done: int, total: int) -> None:
        """Scenarios finished so far in a running leg."""


@dataclass(frozen=True)
class AssessOptions:
    """Everything the conformance half of an assessment needs, resolved by the CLI."""

    target: Target
    cache_dir: Path
    out_dir: Path
    flags: Mapping[str, Any] = field(default_factory=dict)
    environ: Mapping[str, str] = field(default_factory=dict)
    revisions: tuple[str, ...] | None = None
    #: URL mode: an already running server (no checkout, no build, no managed server).
    server_url: str | None = None
    git_url: str | None = None
    rebuild: bool = False
    skip_build: bool = False
    harness_version: str = PINNED_VERSION
    #: Client processes at once across the whole assessment; 0 means unbounded (the harness's
    #: own behaviour).
    concurrency: int = 0
    sequential: bool = False


@dataclass(frozen=True)
class RevisionPlan:
    """One revision to measure: its resolved configuration and requirement set."""

    revision: str
    config: RevisionConfig
    requirements: RequirementSet


@dataclass
class ConformanceOutcome:
    """What the conformance half measured (mutable while the legs run, then read-only)."""

    plans: list[RevisionPlan]
    legs: dict[tuple[str, Leg], LegVerdict] = field(default_factory=dict)
    server_urls: dict[str, str] = field(default_factory=dict)
    commit: str | None = None
    branch: str | None = None
    checkout_path: Path | None = None
    origin: str = "clone"
    harness: Harness | None = None
    build: dict[str, Any] | None = None
    unmeasured: list[dict[str, str]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    logs: dict[str, str] = field(default_factory=dict)
    interrupted: bool = False

    def leg(self, revision: str, leg: Leg) -> LegVerdict:
        """The verdict of one leg at one revision (unmeasured if it never ran)."""
        found = self.legs.get((revision, leg))
        if found is not None:
            return found
        return unmeasured_leg(leg, revision, "not run")


def default_concurrency() -> int:
    """Client processes at once: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def plan_revisions(options: AssessOptions) -> list[RevisionPlan]:
    """Resolve each revision's configuration and requirement set (bad input raises here)."""
    entry = options.target.entry
    claimed = entry.revisions if entry else KNOWN_REVISIONS
    wanted = options.revisions or claimed
    for revision in wanted:
        if not is_known_revision(revision):
            raise UsageError(f"--revision: {unknown_revision(revision)}")
        if revision not in claimed:
            msg = (
                f"--revision: {options.target.name} claims only {', '.join(claimed)}; "
                f"it is not assessed at {revision}"
            )
            raise UsageError(msg)
    plans = []
    for revision in wanted:
        config = resolve(entry, revision, environ=options.environ, flags=options.flags)
        plans.append(RevisionPlan(revision, config, load_requirement_set(revision)))
    return plans


@contextmanager
def _watching(
    progress: ProgressSink, plan: RevisionPlan, leg: Leg, results_dir: Path
) -> Iterator[None]:
    """Report scenarios finished (each writes one checks.json) while a leg runs."""
    total = len(plan.requirements.expected(leg))
    finished = threading.Event()

    def watch() -> None:
        seen = -1
        while not finished.wait(0.5):
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


def _timed(outcome: ConformanceOutcome, name: str, began: float) -> None:
    outcome.timings[name] = round(time.monotonic() - began, 3)


def _unmeasure_all(outcome: ConformanceOutcome, reason: str, what: str) -> None:
    """Every leg not measured yet becomes unmeasured with `reason`."""
    outcome.unmeasured.append({"what": what, "reason": reason})
    for plan in outcome.plans:
        for leg in LEGS:
            outcome.legs.setdefault(
                (plan.revision, leg), unmeasured_leg(leg, plan.revision, reason)
            )


def _checkout(options: AssessOptions, outcome: ConformanceOutcome, progress: ProgressSink) -> Path:
    from tiercheck.sdk.checkout import checkout, describe_local

    target = options.target
    began = time.monotonic()
    if target.path is not None:
        local = describe_local(target.path)
        outcome.origin = "path"
        outcome.commit, outcome.branch = local.commit_sha, local.branch or target.ref
        progress.done("checkout", f"{target.path} at {local.short_sha or 'no git commit'}")
        _timed(outcome, "checkout", began)
        return target.path
    progress.step("checkout", f"{target.repo}@{target.ref or 'default branch'}")
    cloned = checkout(
        target.repo, target.ref, cache_dir=options.cache_dir / "repos", git_url=options.git_url
    )
    outcome.commit, outcome.branch = cloned.commit_sha, target.ref
    progress.done("checkout", f"{target.repo}@{target.ref} is {cloned.short_sha}")
    _timed(outcome, "checkout", began)
    return cloned.path


def _build(
    options: AssessOptions, outcome: ConformanceOutcome, checkout_path: Path, progress: ProgressSink
) -> bool:
    """Build once per distinct (command, env); False when a build failed (legs unmeasured)."""
    from tiercheck.sdk.build import build

    began = time.monotonic()
    seen: dict[tuple[str | None, tuple[tuple[str, str], ...]], bool] = {}
    ok = True
    for plan in outcome.plans:
        config = plan.config
        key = (config.build, tuple(sorted(config.env.items())))
        if key in seen:
            continue
        log = options.out_dir / "logs" / (f"build-{plan.revision}.log" if seen else "build.log")
        if config.build and not options.skip_build:
            progress.step("build", config.build)
        result = build(
            checkout_path,
            config.build,
            config.env,
            log_path=log,
            cache_dir=options.cache_dir,
            commit_sha=outcome.commit,
            force=options.rebuild,
            skip=options.skip_build,
            allow_env=config.pass_env,
        )
        seen[key] = result.ok
        outcome.build = {
            "state": result.state,
            "reason": result.reason or None,
            "log": str(result.log_path) if result.log_path and result.log_path.exists() else None,
            "duration_s": round(result.duration_s, 3),
        }
        if outcome.build["log"]:
            outcome.logs["build"] = outcome.build["log"]
        if result.ok:
            progress.done("build", f"{result.state} ({result.duration_s:.1f} s)")
        else:
            ok = False
            progress.warn(f"build failed: {result.reason.splitlines()[0] if result.reason else ''}")
            reason = f"the build failed: {result.reason}"
            _unmeasure_all(outcome, reason, "build")
    _timed(outcome, "build", began)
    return ok


@dataclass(frozen=True)
class _ClientSlots:
    script: Path | None
    slots: int
    queued: int


@dataclass(frozen=True)
class _LegContext:
    """What every leg task of one assessment shares."""

    options: AssessOptions
    outcome: ConformanceOutcome
    cwd: Path
    harness: Harness
    client_slots: _ClientSlots
    progress: ProgressSink
    stop: threading.Event
    #: Server legs take turns (each still overlaps the client legs): a server leg is a few
    #: seconds of one server and one harness, and two at once only add a server and a harness
    #: (~200 MB) to the assessment's peak memory, with no gain in wall time while the client
    #: legs keep every core busy.
    server_turn: threading.Lock = field(default_factory=threading.Lock)


def _client_command(config: RevisionConfig, client_slots: _ClientSlots) -> tuple[str, int]:
    """(command for the harness, harness per-scenario timeout in ms)."""
    command = config.client_command or ""
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
        slots=client_slots.slots,
    )
    return wrapped, timeout_ms


def _server_task(ctx: _LegContext, plan: RevisionPlan) -> LegVerdict:
    with ctx.server_turn:
        if ctx.stop.is_set():
            return unmeasured_leg("server", plan.revision, "interrupted")
        return _server_leg(ctx, plan)


def _server_leg(ctx: _LegContext, plan: RevisionPlan) -> LegVerdict:
    from tiercheck.sdk.server import managed_server

    options, outcome, cwd, harness = ctx.options, ctx.outcome, ctx.cwd, ctx.harness
    progress, stop = ctx.progress, ctx.stop
    config, revision = plan.config, plan.revision
    raw = options.out_dir / "raw" / revision / "server"
    if options.server_url is not None:
        outcome.server_urls[revision] = options.server_url
        with _watching(progress, plan, "server", raw):
            run = run_server_leg(
                harness, url=options.server_url, revision=revision, results_dir=raw, cwd=cwd
            )
        return _scored(outcome, run, plan, stop, progress)
    if not config.server_command or not config.server_url:
        return skipped_leg("server", revision, "no server command/url configured")
    log = options.out_dir / "logs" / f"server-{revision}.log"
    outcome.logs[f"server-{revision}"] = str(log)
    began = time.monotonic()
    progress.step(f"server {revision}", config.server_command)
    try:
        with managed_server(
            config.server_command,
            config.server_url,
            cwd=cwd,
            env=config.env,
            log_path=log,
            ready_timeout_s=config.ready_timeout,
            allow_env=config.pass_env,
        ) as server:
            outcome.server_urls[revision] = server.url
            progress.done(
                f"server {revision}", f"ready at {server.url} in {server.ready_after_s:.1f} s"
            )
            if stop.is_set():
                return unmeasured_leg("server", revision, "interrupted")
            progress.step(f"server leg {revision}")
            with _watching(progress, plan, "server", raw):
                run = run_server_leg(
                    harness,
                    url=server.url,
                    revision=revision,
                    results_dir=raw,
                    cwd=cwd,
                    env=config.env,
                    allow_env=config.pass_env,
                    timeout_s=SERVER_LEG_TIMEOUT_S,
                )
    except TiercheckError as exc:
        reason = f"the server did not become ready: {exc.message}"
        outcome.unmeasured.append({"what": f"server leg {revision}", "reason": reason})
        progress.warn(f"{revision}: {exc.message.splitlines()[0]}")
        return unmeasured_leg("server", revision, reason, results_dir=raw)
    finally:
        _timed(outcome, f"server {revision}", began)
    return _scored(outcome, run, plan, stop, progress)


def _scored(
    outcome: ConformanceOutcome,
    run: LegRun,
    plan: RevisionPlan,
    stop: threading.Event,
    progress: ProgressSink,
) -> LegVerdict:
    if stop.is_set():
        reason = "interrupted before the leg finished"
        return unmeasured_leg(run.leg, run.revision, reason, results_dir=run.results_dir)
    verdict = score_leg_run(run, plan.requirements)
    if verdict.state == "unmeasured":
        what = f"{run.leg} leg {run.revision}"
        outcome.unmeasured.append({"what": what, "reason": verdict.reason or "unknown"})
    progress.done(
        f"{run.leg} leg {run.revision}",
        f"{verdict.passed}/{verdict.total} scored passed ({run.duration_s:.1f} s)"
        if verdict.state == "measured"
        else f"unmeasured: {(verdict.reason or '').splitlines()[0]}",
    )
    return verdict


def _client_task(ctx: _LegContext, plan: RevisionPlan) -> LegVerdict:
    options, outcome, cwd, harness = ctx.options, ctx.outcome, ctx.cwd, ctx.harness
    progress, stop, client_slots = ctx.progress, ctx.stop, ctx.client_slots
    config, revision = plan.config, plan.revision
    if not config.client_command:
        return skipped_leg("client", revision, "no client command configured")
    if stop.is_set():
        return unmeasured_leg("client", revision, "interrupted")
    raw = options.out_dir / "raw" / revision / "client"
    command, timeout_ms = _client_command(config, client_slots)
    began = time.monotonic()
    progress.step(f"client leg {revision}", config.client_command)
    with _watching(progress, plan, "client", raw):
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
    _timed(outcome, f"client {revision}", began)
    return _scored(outcome, run, plan, stop, progress)


def _run_legs(
    options: AssessOptions,
    outcome: ConformanceOutcome,
    cwd: Path,
    harness: Harness,
    progress: ProgressSink,
) -> None:
    """Run every leg of every revision; overlapped unless `sequential`."""
    concurrency = options.concurrency
    slot_dir = options.cache_dir / "slots" / f"{os.getpid()}-{time.monotonic_ns()}"
    script = slots.prepare_slots(slot_dir) if concurrency > 0 else None
    queued = sum(len(p.requirements.expected("client")) for p in outcome.plans)
    client_slots = _ClientSlots(script, max(1, concurrency), queued)
    stop = threading.Event()
    ctx = _LegContext(options, outcome, cwd, harness, client_slots, progress, stop)
    tasks: list[tuple[str, Leg, Callable[[_LegContext, RevisionPlan], LegVerdict], RevisionPlan]]
    tasks = []
    for plan in outcome.plans:
        tasks.append((plan.revision, "server", _server_task, plan))
        tasks.append((plan.revision, "client", _client_task, plan))
    began = time.monotonic()
    workers = 1 if options.sequential else len(tasks)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="leg")
    futures: list[tuple[str, Leg, Future[LegVerdict]]] = [
        (revision, leg, pool.submit(task, ctx, plan)) for revision, leg, task, plan in tasks
    ]
    try:
        for revision, leg, future in futures:
            outcome.legs[(revision, leg)] = _result_of(future, leg, revision)
    except KeyboardInterrupt:
        # Stop every child (servers, harness runs and the clients they started); the worker
        # threads then return promptly and the legs they were on are marked interrupted.
        outcome.interrupted = True
        stop.set()
        for _, _, future in futures:
            future.cancel()
        process.kill_all_children(term_grace_s=2.0)
        pool.shutdown(wait=True, cancel_futures=True)
        for revision, leg, future in futures:
            if (revision, leg) in outcome.legs:
                continue
            if future.done() and not future.cancelled() and future.exception() is None:
                outcome.legs[(revision, leg)] = future.result()
            outcome.legs.setdefault(
                (revision, leg), unmeasured_leg(leg, revision, "interrupted before it finished")
            )
        outcome.unmeasured.append({"what": "assessment", "reason": "interrupted"})
    finally:
        pool.shutdown(wait=True)
        shutil.rmtree(slot_dir, ignore_errors=True)
        _timed(outcome, "legs", began)


def _result_of(future: Future[LegVerdict], leg: Leg, revision: str) -> LegVerdict:
    try:
        return future.result()
    except TiercheckError as exc:
        return unmeasured_leg(leg, revision, exc.message)
    except Exception as exc:  # noqa: BLE001 - one leg's bug must not lose the other legs
        return unmeasured_leg(leg, revision, f"internal error: {type(exc).__name__}: {exc}")


def run_conformance(options: AssessOptions, progress: ProgressSink) -> ConformanceOutcome:
    """The conformance half: checkout, harness, build, legs. Never raises for a failure to
    measure (those become unmeasured legs); raises only for bad input and a missing npm."""
    outcome = ConformanceOutcome(plans=plan_revisions(options))
    started = time.monotonic()
    try:
        try:
            if options.server_url is not None:
                outcome.origin = "url"
                cwd = Path.cwd()
            else:
                cwd = _checkout(options, outcome, progress)
                outcome.checkout_path = cwd
        except TiercheckError as exc:
            _unmeasure_all(outcome, f"checkout failed: {exc.message}", "checkout")
            return outcome
        began = time.monotonic()
        try:
            harness = provision(
                options.cache_dir,
                version=options.harness_version,
                progress=lambda text: progress.step("harness", text),
            )
        except ToolMissingError:
            raise
        except TiercheckError as exc:
            _unmeasure_all(
                outcome, f"the harness could not be provisioned: {exc.message}", "harness"
            )
            return outcome
        outcome.harness = harness
        progress.done("harness", f"{PACKAGE} {harness.version}, node {harness.node_version}")
        _timed(outcome, "harness", began)
        if options.server_url is None and not _build(options, outcome, cwd, progress):
            return outcome
        _run_legs(options, outcome, cwd, harness, progress)
    except KeyboardInterrupt:
        outcome.interrupted = True
        process.kill_all_children(term_grace_s=2.0)
        _unmeasure_all(outcome, "interrupted before it ran", "assessment")
    finally:
        _timed(outcome, "conformance", started)
    return outcome


def now_utc() -> datetime:
    """The current time, aware, in UTC (the only clock read of an assessment)."""
    return datetime.now(UTC)


def run_id(moment: datetime) -> str:
    """`20261130T071500Z`: sortable, and named before the commit is known (the output folder
    holds the build log), so the scorecard carries the commit instead."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def harness_facts(outcome: ConformanceOutcome, requested: str) -> dict[str, Any]:
    """The harness block of the scorecard (version recorded even when it never ran)."""
    if outcome.harness is None:
        return {"package": PACKAGE, "version": requested, "node_version": None}
    return {
        "package": PACKAGE,
        "version": outcome.harness.version,
        "node_version": outcome.harness.node_version,
    }


def tiercheck_facts(run: str) -> dict[str, Any]:
    """The tiercheck block of the scorecard."""
    return {"version": __version__, "schema_version": 1, "run_id": run}


def leg_verdicts(outcome: ConformanceOutcome, leg: Leg) -> Sequence[LegVerdict]:
    """One leg's verdict at each planned revision, in plan order."""
    return [outcome.leg(plan.revision, leg) for plan in outcome.plans]
