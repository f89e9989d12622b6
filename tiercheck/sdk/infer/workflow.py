"""The conformance runs of an SDK's own workflows, and the steps that build and start its server.

A conformance run is a command that runs the harness (`npx @modelcontextprotocol/conformance
server|client …`, the package's `conformance` binary) found in a workflow step, in a package
script a step runs (`pnpm run NAME`, `pnpm --filter PKG run NAME`, `npm run NAME`, `yarn
NAME`), or in a repository script a step runs (shell, Python, JavaScript: `wrapper`), with the
step's `env` and arguments; a script whose text is not given, run with the harness's
`--spec-version`/`--expected-failures` flags, is a run of the leg its name says. Of each it
keeps the leg, `--spec-version`, `--expected-failures`, `--url`, `--command`, the server the job
started in the background before it, and the build commands the job ran before it. Paths are
made relative to the repository root (a package script runs in its package's folder). A job
with a `strategy.matrix` is read once per combination of its lists and `include` entries (less
its `exclude`s), `${{ matrix.KEY }}` put in. A step that uses the official action
(`uses: modelcontextprotocol/conformance@REF`) is the run its `with:` inputs make (`mode`,
`url`, `command`, `expected-failures`, `spec-version`, `suite`, `scenario`), from the
repository root. Pure: texts in, facts out.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from tiercheck.config.yamlio import loads_yaml
from tiercheck.errors import ConfigError
from tiercheck.sdk.infer.calls import given
from tiercheck.sdk.infer.shell import ShellCommand, split_commands
from tiercheck.sdk.infer.wrapper import script_commands, script_of

__all__ = ["HarnessRun", "Package", "WorkflowFacts", "read_workflows", "rebase_command"]

_HARNESS_PACKAGE = "@modelcontextprotocol/conformance"
_LEGS = ("server", "client")
_RUNNERS = {"npm", "pnpm", "yarn"}
_PACKAGE_RUNNERS = {"npx", "bunx", "pnpm", "yarn"}
_MAX_DEPTH = 4


@dataclass(frozen=True)
class Package:
    """A package.json: its name and its scripts."""

    name: str | None
    scripts: Mapping[str, str]


@dataclass(frozen=True)
class HarnessRun:
    """One run of the harness as a workflow makes it."""

    workflow: str
    job: str
    leg: str
    revision: str | None
    baseline: str | None
    url: str | None
    #: The client command (`--command`), relative to the repository root.
    command: str | None
    #: The command the job started in the background before the run (the server), if any.
    server_start: tuple[str, ...] | None
    #: The repository script (shell, Python, JavaScript) the run is made through, if any.
    wrapper: str | None = None
    #: The folder the server was started in (not the root) and its words as written there.
    server_in: tuple[str, tuple[str, ...]] | None = None


@dataclass(frozen=True)
class WorkflowFacts:
    """The conformance runs, the build commands their jobs ran first, and what was not read."""

    runs: tuple[HarnessRun, ...] = ()
    builds: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    #: The repository scripts the steps run whose texts were not given (to be read).
    scripts: tuple[str, ...] = ()


@dataclass
class _Job:
    workflow: str
    name: str
    runs: list[HarnessRun] = field(default_factory=list)
    builds: list[str] = field(default_factory=list)
    background: tuple[str, ...] | None = None
    background_in: tuple[str, tuple[str, ...]] | None = None
    #: The repository script being read, while its commands are walked.
    via: str | None = None
    #: The env of the step being read (the workflow's, the job's and its own).
    env: Mapping[str, str] = field(default_factory=dict)


def rebase(path: str, cwd: str) -> str:
    """`path`, written in folder `cwd` of the repository, relative to the repository root (a
    path that leaves the repository, an absolute one or a variable is kept as written)."""
    if posixpath.isabs(path) or path.startswith("$"):
        return path
    joined = posixpath.normpath(posixpath.join(cwd, path))
    return path if joined.startswith("..") else joined


def _rebase_word(word: str, cwd: str) -> str:
    """A command's word: `./x` or `../x` written in folder `cwd`, made root-relative (still
    starting with `./` when it names a file at the root, so the shell does not search PATH)."""
    if not cwd or not word.startswith(("./", "../")):
        return word
    joined = rebase(word, cwd)
    return joined if "/" in joined else f"./{joined}"


def rebase_command(command: str, cwd: str) -> str:
    """A shell command written in folder `cwd`, its `./` and `../` words made root-relative."""
    if not cwd:
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    return shlex.join(_rebase_word(w, cwd) for w in words)


def _harness_leg(argv: tuple[str, ...]) -> tuple[str | None, bool]:
    """(leg, is a harness command) of `argv`; the leg is None when it names neither. A package
    runner given a package a script names through a variable it does not set (`npx --yes
    "$CONFORMANCE_PKG" server --url …`) runs the harness when the harness's leg and its `--url`
    (server) or `--command` (client) follow."""
    for i, word in enumerate(argv[:5]):
        if _HARNESS_PACKAGE in word or (word == "conformance" and i <= 3):
            leg = argv[i + 1] if i + 1 < len(argv) else None
            return (leg if leg in _LEGS else None), True
    if argv[0] in _PACKAGE_RUNNERS:
        words = [w for w in argv[1:] if not w.startswith("-") and w not in {"dlx", "exec"}]
        if len(words) > 1 and words[0].startswith("$") and words[1] in _LEGS:
            flag = "--url" if words[1] == "server" else "--command"
            if any(w == flag or w.startswith(flag + "=") for w in argv):
                return words[1], True
    return None, False


def _wrapper_leg(script: str, args: tuple[str, ...]) -> str | None:
    """The leg of a repository script run with the harness's flags (`run-server.sh --spec-version
    …`), from its name; None when it is given none of them."""
    if not any(w.startswith(("--expected-failures", "--spec-version")) for w in args):
        return None
    base = posixpath.basename(script).lower()
    legs = [leg for leg in _LEGS if leg in base]
    return legs[0] if len(legs) == 1 else None


_BUILD_SCRIPTS = ("build", "compile", "prepare")


def _is_build(argv: tuple[str, ...]) -> bool:
    tool, rest = posixpath.basename(argv[0]), argv[1:]
    first = rest[0] if rest else ""
    if tool.startswith("python") and rest[:1] == ("-m",) and rest[1:2] in (("venv",), ("pip",)):
        return True
    if tool in {"cargo", "go", "dotnet", "swift"}:
        return first == "build"
    if tool in _RUNNERS:
        if first in {"install", "ci", "i"}:
            return True
        script = rest[1] if first in {"run", "run-script"} and len(rest) > 1 else first
        return script.startswith(_BUILD_SCRIPTS)
    if tool == "uv":
        return first == "sync"
    if tool in {"mvn", "./mvnw", "gradle", "./gradlew", "make", "cmake"}:
        return True
    if tool == "bundle":
        return first == "install"
    return tool in {"pip", "pip3"} and first == "install"


def _script_call(
    argv: tuple[str, ...], cwd: str, packages: Mapping[str, Package]
) -> tuple[str, str, tuple[str, ...]] | None:
    """(script text, its package folder, extra arguments) when `argv` runs a package script."""
    if argv[0] not in _RUNNERS:
        return None
    folder, words, i = cwd, list(argv[1:]), 0
    positional: list[str] = []
    while i < len(words):
        word = words[i]
        if word in {"--filter", "-F", "-w", "--workspace"} and i + 1 < len(words):
            folder = _package_folder(words[i + 1], packages) or folder
            i += 2
        elif word.startswith(("--filter=", "--workspace=")):
            folder = _package_folder(word.split("=", 1)[1], packages) or folder
            i += 1
        elif word in {"-C", "--dir", "--prefix"} and i + 1 < len(words):
            folder = rebase(words[i + 1], cwd).strip("/").removeprefix("./")
            folder = "" if folder == "." else folder
            i += 2
        elif word.startswith("-") and not positional:
            i += 1
        else:
            positional.append(word)
            i += 1
    if positional[:1] in (["run"], ["run-script"]):
        positional = positional[1:]
    if not positional:
        return None
    package = packages.get(folder)
    script = package.scripts.get(positional[0]) if package else None
    if script is None:
        return None
    extra = tuple(w for w in positional[1:] if w != "--")
    return script, folder, extra


def _package_folder(name: str, packages: Mapping[str, Package]) -> str | None:
    for folder, package in packages.items():
        if package.name == name or posixpath.basename(folder) == name.lstrip("./"):
            return folder
    return None


def _run_of(
    job: _Job, argv: tuple[str, ...], cwd: str, leg: str | None, wrapper: str | None
) -> HarnessRun | None:
    """The run `argv` makes of the harness's `leg`, in folder `cwd`, through script `wrapper`
    (which started nothing the workflow saw when the run is only the script's: then `argv` is
    the script's command line and the URL and server are not known)."""
    if leg is None or given(argv, "--scenario") is not None:
        return None  # a single scenario (an extension's, say) is not the suite
    baseline = given(argv, "--expected-failures")
    command = given(argv, "--command")
    only_script = wrapper is not None and job.via is None
    url = None if only_script else given(argv, "--url")
    start = job.background if leg == "server" and not only_script else None
    start_in = job.background_in if start is not None else None
    return HarnessRun(
        workflow=job.workflow,
        job=job.name,
        leg=leg,
        revision=given(argv, "--spec-version"),
        baseline=rebase(baseline, cwd) if baseline else None,
        url=url,
        command=rebase_command(command, cwd) if command else None,
        server_start=start,
        wrapper=wrapper if only_script else job.via,
        server_in=start_in,
    )


@dataclass(frozen=True)
class _Files:
    packages: Mapping[str, Package]
    scripts: Mapping[str, str]
    #: The scripts the steps run whose texts are not in `scripts`, in the order first met.
    wanted: list[str] = field(default_factory=list)


_ENV_VALUE = re.compile(
    r"\$\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)"
)


def _with_env(argv: tuple[str, ...], env: Mapping[str, str]) -> tuple[str, ...]:
    """`argv` with each `$NAME`, `${NAME}` and `${{ env.NAME }}` of the step's `env` put in
    (others kept as written)."""
    if not env:
        return argv

    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or match.group(3)
        return env.get(name, match.group(0))

    return tuple(_ENV_VALUE.sub(one, word) for word in argv)


def _through_script(job: _Job, command: ShellCommand, cwd: str, files: _Files, depth: int) -> bool:
    """Walk the commands of the repository script `command` runs, if it runs one; whether it
    did. A script whose text is not given is wanted (and, given the harness's flags, a run of
    the leg its name says)."""
    called = script_of(command.argv) if not command.background else None
    if called is None or depth >= _MAX_DEPTH:
        return False
    written, args = called
    path = rebase(written, cwd)
    text = files.scripts.get(path)
    before = len(job.runs)
    inside = not (posixpath.isabs(path) or path.startswith(("../", "$")) or path == "..")
    if text is None:
        # A script outside the repository is asked for (and named as not read) only when the
        # harness's flags say it runs the harness.
        if path not in files.wanted and (inside or _wrapper_leg(written, args) is not None):
            files.wanted.append(path)
    else:
        outer, job.via = job.via, path
        for folder, inner in script_commands(path, text, args, job.env, cwd):
            _walk(job, inner, folder, files, depth + 1)
        job.via = outer
    if len(job.runs) == before:
        run = _run_of(job, (written, *args), cwd, _wrapper_leg(written, args), path)
        if run is not None:
            job.runs.append(run)
            return True
    return text is not None


def _walk(job: _Job, command: ShellCommand, cwd: str, files: _Files, depth: int) -> None:
    argv = command.argv if job.via else _with_env(command.argv, job.env)
    leg, is_harness = _harness_leg(argv)
    if is_harness:
        run = _run_of(job, argv, cwd, leg, None)
        if run is not None:
            job.runs.append(run)
        return
    if _is_build(argv) and not command.background:
        text = shlex.join(argv)
        job.builds.append(f"cd {shlex.quote(cwd)} && {text}" if cwd else text)
        return
    command = ShellCommand(argv, command.background, command.env)
    if _through_script(job, command, cwd, files, depth):
        return
    call = _script_call(argv, cwd, files.packages) if depth < _MAX_DEPTH else None
    if call is not None:
        script, folder, extra = call
        inner = split_commands(script)
        for n, part in enumerate(inner):
            last = extra and n == len(inner) - 1
            step = ShellCommand(part.argv + extra, part.background, part.env) if last else part
            _walk(job, step, folder, files, depth + 1)
        return
    if command.background:
        job.background = command.env + tuple(_rebase_word(w, cwd) for w in argv)
        job.background_in = (cwd, command.env + argv) if cwd else None


_MATRIX_VALUE = re.compile(r"\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}")
_MAX_COMBINATIONS = 16


def _plain(entry: object) -> dict[str, str]:
    """The plain values (text, number) of a matrix `include` or `exclude` entry."""
    if not isinstance(entry, Mapping):
        return {}
    return {str(k): str(v) for k, v in entry.items() if isinstance(v, str | int | float)}


def _combinations(job: Mapping[str, Any]) -> list[dict[str, str]]:
    """Each combination of the job's `strategy.matrix` lists of plain values, less those an
    `exclude` entry matches, with its `include` entries as GitHub adds them (to each combination
    whose own values they keep, else as a combination of their own); at most
    `_MAX_COMBINATIONS`, and one empty one without a matrix."""
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if isinstance(strategy, Mapping) else None
    if not isinstance(matrix, Mapping):
        return [{}]
    axes = {
        str(key): [str(v) for v in values if isinstance(v, str | int | float)]
        for key, values in matrix.items()
        if key not in {"include", "exclude"} and isinstance(values, list)
    }
    keys = [k for k, v in axes.items() if v]
    combos = [dict(zip(keys, values, strict=True)) for values in product(*(axes[k] for k in keys))]
    combos = combos if keys else []  # a matrix of `include` entries only: one job per entry
    excluded = [_plain(e) for e in matrix.get("exclude") or () if _plain(e)]
    if isinstance(matrix.get("exclude"), list):
        combos = [c for c in combos if not any(e.items() <= c.items() for e in excluded)]
    includes = matrix.get("include")
    originals = list(combos)  # an entry is added to these, never to another entry's own
    for entry in includes if isinstance(includes, list) else ():
        extra = _plain(entry)
        matched = False
        for combo in originals:
            if all(combo.get(k, v) == v for k, v in extra.items() if k in keys):
                combo.update({k: v for k, v in extra.items() if k not in keys})
                matched = True
        if not matched and extra:
            combos.append(extra)
    return combos[:_MAX_COMBINATIONS] or [{}]


def _with_matrix(text: str, combination: Mapping[str, str]) -> str:
    """`text` with each `${{ matrix.KEY }}` of `combination` put in (others kept as written)."""
    return _MATRIX_VALUE.sub(lambda m: combination.get(m.group(1), m.group(0)), text)


def _env(block: Mapping[str, Any], combination: Mapping[str, str]) -> dict[str, str]:
    """The plain values of `block`'s `env:` (a workflow's, a job's or a step's), matrix put in."""
    env = block.get("env")
    if not isinstance(env, Mapping):
        return {}
    return {
        str(k): _with_matrix(str(v), combination)
        for k, v in env.items()
        if isinstance(v, str | int | float) and not isinstance(v, bool)
    }


_ACTION = re.compile(r"^modelcontextprotocol/conformance@\S+$")
#: The official action's inputs that are the harness's own options, and those options.
_ACTION_INPUTS = {
    "url": "--url",
    "command": "--command",
    "expected-failures": "--expected-failures",
    "spec-version": "--spec-version",
    "suite": "--suite",
    "scenario": "--scenario",
}


def _action_run(step: Mapping[str, Any], combination: Mapping[str, str]) -> str | None:
    """The harness command the official action (`uses: modelcontextprotocol/conformance@REF`)
    runs from the repository root for the step's `with:` inputs, as a shell line; None for
    any other step."""
    uses, inputs = step.get("uses"), step.get("with")
    if not isinstance(uses, str) or not _ACTION.match(uses.strip()):
        return None
    if not isinstance(inputs, Mapping) or inputs.get("mode") not in _LEGS:
        return None
    words = ["npx", _HARNESS_PACKAGE, str(inputs["mode"])]
    for key, flag in _ACTION_INPUTS.items():
        value = inputs.get(key)
        if isinstance(value, str | int | float) and not isinstance(value, bool) and str(value):
            words += [flag, _with_matrix(str(value), combination)]
    return shlex.join(words)


def _steps(
    job: Mapping[str, Any], combination: Mapping[str, str], outer: Mapping[str, str]
) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(run text, working directory, env) of each step of `job` that runs a shell, the matrix
    `combination` put in; `outer` is the workflow's env."""
    defaults = job.get("defaults")
    base = ""
    if isinstance(defaults, Mapping) and isinstance(defaults.get("run"), Mapping):
        folder = defaults["run"].get("working-directory")
        base = folder if isinstance(folder, str) else ""
    job_env = {**outer, **_env(job, combination)}
    steps = job.get("steps")
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, Mapping) and (action := _action_run(step, combination)) is not None:
            yield action, "", {**job_env, **_env(step, combination)}
            continue
        if not isinstance(step, Mapping) or not isinstance(step.get("run"), str):
            continue
        folder = step.get("working-directory")
        cwd = _with_matrix(folder if isinstance(folder, str) else base, combination)
        cwd = posixpath.normpath(cwd).removeprefix("./") if cwd else ""
        cwd = "" if cwd in {".", ""} or cwd.startswith("..") else cwd
        env = {**job_env, **_env(step, combination)}
        yield _with_matrix(step["run"], combination), cwd, env


def read_workflows(
    workflows: Mapping[str, str],
    packages: Mapping[str, Package] | None = None,
    scripts: Mapping[str, str] | None = None,
) -> WorkflowFacts:
    """The conformance runs in `workflows` (path → text), in file, job and step order, with the
    build commands of the jobs that make them (each once, in order). `packages` are the
    package.json files by folder; `scripts` the texts of the repository scripts the steps run,
    by path: what such a script runs is read from it (`wrapper`), and the scripts whose texts
    are not given are `WorkflowFacts.scripts`."""
    files = _Files(packages or {}, scripts or {})
    runs: list[HarnessRun] = []
    builds: list[str] = []
    notes: list[str] = []
    for path, text in sorted(workflows.items()):
        try:
            document = loads_yaml(text, path)
        except ConfigError as exc:
            notes.append(f"{path}: not read: {exc.message}")
            continue
        jobs = document.get("jobs") if isinstance(document, Mapping) else None
        if not isinstance(jobs, Mapping):
            continue
        outer = _env(document, {}) if isinstance(document, Mapping) else {}
        for name, body in jobs.items():
            if not isinstance(body, Mapping):
                continue
            for combination in _combinations(body):
                job = _Job(path, str(name))
                for text_of_step, cwd, env in _steps(body, combination, outer):
                    job.env = env
                    for command in split_commands(text_of_step):
                        _walk(job, command, cwd, files, 0)
                if job.runs:
                    runs.extend(job.runs)
                    builds.extend(b for b in job.builds if b not in builds)
    return WorkflowFacts(tuple(runs), _one_tree(builds), tuple(notes), tuple(files.wanted))


def _one_tree(builds: list[str]) -> tuple[str, ...]:
    """The builds of several jobs (each on a fresh machine) run one after another in one tree: a
    later `uv sync` gets `--inexact`, so it keeps what an earlier one installed."""
    out: list[str] = []
    synced = False
    for build in builds:
        later = synced and build.startswith("uv sync") and "--inexact" not in build.split()
        out.append(f"{build} --inexact" if later else build)
        synced = synced or build.startswith("uv sync")
    return tuple(out)
