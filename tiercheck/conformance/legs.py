"""Running the harness's two legs against the SDK under test.

The server leg points the harness at the SDK's running server; the client leg makes the harness
start the SDK's client once per scenario. Both run with the SDK checkout as working directory
and the SDK's scrubbed environment: the harness executes the SDK's client, so it must not hold
our secrets either. The harness's own output goes to `harness.log` beside the raw results.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tiercheck import process
from tiercheck.conformance.harness import Harness
from tiercheck.errors import ProcessError
from tiercheck.revisions import Leg, harness_requirements

__all__ = [
    "DEFAULT_LEG_TIMEOUT_S",
    "DEFAULT_SCENARIO_TIMEOUT_MS",
    "LOG_NAME",
    "LegRun",
    "LegWay",
    "run_client_leg",
    "run_server_leg",
]

#: A whole leg is killed after this long. Generous: a client leg of ~40 scenarios takes ~35 s
#: on two cores, and the harness times out each client scenario on its own.
DEFAULT_LEG_TIMEOUT_S = 600.0
#: The harness's own per-scenario client timeout (its default).
DEFAULT_SCENARIO_TIMEOUT_MS = 30_000
#: The harness's stdout and stderr, written next to the scenario directories.
LOG_NAME = "harness.log"

#: How a leg selects its scenarios: the referee's `--requirements SET`, or `--spec-version
#: REVISION` as an older release (0.1.x, as community CIs pin it) runs a revision, the client
#: leg then with `--suite all` (that release's `client` runs one scenario or one suite).
LegWay = Literal["requirements", "spec-version"]


@dataclass(frozen=True)
class LegRun:
    """How one harness invocation ended; the evidence is in `results_dir`."""

    leg: Leg
    revision: str
    results_dir: Path
    returncode: int
    timed_out: bool
    log_tail: str
    duration_s: float
    command: str = ""

    @property
    def log_path(self) -> Path:
        """The harness's output."""
        return self.results_dir / LOG_NAME


def _fresh_dir(results_dir: Path) -> None:
    # Old scenario directories would be read as this run's results.
    if results_dir.exists() and any(results_dir.iterdir()):
        msg = f"results directory {results_dir} is not empty; use a new directory per run"
        raise ProcessError(msg)
    results_dir.mkdir(parents=True, exist_ok=True)


def _run(
    harness: Harness,
    leg: Leg,
    revision: str,
    args: list[str],
    *,
    results_dir: Path,
    cwd: Path,
    env: Mapping[str, str] | None,
    allow_env: Collection[str],
    timeout_s: float,
    way: LegWay = "requirements",
    scenario: str | None = None,
) -> LegRun:
    _fresh_dir(results_dir)
    log = results_dir / LOG_NAME
    if scenario is not None:
        # One scenario by itself, as the harness's `--requirements` run passes each of its
        # scenarios: at the set's wire, applicable or not (`--force`).
        selection = [
            "--scenario",
            scenario,
            "--spec-version",
            harness_requirements(revision),
            "--force",
        ]
    elif way == "spec-version":
        suite = ["--suite", "all"] if leg == "client" else []
        selection = [*suite, "--spec-version", revision]
    else:
        # The harness runs a set its bundle ships, which fixes the wire it speaks: the
        # revision's own, or the one a revision newer than the pinned harness stands on
        # (revisions.yaml).
        selection = ["--requirements", harness_requirements(revision)]
    argv = harness.argv(leg, *args, *selection, "-o", str(results_dir))
    completed = process.run(
        argv,
        cwd=cwd,
        env=process.sdk_environment(env, allow=allow_env),
        log_path=log,
        timeout_s=timeout_s,
    )
    return LegRun(
        leg=leg,
        revision=revision,
        results_dir=results_dir,
        returncode=completed.returncode,
        timed_out=completed.timed_out,
        log_tail=process.tail(log),
        duration_s=completed.duration_s,
        command=completed.command,
    )


def run_server_leg(
    harness: Harness,
    *,
    url: str,
    revision: str,
    results_dir: Path,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    allow_env: Collection[str] = (),
    timeout_s: float = DEFAULT_LEG_TIMEOUT_S,
    way: LegWay = "requirements",
    scenario: str | None = None,
) -> LegRun:
    """Run `server --url URL --requirements SET -o DIR` against an already running server (SET:
    the revision's `harness_requirements`; `way` "spec-version": `--spec-version REVISION`);
    with `scenario`, that one alone: `--scenario NAME --spec-version SET --force`."""
    return _run(
        harness,
        "server",
        revision,
        ["--url", url],
        results_dir=results_dir,
        cwd=cwd,
        env=env,
        allow_env=allow_env,
        timeout_s=timeout_s,
        way=way,
        scenario=scenario,
    )


def run_client_leg(
    harness: Harness,
    *,
    command: str,
    revision: str,
    results_dir: Path,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    allow_env: Collection[str] = (),
    timeout_s: float = DEFAULT_LEG_TIMEOUT_S,
    scenario_timeout_ms: int = DEFAULT_SCENARIO_TIMEOUT_MS,
    way: LegWay = "requirements",
    scenario: str | None = None,
) -> LegRun:
    """Run `client --command CMD --requirements SET -o DIR --timeout MS` (SET as for the server;
    `way` "spec-version": `--suite all --spec-version REVISION`; with `scenario`, that one
    alone: `--scenario NAME --spec-version SET --force`).

    The harness starts `command` once per scenario (through a shell, with the scenario's mock
    server URL appended), so `cwd` and `env` are the SDK's.
    """
    args = ["--command", command, "--timeout", str(scenario_timeout_ms)]
    return _run(
        harness,
        "client",
        revision,
        args,
        results_dir=results_dir,
        cwd=cwd,
        env=env,
        allow_env=allow_env,
        timeout_s=timeout_s,
        way=way,
        scenario=scenario,
    )
