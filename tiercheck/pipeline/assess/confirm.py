"""Step 5, after the legs: each failure measured beside other work is run again by itself.

The legs overlap (server legs beside client legs, a leg's client scenarios beside each other),
so a scenario may fail for the machine's load rather than the SDK's answer. Before such a failure
counts, the scenario is run again by the harness alone, once, with nothing else of tiercheck
running: one scenario after another, each revision's server started again for its own. What
that decides is `scoring.confirm_failure`'s rule; this step only runs the harness and reads
what it wrote. A server leg run with `--sequential` ran each scenario by itself already: its
failures stand as measured.

The runs go to `confirm/REVISION/LEG/SCENARIO/` beside `raw/`, the restarted server's output to
`logs/server-REVISION-confirm.log`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tiercheck.conformance.harness import Harness
from tiercheck.conformance.legs import LegRun, run_client_leg, run_server_leg
from tiercheck.conformance.results import parse_results
from tiercheck.errors import ServerStartError, TiercheckError
from tiercheck.pipeline.assess.base import AssessOptions, ProgressSink, elapsed
from tiercheck.pipeline.assess.plan import RevisionPlan
from tiercheck.revisions import LEGS, Leg
from tiercheck.scoring import (
    LegVerdict,
    ScenarioVerdict,
    confirm_failure,
    judge_scenario,
    to_confirm,
    with_confirmations,
)

__all__ = ["CONFIRM_DIR", "Confirmed", "confirm_dir", "confirm_failures"]

#: Where the runs by themselves are written, beside `raw/`.
CONFIRM_DIR = "confirm"
#: One server scenario by itself is killed past this (the harness times each out at 30 s).
SERVER_SCENARIO_TIMEOUT_S = 120.0
#: Beyond a client scenario's own timeout, what the harness may take to start and finish.
CLIENT_SLACK_S = 60.0
#: A leg with more failures than this is not run again: so many fail for the SDK (a revision
#: it does not speak, a client that never connects), not for the work beside them, and running
#: each again would double the leg's time. They stand as failures, each saying why.
MOST_PER_LEG = 8


@dataclass(frozen=True)
class Confirmed:
    """The legs with their failures confirmed, and what confirming them cost."""

    verdicts: Mapping[tuple[str, Leg], LegVerdict]
    #: Scenarios run again by themselves.
    rerun: int = 0
    #: Wall seconds the runs by themselves took, the servers' starts again included.
    duration_s: float = 0.0
    logs: Mapping[str, str] = field(default_factory=dict)


def confirm_dir(out_dir: Path, revision: str, leg: Leg, scenario: str) -> Path:
    """The folder of one scenario's run by itself (a scenario's `/` becomes `__`)."""
    return out_dir / CONFIRM_DIR / revision / leg / scenario.replace("/", "__")


def _ran_by_itself(options: AssessOptions, leg: Leg) -> bool:
    """Whether a leg's scenarios already ran with nothing of tiercheck beside them: a server
    leg with `--sequential` (its harness runs one scenario after another, no other leg runs)."""
    return options.settings.sequential and leg == "server"


@dataclass(frozen=True)
class _Where:
    """What one leg's runs by themselves share."""

    options: AssessOptions
    plan: RevisionPlan
    cwd: Path
    harness: Harness
    progress: ProgressSink


_RunOne = Callable[[str, Path], LegRun]


def _judged(run: LegRun, name: str, revision: str) -> tuple[ScenarioVerdict | None, str | None]:
    """The verdict of the one scenario a run by itself wrote, or None with why there is none."""
    if run.timed_out:
        return None, f"the harness was killed after {run.duration_s:.0f} s"
    result = next((r for r in parse_results(run.results_dir, run.leg) if r.name == name), None)
    if result is None:
        return None, f"the harness exited {run.returncode} without writing {name}'s results"
    return judge_scenario(name, revision, result, harness_exit=run.returncode), None


def _confirm_each(
    where: _Where,
    leg: Leg,
    failures: Sequence[ScenarioVerdict],
    run_one: _RunOne,
    *,
    lost: Callable[[], str | None] = lambda: None,
    started_s: float = 0.0,
) -> list[ScenarioVerdict]:
    """Run each of `failures` by itself with `run_one`, one after another, and judge it.
    `lost` says why the server no longer answers (its verdicts are then no answers), and
    `started_s`, the server's start again, is shared evenly by the scenarios."""
    revision, progress = where.plan.revision, where.progress
    share = started_s / len(failures) if failures else 0.0
    out = []
    for first in failures:
        name = f"confirm {leg} {revision} {first.scenario}"
        progress.step(name, "by itself")
        folder = confirm_dir(where.options.out_dir, revision, leg, first.scenario)
        began = time.monotonic()
        alone, why = None, None
        try:
            alone, why = _judged(run_one(first.scenario, folder), first.scenario, revision)
        except TiercheckError as exc:
            why = exc.message
        death = lost()
        if death is not None:
            alone, why = None, f"the server stopped: {death.splitlines()[0]}"
        verdict = confirm_failure(first, alone, duration_s=elapsed(began) + share, reason=why)
        out.append(verdict)
        said = {"passed": "flaky: passed by itself", "failed": "failed again by itself"}
        conf = verdict.confirmation
        assert conf is not None  # confirm_failure always records one
        unconfirmed = f"not confirmed: {(conf.reason or 'no result').splitlines()[0]}"
        progress.done(name, said.get(conf.alone, unconfirmed), ok=False)
    return out


