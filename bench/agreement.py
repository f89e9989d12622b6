"""Per-scenario agreement between a tiercheck scorecard and the harness's own CLI.

    .venv/bin/python bench/agreement.py --scorecard REPORTS/scorecard.json --out DIR
        [--revision REV] [--leg server|client] [--scenario NAME] [--json FILE]
        [--registry FILE]

Reads what tiercheck assessed from its scorecard (SDK, commit, checkout, revisions, harness
version, provisioned tools), then runs the pinned harness's own `conformance` CLI on the same
checkout, which must still be at that commit (nothing is rebuilt):

- server leg: the SDK's conformance server is started as `tier-check show-config` resolves it,
  then `conformance server --url URL --requirements REV -o DIR/REV/server`;
- client leg: one scenario at a time, `conformance client --command CMD --scenario NAME
  --spec-version REV --force --timeout MS -o DIR/REV/client`, for every client scenario
  `conformance list --client --requirements REV` names (scored and run-but-not-scored). The
  CLI's own `--requirements` client run starts every scenario's client at once; on a small
  machine they time out together, so that run would measure the machine, not the SDK.
  `--force` and `--spec-version` are what its `--requirements` run passes for each scenario.

A harness scenario passes by the official rule (at least one SUCCESS check, no FAILURE). It is
compared with tiercheck's own verdict for the scenario in the scorecard (`details[].passed`).
Prints every command it ran and the counts; `--json` writes them. A leg with no command as
tiercheck resolves it (a server-only SDK's client leg) is not run, as tiercheck skips it.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from compare import scenario_verdicts

REPO = Path(__file__).resolve().parent.parent
TIER_CHECK = Path(sys.executable).with_name("tier-check")
#: Seconds one harness invocation may take before it is stopped (a whole server leg).
_STEP_LIMIT_S = 1800


def _say(line: str) -> None:
    print(line, flush=True)


def tiercheck_verdicts(scorecard: Mapping[str, Any], revision: str, leg: str) -> dict[str, bool]:
    """scenario → tiercheck's verdict, from the scorecard's per-revision leg details."""
    entry = (scorecard.get("revisions") or {}).get(revision, {}).get(leg) or {}
    return {str(d["scenario"]): bool(d["passed"]) for d in entry.get("details") or []}


def client_scenarios(conformance: Sequence[str], revision: str) -> list[str]:
    """Every client scenario the harness runs for `revision`, scored or not, in its order."""
    out = subprocess.run(
        [*conformance, "list", "--client", "--requirements", revision],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    names: list[str] = []
    section = None
    for line in out.splitlines():
        if line.startswith("Client scenarios"):
            section = "client"
            continue
        if line and not line.startswith(" "):
            section = "other" if not line.startswith("Run and reported") else "unscored"
            continue
        item = line.strip()
        if not item.startswith("- "):
            continue
        item = item[2:]
        if section == "client":
            names.append(item)
        elif section == "unscored" and item.endswith(" [client]"):
            names.append(item.removesuffix(" [client]"))
    return names


def resolved(sdk: str, revision: str, registry: Path | None = None) -> dict[str, Any]:
    """`tier-check show-config --sdk NAME --revision REV --json` → {key: value}."""
    extra = ["--registry", str(registry)] if registry else []
    out = subprocess.run(
        [str(TIER_CHECK), "show-config", "--sdk", sdk, "--revision", revision, "--json", *extra],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    values = json.loads(out)["revisions"][revision]
    return {key: entry.get("value") for key, entry in values.items()}


def client_command(config: Mapping[str, Any], scenario: str) -> str:
    """The client command for `scenario`: the first matching `client.commands` pattern."""
    for pattern, command in (config.get("client.commands") or {}).items():
        if fnmatch.fnmatchcase(scenario, pattern):
            return str(command)
    return str(config["client.command"])


def sdk_env(
    config: Mapping[str, Any], tool_dirs: Sequence[str], port: int | None
) -> dict[str, str]:
    """The SDK's environment as tiercheck gives it: secrets withheld, its tools first on PATH."""
    from tiercheck.process import sdk_environment

    extra = {str(k): str(v) for k, v in (config.get("env") or {}).items()}
    if port is not None:
        extra = {k: v.replace("{port}", str(port)) for k, v in extra.items()}
        extra["PORT"] = str(port)
    env = sdk_environment(extra, allow=list(config.get("pass_env") or []))
    if tool_dirs:
        env["PATH"] = os.pathsep.join([*tool_dirs, env.get("PATH", "")])
    return env


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(url: str, limit_s: float, proc: subprocess.Popen[bytes]) -> bool:
    """Whether the server behind `url` accepts connections within `limit_s` (and still runs)."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            return False
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            if sock.connect_ex(("127.0.0.1" if host == "localhost" else host, port)) == 0:
                return True
        time.sleep(0.25)
    return False


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group, then SIGKILL what is left after 5 s."""
    if proc.poll() is None:
        with _quiet():
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
    with _quiet():
        os.killpg(proc.pid, signal.SIGKILL)  # stragglers of the group, even after the leader
    proc.wait()


