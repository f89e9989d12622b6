"""How to reproduce a claim: the exact `tier-check` command, and the official harness's own.

The filed claims end with the commands a reviewer runs to get the same conformance figures
(the Ruby claim: one `npx @modelcontextprotocol/conformance … server --url … --requirements
REV` and one `client --command … --requirements REV` per revision). Both are read from what the
run recorded: the SDK line and commit, the revisions, the harness version, and each revision's
resolved configuration (build, server and client commands, each leg's baseline, timeouts) with
where each value came from, so a value set by a flag or an environment variable is given as a
flag: the flags are the configuration fields' own (`config.resolve.FIELDS`), written as the
command line reads them (`ConfigFlags.texts`, as the assessment's `--help` declares them). A leg
the run skipped (no command to run it with, as `show-config` and `doctor` say) is given no
harness command, only a note with its reason. What the scorecard does not record arrives as
`Rerun`: the registry entry the SDK was configured by (carried as `--registry`, a copy in the
claim folder, with what the copy withholds), whether the SDK is an entry at all (flags alone
configure it otherwise), `--tag-prefix`, and which variables of the SDK's `env` are secret by
name or value (shown as `<withheld>`). Pure.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from tiercheck.claim.model import CommandStep, Reproduce
from tiercheck.config.resolve import FIELDS, ConfigFlags, FlagValue
from tiercheck.revisions import LEGS, harness_requirements
from tiercheck.scorecard.model import ConfigEntry, RevisionEntry, Scorecard

__all__ = [
    "EXAMPLE_PORT",
    "REGISTRY_COPY",
    "WITHHELD",
    "Rerun",
    "baseline_specs",
    "config_flags",
    "reproduce",
]

#: The port the shown commands use (the official harness's convention); tiercheck allocates one.
EXAMPLE_PORT = 3000
_NPM_PACKAGE = "@modelcontextprotocol/conformance"
#: The claim folder's copy of the registry entry the SDK was assessed with (not the bundled
#: registry's), which the claim command names.
REGISTRY_COPY = "sdk-registry.yaml"
#: Where the claim folder keeps the governance snapshot it judged.
_SNAPSHOT = "scorecard/governance-snapshot.json"

#: What a secret value of the SDK's `env` is shown as (here and in the registry copy).
WITHHELD = "<withheld>"

#: Each leg's baseline key; a scorecard older than per-leg baselines has one for both.
_BASELINE_KEYS: dict[str, str] = {leg: f"expected_failures.{leg}" for leg in LEGS}
_ONE_BASELINE = "expected_failures"
_SPEC_FLAG = "--expected-failures"
#: Configuration keys a flag of their own sets (`config.resolve.FIELDS`), and the flag; the
#: baselines, which share one repeatable flag, are given as SPECs (`baseline_specs`).
_FLAGS = {spec.key: spec.flag for spec in FIELDS if spec.flag is not None and spec.repeat is None}


@dataclass(frozen=True)
class Rerun:
    """What the run was configured with that its scorecard does not record."""

    #: `--registry FILE` to give (the claim folder's copy of the SDK's entry), or None when
    #: the entry is the bundled registry's.
    registry: str | None = None
    #: Whether the SDK is an entry of the registry; if not, flags alone configured it.
    registered: bool = True
    #: `--tag-prefix` (or TIERCHECK_TAG_PREFIX), when given.
    tag_prefix: str | None = None
    #: What the registry copy withholds (`env.NAME`, secret by name or value): the claim
    #: command needs it filled in again.
    withheld: tuple[str, ...] = ()
    #: The variables of the SDK's recorded `env` that are secret by name or value: the
    #: harness commands show them as `WITHHELD`.
    secret_env: frozenset[str] = frozenset()


def _value(config: Mapping[str, ConfigEntry], key: str) -> object:
    entry = config.get(key)
    return None if entry is None else entry.value


def _from_outside(entry: ConfigEntry) -> bool:
    # A flag ("--server-cmd") or an environment variable ("TIERCHECK_SERVER_CMD") set it.
    return entry.source.startswith(("--", "TIERCHECK_"))


def _port(text: str) -> str:
    return text.replace("{port}", str(EXAMPLE_PORT))


def _env_prefix(config: Mapping[str, ConfigEntry], secret: frozenset[str]) -> str:
    """`NAME=VALUE ` for each variable of the SDK's `env`, a secret one's value withheld."""
    env = _value(config, "env")
    if not isinstance(env, Mapping) or not env:
        return ""
    shown = {str(k): WITHHELD if str(k) in secret else str(v) for k, v in env.items()}
    return " ".join(f"{k}={shlex.quote(v)}" for k, v in shown.items()) + " "


def _skipped(entry: RevisionEntry | None, leg: str) -> str | None:
    """Why the run skipped `leg` at this revision (it had no command), or None when it ran."""
    if entry is None:
        return None
    verdict = entry.server if leg == "server" else entry.client
    return (verdict.reason or "skipped") if verdict.state == "skipped" else None


def _baseline_of(config: Mapping[str, ConfigEntry], leg: str) -> ConfigEntry | None:
    return config.get(_BASELINE_KEYS[leg]) or config.get(_ONE_BASELINE)


def baseline_specs(doc: Scorecard) -> list[str]:
    """The `--expected-failures` SPECs that give each leg's baseline again: the SPECs that chose
    a leg's file (each source names its SPEC), after the environment's FILE when that chose one.

    Only SPECs that won somewhere are recorded, and each keeps the legs and revisions it won, so
    given again in any order they choose the same files."""
    specs: list[str] = []
    env_file: str | None = None
    for revision in doc.requirements_revisions:
        entry = doc.revisions.get(revision)
        config = entry.config if entry else {}
        for leg in LEGS:
            sourced = _baseline_of(config, leg)
            if sourced is None or not sourced.value:
                continue
            if sourced.source.startswith(f"{_SPEC_FLAG} "):
                text = sourced.source.removeprefix(f"{_SPEC_FLAG} ")
            elif sourced.source == _SPEC_FLAG:  # a scorecard older than SPECs: one FILE
                text = str(sourced.value)
            elif sourced.source.startswith("TIERCHECK_"):
                env_file = str(sourced.value)
                continue
            else:
                continue
            if text not in specs:
                specs.append(text)
    return ([env_file] if env_file and env_file not in specs else []) + specs


def config_flags(doc: Scorecard) -> ConfigFlags:
    """The configuration flags that give the run's configuration again: each value a flag or a
    TIERCHECK_* variable set (the first revision's, as one flag sets every revision), and the
    baseline SPECs (`baseline_specs`), read as the command line reads them."""
    given: dict[str, FlagValue | list[str]] = {}
    for revision in doc.requirements_revisions:
        revision_entry = doc.revisions.get(revision)
        config = revision_entry.config if revision_entry else {}
        for key, sourced in config.items():
            flag = _FLAGS.get(key)
            if flag is not None and _from_outside(sourced) and sourced.value is not None:
                given.setdefault(flag, sourced.value)
    specs = baseline_specs(doc)
    if specs:
        given[_SPEC_FLAG] = specs
    return ConfigFlags(given)


def _target_args(doc: Scorecard, rerun: Rerun) -> tuple[list[str], list[CommandStep]]:
    """`--sdk`/`--sdk-path`/`--repo`, and the checkout step a checkout of one's own needs."""
    sdk = doc.sdk
    commit = sdk.commit or "<commit>"
    if sdk.origin == "clone":
        # An SDK known by its entry is named so; otherwise by its repository.
        name = sdk.name if rerun.registered else doc.repo
        return ["--sdk", f"{name}@{commit}"], []
    checkout = sdk.path or "<checkout>"
    step = CommandStep(
        what="a checkout of the SDK at the assessed commit",
        command=shlex.join(["git", "-C", checkout, "checkout", "--detach", commit]),
    )
    args = ["--sdk-path", checkout]
    if rerun.registered:
        args += ["--sdk", sdk.name]
    elif not doc.repo.startswith("local/"):
        args += ["--repo", doc.repo]
    return args, [step]


def _tiercheck(
    doc: Scorecard, tier: int, rerun: Rerun
) -> tuple[tuple[CommandStep, ...], list[str]]:
    notes: list[str] = []
    args = ["tier-check", "claim"]
    if rerun.registry:
        args += ["--registry", rerun.registry]
        notes.append(
            f"--registry {rerun.registry} is the claim folder's copy of the SDK's registry "
            "entry, as it was used: run the claim command in the claim folder."
        )
        if rerun.withheld:
            notes.append(
                f"{rerun.registry} withholds {', '.join(rerun.withheld)} (secret by name or "
                f"value, shown as {WITHHELD}): fill in the value before running the claim "
                "command."
            )
    target, steps = _target_args(doc, rerun)
    args += target
    args += ["--tier", str(tier)]
    for revision in doc.requirements_revisions:
        args += ["--revision", revision]
    if doc.harness.version:
        args += ["--harness-version", doc.harness.version]
    texts = config_flags(doc).texts()
    args += [part for flag, given in texts.items() for text in given for part in (flag, text)]
    if rerun.tag_prefix and "--tag-prefix" not in texts:
        args += ["--tag-prefix", rerun.tag_prefix]
    if doc.revisions and all(entry.probes is None for entry in doc.revisions.values()):
        args += ["--probes", "none"]
    governance = doc.governance
    if governance.source == "skipped":
        args.append("--skip-governance")
    elif governance.snapshot and governance.as_of:
        args += ["--governance-snapshot", _SNAPSHOT, "--as-of", governance.as_of]
        notes.append(
            f"--governance-snapshot replays the GitHub facts this claim judged (the claim "
            f"folder's {_SNAPSHOT}: run the claim command in the claim folder); leave it and "
            "--as-of out to ask GitHub again."
        )
    steps.append(CommandStep(what="the whole claim, as it was made", command=shlex.join(args)))
    return tuple(steps), notes


def _baseline_arg(config: Mapping[str, ConfigEntry], leg: str) -> str:
    """` --expected-failures SPEC` for the leg's baseline, or nothing when it has none."""
    found = _baseline_of(config, leg)
    if found is None or not found.value:
        return ""
    return f" --expected-failures {shlex.quote(str(found.value))}"


def _server_steps(
    revision: str,
    config: Mapping[str, ConfigEntry],
    entry: RevisionEntry,
    *,
    env: str,
    npx: str,
) -> list[CommandStep]:
    """The server leg: start the SDK's server when the run started one, and run the harness
    against its URL (the one configured, else the one the run recorded)."""
    steps: list[CommandStep] = []
    server = _value(config, "server.command")
    url = _value(config, "server.url") or entry.server_url
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
                f"--requirements {harness_requirements(revision)}"
                f"{_baseline_arg(config, 'server')}",
            )
        )
    return steps