def _confirm_client(where: _Where, failures: Sequence[ScenarioVerdict]) -> list[ScenarioVerdict]:
    config = where.plan.config
    command = config.client_command or ""

    def run_one(scenario: str, folder: Path) -> LegRun:
        return run_client_leg(
            where.harness,
            command=command,
            revision=where.plan.revision,
            results_dir=folder,
            cwd=where.cwd,
            env=config.env,
            allow_env=config.pass_env,
            timeout_s=config.client_timeout + CLIENT_SLACK_S,
            scenario_timeout_ms=int(config.client_timeout * 1000),
            scenario=scenario,
        )

    return _confirm_each(where, "client", failures, run_one)


@contextmanager
def _server(where: _Where, logs: dict[str, str]) -> Iterator[tuple[str, Callable[[], str | None]]]:
    """The URL to run server scenarios against, and what says the server was lost: `--server-url`
    as given, else the SDK's server started again for this (ServerStartError if it does not)."""
    options, config, revision = where.options, where.plan.config, where.plan.revision
    if options.server_url is not None:
        yield options.server_url, lambda: None
        return
    from tiercheck.sdk.server import managed_server

    log = options.out_dir / "logs" / f"server-{revision}-confirm.log"
    logs[f"server-{revision}-confirm"] = str(log)
    with managed_server(
        config.server_command or "",
        config.server_url or "",
        cwd=where.cwd,
        env=config.env,
        log_path=log,
        ready_timeout_s=config.ready_timeout,
        allow_env=config.pass_env,
    ) as server:
        yield server.url, server.fate


def _confirm_server(
    where: _Where, failures: Sequence[ScenarioVerdict], logs: dict[str, str]
) -> list[ScenarioVerdict]:
    config, revision = where.plan.config, where.plan.revision
    began = time.monotonic()
    try:
        with _server(where, logs) as (url, lost):

            def run_one(scenario: str, folder: Path) -> LegRun:
                return run_server_leg(
                    where.harness,
                    url=url,
                    revision=revision,
                    results_dir=folder,
                    cwd=where.cwd,
                    env=config.env,
                    allow_env=config.pass_env,
                    timeout_s=SERVER_SCENARIO_TIMEOUT_S,
                    scenario=scenario,
                )

            return _confirm_each(
                where, "server", failures, run_one, lost=lost, started_s=elapsed(began)
            )
    except ServerStartError as exc:
        why = f"the server did not become ready again: {exc.message.splitlines()[0]}"
        where.progress.warn(f"confirm server {revision}: {why}")
        share = elapsed(began) / len(failures)
        return [confirm_failure(f, None, duration_s=share, reason=why) for f in failures]


def confirm_failures(  # noqa: PLR0917 - the legs step's inputs
    options: AssessOptions,
    revisions: Sequence[RevisionPlan],
    cwd: Path,
    harness: Harness,
    progress: ProgressSink,
    verdicts: Mapping[tuple[str, Leg], LegVerdict],
) -> Confirmed:
    """Every failure the legs measured beside other work, run again by itself and judged by
    `scoring.confirm_failure`; nothing else of tiercheck runs meanwhile (the caller runs this
    once every leg has finished). Legs without such a failure are returned as they were."""
    todo = {
        (plan.revision, leg): (plan, to_confirm(verdicts[(plan.revision, leg)]))
        for plan in revisions
        for leg in LEGS
        if (plan.revision, leg) in verdicts and not _ran_by_itself(options, leg)
    }
    out = dict(verdicts)
    for (revision, leg), (_, failures) in list(todo.items()):
        if len(failures) > MOST_PER_LEG:
            why = (
                f"not run again: {len(failures)} failures in the {leg} leg at {revision}, more "
                f"than {MOST_PER_LEG}; a leg failing that widely fails for the SDK"
            )
            progress.warn(f"confirm {leg} {revision}: {why}")
            kept = [confirm_failure(f, None, duration_s=0.0, reason=why) for f in failures]
            out[(revision, leg)] = with_confirmations(out[(revision, leg)], kept)
            del todo[(revision, leg)]
    count = sum(len(failures) for _, failures in todo.values())
    if count == 0:
        return Confirmed(out)
    began = time.monotonic()
    progress.step("confirm", f"{count} failure(s) run again by itself")
    logs: dict[str, str] = {}
    for (revision, leg), (plan, failures) in todo.items():
        if not failures:
            continue
        where = _Where(options, plan, cwd, harness, progress)
        confirmed = (
            _confirm_server(where, failures, logs)
            if leg == "server"
            else _confirm_client(where, failures)
        )
        out[(revision, leg)] = with_confirmations(out[(revision, leg)], confirmed)
    duration = elapsed(began)
    flaky = sum(d.flaky for v in out.values() for d in v.details)
    progress.done("confirm", f"{count} run again by itself in {duration:.1f} s, {flaky} flaky")
    return Confirmed(out, rerun=count, duration_s=duration, logs=logs)