class _quiet:  # noqa: N801 - a tiny context manager, read as a phrase
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return exc[0] is not None and issubclass(exc[0], ProcessLookupError)  # type: ignore[arg-type]


def run(argv: Sequence[str], target: Target, env: Mapping[str, str], log: Path) -> int:
    """Run one harness invocation in the checkout, its output appended to `log`."""
    target.commands.append(shlex.join(argv))
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as sink:
        proc = subprocess.Popen(
            list(argv),
            cwd=target.checkout,
            env=dict(env),
            stdout=sink,
            stderr=sink,
            start_new_session=True,
        )
        try:
            return proc.wait(timeout=_STEP_LIMIT_S)
        except subprocess.TimeoutExpired:
            stop_group(proc)
            return -1
        except BaseException:
            stop_group(proc)  # interrupted: leave no harness or client behind
            raise


@dataclass
class Target:
    """What every official run shares: the CLI, the checkout, the SDK's tools, where to write."""

    conformance: list[str]
    checkout: Path
    tools: list[str]
    out: Path
    commands: list[str] = field(default_factory=list)


def server_leg(target: Target, config: Mapping[str, Any], revision: str) -> str | None:
    """Run the official server leg; None, or why it could not run."""
    template = str(config["server.url"])
    port = free_port() if "{port}" in template else None
    url = template.replace("{port}", str(port)) if port else template
    command = str(config["server.command"]).replace("{port}", str(port or ""))
    env = sdk_env(config, target.tools, port)
    log = target.out / "logs" / f"{revision}-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    target.commands.append(f"(cd {shlex.quote(str(target.checkout))} && {command})  # server")
    with log.open("ab") as sink:
        server = subprocess.Popen(
            command, shell=True, cwd=target.checkout, env=env, stdout=sink, stderr=sink,
            start_new_session=True,
        )  # fmt: skip
    try:
        if not wait_listening(url, float(config.get("server.ready_timeout") or 60), server):
            return f"the server did not listen at {url}"
        argv = [*target.conformance, "server", "--url", url, "--requirements", revision]
        argv += ["-o", str(target.out / revision / "server")]
        run(argv, target, env, log)
    finally:
        stop_group(server)
    return None


def client_leg(
    target: Target, config: Mapping[str, Any], revision: str, only: Sequence[str]
) -> None:
    """Run every client scenario through the official CLI, one at a time."""
    timeout_ms = str(int(float(config.get("client.timeout") or 30) * 1000))
    env = sdk_env(config, target.tools, None)
    log = target.out / "logs" / f"{revision}-client.log"
    for scenario in client_scenarios(target.conformance, revision):
        if only and scenario not in only:
            continue
        argv = [*target.conformance, "client", "--command", client_command(config, scenario)]
        argv += ["--scenario", scenario, "--spec-version", revision, "--force"]
        argv += ["--timeout", timeout_ms, "-o", str(target.out / revision / "client")]
        _say(f"  {revision} client {scenario}")
        run(argv, target, env, log)


