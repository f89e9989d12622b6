"""The conformance runs of an SDK's own workflows, and the steps that build and start its server.

A conformance run is a command that runs the harness (`npx @modelcontextprotocol/conformance
server|client …`, the package's `conformance` binary, or a repository script given the harness's
`--spec-version`/`--expected-failures` flags, whose leg its name says) found in a workflow step
or in a package script a step runs (`pnpm run NAME`, `pnpm --filter PKG run NAME`, `npm run
NAME`, `yarn NAME`). Of each it keeps the leg, `--spec-version`, `--expected-failures`, `--url`,
`--command`, the server the job started in the background before it, and the build commands
the job ran before it. Paths are made relative to the repository root (a package script runs in
its package's folder). A job with a `strategy.matrix` is read once per combination of its lists,
`${{ matrix.KEY }}` put in. Pure: texts in, facts out.
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
from tiercheck.sdk.infer.shell import ShellCommand, split_commands
from tiercheck.sdk.infer.wrapper import read_wrapper

__all__ = ["HarnessRun", "Package", "WorkflowFacts", "read_workflows", "rebase_command"]

_HARNESS_PACKAGE = "@modelcontextprotocol/conformance"
_LEGS = ("server", "client")
_RUNNERS = {"npm", "pnpm", "yarn"}
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
    #: The repository script that runs the harness for the workflow (it starts the server
    #: itself), if the run is made through one.
    wrapper: str | None = None


@dataclass(frozen=True)
class WorkflowFacts:
    """The conformance runs, the build commands their jobs ran first, and what was not read."""

    runs: tuple[HarnessRun, ...] = ()
    builds: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass
class _Job:
    workflow: str
    name: str
    runs: list[HarnessRun] = field(default_factory=list)
    builds: list[str] = field(default_factory=list)
    background: tuple[str, ...] | None = None


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


def _option(argv: tuple[str, ...], name: str) -> str | None:
    """The value of `--name VALUE` or `--name=VALUE` (the last one given)."""
    found = None
    for i, word in enumerate(argv):
        if word == name and i + 1 < len(argv):
            found = argv[i + 1]
        elif word.startswith(name + "="):
            found = word[len(name) + 1 :]
    return found


def _harness_leg(argv: tuple[str, ...]) -> tuple[str | None, bool]:
    """(leg, is a harness command) of `argv`; the leg is None when it names neither."""
    for i, word in enumerate(argv[:5]):
        if _HARNESS_PACKAGE in word or (word == "conformance" and i <= 3):
            leg = argv[i + 1] if i + 1 < len(argv) else None
            return (leg if leg in _LEGS else None), True
    return None, False


def _wrapper_leg(argv: tuple[str, ...]) -> str | None:
    """The leg of a repository script run with the harness's flags (`run-server.sh --spec-version
    …`), from its name; None when `argv` is not one."""
    script = argv[0]
    if not (script.endswith(".sh") or "/" in script):
        return None
    if not any(w.startswith(("--expected-failures", "--spec-version")) for w in argv[1:]):
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
    job: _Job, argv: tuple[str, ...], cwd: str, scripts: Mapping[str, str]
) -> HarnessRun | None:
    leg, is_harness = _harness_leg(argv)
    wrapper = None
    if not is_harness:
        leg = _wrapper_leg(argv)
        wrapper = argv[0]
    if leg is None or _option(argv, "--scenario") is not None:
        return None  # a single scenario (an extension's, say) is not the suite
    baseline = _option(argv, "--expected-failures")
    command = _option(argv, "--command")
    url, start = _option(argv, "--url"), job.background if leg == "server" else None
    if wrapper is not None:
        wrapper = rebase(wrapper, cwd)
        facts = read_wrapper(wrapper, scripts[wrapper]) if wrapper in scripts else None
        url, start = (facts.url, facts.server_start) if facts else (None, None)
    return HarnessRun(
        workflow=job.workflow,
        job=job.name,
        leg=leg,
        revision=_option(argv, "--spec-version"),
        baseline=rebase(baseline, cwd) if baseline else None,
        url=url,
        command=rebase_command(command, cwd) if command else None,
        server_start=start if leg == "server" else None,
        wrapper=wrapper,
    )


@dataclass(frozen=True)
class _Files:
    packages: Mapping[str, Package]
    scripts: Mapping[str, str]


def _walk(job: _Job, command: ShellCommand, cwd: str, files: _Files, depth: int) -> None:
    argv = command.argv
    run = _run_of(job, argv, cwd, files.scripts)
    if run is not None:
        job.runs.append(run)
        return
    if _is_build(argv) and not command.background:
        text = shlex.join(argv)
        job.builds.append(f"cd {shlex.quote(cwd)} && {text}" if cwd else text)
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


_MATRIX_VALUE = re.compile(r"\$\{\{\s*matrix\.([A-Za-z0-9_-]+)\s*\}\}")
_MAX_COMBINATIONS = 16


def _combinations(job: Mapping[str, Any]) -> list[dict[str, str]]:
    """Each combination of the job's `strategy.matrix` lists of plain values (at most
    `_MAX_COMBINATIONS`; `include` and `exclude` are not read); one empty one without a matrix."""
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
    return combos[:_MAX_COMBINATIONS] or [{}]


def _with_matrix(text: str, combination: Mapping[str, str]) -> str:
    """`text` with each `${{ matrix.KEY }}` of `combination` put in (others kept as written)."""
    return _MATRIX_VALUE.sub(lambda m: combination.get(m.group(1), m.group(0)), text)


def _steps(job: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(run text, working directory) of each step of `job` that runs a shell."""
    defaults = job.get("defaults")
    base = ""
    if isinstance(defaults, Mapping) and isinstance(defaults.get("run"), Mapping):
        folder = defaults["run"].get("working-directory")
        base = folder if isinstance(folder, str) else ""
    steps = job.get("steps")
    for step in steps if isinstance(steps, list) else []:
        if not isinstance(step, Mapping) or not isinstance(step.get("run"), str):
            continue
        folder = step.get("working-directory")
        cwd = folder if isinstance(folder, str) else base
        cwd = posixpath.normpath(cwd).removeprefix("./") if cwd else ""
        yield step["run"], "" if cwd in {".", ""} or cwd.startswith("..") else cwd


def read_workflows(
    workflows: Mapping[str, str],
    packages: Mapping[str, Package] | None = None,
    scripts: Mapping[str, str] | None = None,
) -> WorkflowFacts:
    """The conformance runs in `workflows` (path → text), in file, job and step order, with the
    build commands of the jobs that make them (each once, in order). `packages` are the
    package.json files by folder; `scripts` the texts of the repository scripts that runs go
    through (`HarnessRun.wrapper`), by path: what such a script starts is read from it."""
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
        for name, body in jobs.items():
            if not isinstance(body, Mapping):
                continue
            for combination in _combinations(body):
                job = _Job(path, str(name))
                for text_of_step, cwd in _steps(body):
                    for command in split_commands(_with_matrix(text_of_step, combination)):
                        _walk(job, command, cwd, files, 0)
                if job.runs:
                    runs.extend(job.runs)
                    builds.extend(b for b in job.builds if b not in builds)
    return WorkflowFacts(tuple(runs), _one_tree(builds), tuple(notes))


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