def _client_steps(
    revision: str, config: Mapping[str, ConfigEntry], *, env: str, npx: str
) -> tuple[list[CommandStep], list[str]]:
    """The client leg: the harness runs the SDK's client command (with the run's timeout, in
    milliseconds); a note when the command differs per scenario."""
    steps: list[CommandStep] = []
    notes: list[str] = []
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
                f"--requirements {harness_requirements(revision)}{timeout_args}"
                f"{_baseline_arg(config, 'client')}",
            )
        )
    if isinstance(commands, Mapping) and commands:
        listed = ", ".join(f"{pattern}: {cmd}" for pattern, cmd in commands.items())
        notes.append(
            f"{revision}: the client command differs per scenario ({listed}); run "
            "`client --scenario NAME` with each for those scenarios."
        )
    return steps, notes


def _revision_steps(
    revision: str,
    entry: RevisionEntry | None,
    *,
    npx: str,
    built: set[str],
    secret: frozenset[str] = frozenset(),
) -> tuple[list[CommandStep], list[str]]:
    """One revision's harness commands: its build, unless an earlier revision's is the same
    (`built`, which this adds to), and each leg the run did not skip; a note for what has no
    command (no configuration recorded, a leg skipped)."""
    config = entry.config if entry else {}
    if entry is None or not config:
        return [], [f"{revision}: the scorecard records no configuration to run it with."]
    skipped = {leg: reason for leg in LEGS if (reason := _skipped(entry, leg)) is not None}
    notes = [
        f"{revision}: the {leg} leg was skipped ({reason}), so it has no command here."
        for leg, reason in skipped.items()
    ]
    if len(skipped) == len(LEGS):
        return [], notes
    env = _env_prefix(config, secret)
    steps: list[CommandStep] = []
    build = _value(config, "build")
    if isinstance(build, str) and build and build not in built:
        built.add(build)
        steps.append(CommandStep(what="build (in the checkout)", command=f"{env}{build}"))
    if "server" not in skipped:
        steps += _server_steps(revision, config, entry, env=env, npx=npx)
    if "client" not in skipped:
        client, more = _client_steps(revision, config, env=env, npx=npx)
        steps += client
        notes += more
    return steps, notes


