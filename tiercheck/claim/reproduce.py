"""How to reproduce a claim: the exact `tier-check` command, and the official harness's own.

The filed claims end with the commands a reviewer runs to get the same conformance figures
(the Ruby claim: one `npx @modelcontextprotocol/conformance … server --url … --requirements
REV` and one `client --command … --requirements REV` per revision). Both are read from what the
run recorded: the SDK line and commit, the revisions, the harness version, and each revision's
resolved configuration (build, server and client commands, baseline, timeouts) with where each
value came from, so a value set by a flag or an environment variable is given as a flag.
Pure.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from tiercheck.claim.model import CommandStep, Reproduce
from tiercheck.revisions import harness_requirements
from tiercheck.scorecard.model import ConfigEntry, Scorecard

__all__ = ["EXAMPLE_PORT", "reproduce"]

#: The port the shown commands use (the official harness's convention); tiercheck allocates one.
EXAMPLE_PORT = 3000
_NPM_PACKAGE = "@modelcontextprotocol/conformance"

#: Configuration keys a flag can set, and the flag (tiercheck.config.resolve.FIELDS).
_FLAGS = {
    "build": "--build-cmd",
    "server.command": "--server-cmd",
    "server.url": "--server-url",
    "server.ready_timeout": "--ready-timeout",
    "client.command": "--client-cmd",
    "client.timeout": "--client-timeout",
    "expected_failures": "--expected-failures",
}


def _value(config: Mapping[str, ConfigEntry], key: str) -> object:
    entry = config.get(key)
    return None if entry is None else entry.value


def _from_outside(entry: ConfigEntry) -> bool:
    # A flag ("--server-cmd") or an environment variable ("TIERCHECK_SERVER_CMD") set it.
    return entry.source.startswith(("--", "TIERCHECK_"))


def _port(text: str) -> str:
    return text.replace("{port}", str(EXAMPLE_PORT))


def _env_prefix(config: Mapping[str, ConfigEntry]) -> str:
    env = _value(config, "env")
    if not isinstance(env, Mapping) or not env:
        return ""
    return " ".join(f"{k}={shlex.quote(str(v))}" for k, v in env.items()) + " "


def _tiercheck(doc: Scorecard, tier: int) -> tuple[tuple[CommandStep, ...], list[str]]:
    sdk = doc.sdk
    notes: list[str] = []
    args = ["tier-check", "claim"]
    commit = sdk.commit or "<commit>"
    steps: list[CommandStep] = []
    if sdk.origin == "clone":
        args += ["--sdk", f"{sdk.name}@{commit}"]
    else:
        checkout = "<checkout>"
        steps.append(
            CommandStep(
                what="a checkout of the SDK at the assessed commit",
                command=shlex.join(["git", "-C", checkout, "checkout", "--detach", commit]),
            )
        )
        args += ["--sdk-path", checkout, "--sdk", sdk.name]
    args += ["--tier", str(tier)]
    for revision in doc.requirements_revisions:
        args += ["--revision", revision]
    if doc.harness.version:
        args += ["--harness-version", doc.harness.version]
    flags: dict[str, object] = {}
    for revision in doc.requirements_revisions:
        revision_entry = doc.revisions.get(revision)
        config = revision_entry.config if revision_entry else {}
        for key, sourced in config.items():
            if key in _FLAGS and _from_outside(sourced):
                flags.setdefault(_FLAGS[key], sourced.value)
    for flag, value in flags.items():
        args += [flag, str(value)]
    governance = doc.governance
    if governance.source == "skipped":
        args.append("--skip-governance")
    elif governance.snapshot and governance.as_of:
        args += ["--governance-snapshot", "governance-snapshot.json", "--as-of", governance.as_of]
        notes.append(
            "--governance-snapshot replays the GitHub facts this claim judged (the claim folder's "
            "scorecard/governance-snapshot.json); leave it and --as-of out to ask GitHub again."
        )
    steps.append(CommandStep(what="the whole claim, as it was made", command=shlex.join(args)))
    return tuple(steps), notes


def _harness(doc: Scorecard) -> tuple[tuple[CommandStep, ...], list[str]]:
    version = doc.harness.version or "latest"
    npx = f"npx {_NPM_PACKAGE}@{version}"
    steps: list[CommandStep] = []
    notes: list[str] = []
    built: set[str] = set()
    for revision in doc.requirements_revisions:
        entry = doc.revisions.get(revision)
        config = entry.config if entry else {}
        if not config:
            notes.append(f"{revision}: the scorecard records no configuration to run it with.")
            continue
        env = _env_prefix(config)
        build = _value(config, "build")
        if isinstance(build, str) and build and build not in built:
            built.add(build)
            steps.append(CommandStep(what="build (in the checkout)", command=f"{env}{build}"))
        server = _value(config, "server.command")
        url = _value(config, "server.url") or (entry.server_url if entry else None)
        baseline = _value(config, "expected_failures")
        baseline_args = f" --expected-failures {shlex.quote(str(baseline))}" if baseline else ""
        if isinstance(server, str) and server:
            steps.append(
                CommandStep(
                    revision=revision,
                    what="start the server (in the checkout; PORT is exported too)",
                    command=f"PORT={EXAMPLE_PORT} {env}{_port(server)}",
                )
            )
        if isinstance(url, str) and url:
            steps.append(
                CommandStep(
                    revision=revision,
                    what="the server leg",
                    command=f"{npx} server --url {shlex.quote(_port(url))} "
                    f"--requirements {harness_requirements(revision)}{baseline_args}",
                )
            )
        client = _value(config, "client.command")
        commands = _value(config, "client.commands")
        timeout = _value(config, "client.timeout")
        timeout_args = (
            f" --timeout {round(float(timeout) * 1000)}" if isinstance(timeout, int | float) else ""
        )
        if isinstance(client, str) and client:
            steps.append(
                CommandStep(
                    revision=revision,
                    what="the client leg (in the checkout)",
                    command=f"{env}{npx} client --command {shlex.quote(client)} "
                    f"--requirements {harness_requirements(revision)}{timeout_args}{baseline_args}",
                )
            )
        if isinstance(commands, Mapping) and commands:
            listed = ", ".join(f"{pattern}: {cmd}" for pattern, cmd in commands.items())
            notes.append(
                f"{revision}: the client command differs per scenario ({listed}); run "
                "`client --scenario NAME` with each for those scenarios."
            )
    if steps:
        notes.append(
            "The harness commands score the same frozen requirement sets; --expected-failures "
            "changes only their exit status, never a pass rate. Stop each revision's server "
            f"before starting the next: both use port {EXAMPLE_PORT}."
        )
    return tuple(steps), notes


def reproduce(doc: Scorecard, *, tier: int) -> Reproduce:
    """The commands that give this claim's figures again."""
    ours, notes = _tiercheck(doc, tier)
    theirs, more = _harness(doc)
    return Reproduce(tiercheck=ours, harness=theirs, notes=tuple(notes + more))