def unconfigured(config: Mapping[str, Any], leg: str) -> str | None:
    """Why `leg` cannot be run as tiercheck resolves it (no command), or None: tiercheck skips
    such a leg, so the harness is not run with a command of `None`."""
    if leg == "client" and not config.get("client.command") and not config.get("client.commands"):
        return "no client command configured"
    if leg == "server" and not config.get("server.command"):
        return "no server command configured"
    return None


def compare(ours: Mapping[str, bool], theirs: Mapping[str, bool]) -> dict[str, Any]:
    names = sorted(set(ours) | set(theirs))
    word = {True: "pass", False: "fail", None: "missing"}
    differences = [
        f"{n}: tiercheck={word[ours.get(n)]} harness={word[theirs.get(n)]}"
        for n in names
        if ours.get(n) != theirs.get(n)
    ]
    return {"agree": len(names) - len(differences), "total": len(names), "differences": differences}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorecard", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True, help="where the harness writes")
    parser.add_argument("--revision", action="append", default=[])
    parser.add_argument("--leg", choices=("server", "client"), action="append", default=[])
    parser.add_argument("--scenario", action="append", default=[], help="client scenarios only")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--registry", type=Path, help="the known_sdks.yaml the assessment used")
    args = parser.parse_args(argv)

    scorecard = json.loads(args.scorecard.read_text(encoding="utf-8"))
    cache = Path(os.environ.get("TIERCHECK_CACHE") or Path.home() / ".cache" / "tiercheck")
    # SIGTERM unwinds like Ctrl-C, so the step running now is stopped with its group.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    from tiercheck.sdk.checkout import tree_lock

    # tiercheck's own lock on the working tree: an assessment of another ref of the same
    # repository (python-sdk-v1 shares python-sdk's clone) waits until this run is done,
    # instead of checking out another commit under it.
    with tree_lock(Path(scorecard["sdk"]["path"]), lock_dir=cache / "locks"):
        return _agreement(args, scorecard, cache)


def _agreement(args: argparse.Namespace, scorecard: Mapping[str, Any], cache: Path) -> int:
    sdk = scorecard["sdk"]
    checkout = Path(sdk["path"])
    head = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    if head != sdk["commit"]:
        print(f"agreement: {checkout} is at {head or '?'}, the scorecard at {sdk['commit']}")
        return 2
    base = cache / "harness" / scorecard["harness"]["version"] / "node_modules"
    conformance = [str(base / "node" / "bin" / "node"), str(base / ".bin" / "conformance")]
    tools = [
        str(info["path"])
        for info in (scorecard["harness"].get("tools") or {}).values()
        if info.get("source") in ("provisioned", "cached") and info.get("path")
    ]
    revisions = args.revision or list(scorecard["revisions"])
    legs = args.leg or ["server", "client"]
    target = Target(conformance, checkout, tools, args.out)
    report: dict[str, Any] = {"sdk": sdk["name"], "commit": sdk["commit"], "legs": {}}
    for revision in revisions:
        config = resolved(sdk["name"], revision, args.registry)
        for leg in legs:
            _say(f"{sdk['name']} {revision} {leg}")
            skipped = unconfigured(config, leg)
            if skipped:
                report["legs"][f"{revision}/{leg}"] = {"agree": 0, "total": 0, "skipped": skipped}
                _say(f"  {revision} {leg}: not run: {skipped}")
                continue
            problem = None
            if leg == "server":
                problem = server_leg(target, config, revision)
            else:
                client_leg(target, config, revision, args.scenario)
            ours = tiercheck_verdicts(scorecard, revision, leg)
            if leg == "client" and args.scenario:
                ours = {k: v for k, v in ours.items() if k in args.scenario}
            theirs = scenario_verdicts(args.out / revision / leg, leg)
            result = compare(ours, theirs)
            if problem:
                result["problem"] = problem
            report["legs"][f"{revision}/{leg}"] = result
            _say(f"  {revision} {leg}: {result['agree']}/{result['total']} agree")
            for line in result["differences"]:
                _say(f"    {line}")
    report["agree"] = sum(r["agree"] for r in report["legs"].values())
    report["total"] = sum(r["total"] for r in report["legs"].values())
    report["commands"] = target.commands
    _say(f"{sdk['name']} @ {sdk['commit'][:9]}: {report['agree']}/{report['total']} agree")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