def _harness(
    doc: Scorecard, secret: frozenset[str] = frozenset()
) -> tuple[tuple[CommandStep, ...], list[str]]:
    """The official harness's own commands for each revision, and the notes that go with
    them."""
    npx = f"npx {_NPM_PACKAGE}@{doc.harness.version or 'latest'}"
    steps: list[CommandStep] = []
    notes: list[str] = []
    built: set[str] = set()
    for revision in doc.requirements_revisions:
        found, more = _revision_steps(
            revision, doc.revisions.get(revision), npx=npx, built=built, secret=secret
        )
        steps += found
        notes += more
    if steps:
        notes.append(
            "The harness commands score the same frozen requirement sets; --expected-failures "
            "changes only their exit status, never a pass rate. Stop each revision's server "
            f"before starting the next: both use port {EXAMPLE_PORT}."
        )
    return tuple(steps), notes


def reproduce(doc: Scorecard, *, tier: int, rerun: Rerun | None = None) -> Reproduce:
    """The commands that give this claim's figures again."""
    rerun = rerun or Rerun()
    ours, notes = _tiercheck(doc, tier, rerun)
    theirs, more = _harness(doc, rerun.secret_env)
    return Reproduce(tiercheck=ours, harness=theirs, notes=tuple(notes + more))
