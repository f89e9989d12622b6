"""Warm start for Node conformance clients: one compile cache per leg, prepared once, read after.

The harness starts the SDK's client once per scenario. A Node client (typescript-sdk's
`node --import tsx …client.ts`, `npx tsx …`, `pnpm exec tsx …`, `node dist/client.js`) spends
much of its start compiling the same JavaScript every time: Node itself, tsx, the SDK's
modules. Node 22.1+ keeps V8's compiled code on disk when `NODE_COMPILE_CACHE=DIR` is set
(`module.enableCompileCache`), and then only reads it back while the sources are unchanged.

When the client command is plain words starting with a Node program (`node`, `npx`, `tsx`,
`pnpm`, `yarn`, `npm`: each runs on the `node` that the command names or that the client's
PATH finds) and that `node` is 22.1 or later, the client leg makes a cache folder of its own
inside the run's output folder, runs the client command once there without a scenario or a
server URL (the warm-up: it loads and compiles its modules, then exits, as a client asked for
no scenario does), and hands the harness the same command with `NODE_COMPILE_CACHE=FOLDER` in
front. Every scenario's client is still a fresh process of the SDK's own runtime, with its
own argv, environment (secrets still removed), directory, timeout and exit status; it finds
its modules compiled already, and Node writes nothing back while every entry matches. The
folder is removed when the leg ends.

Anything else runs cold, with one line saying why: a command that is not plain words or does
not start with a Node program, no `node` on the client's PATH, a `node` older than 22.1 (it
ignores the variable), a warm-up that leaves no cache. `--cold-clients` turns it off.

tsx keeps its own transform cache in `$TMPDIR/tsx-UID` (no variable names another folder);
it is left where the SDK's environment puts it, as a cold client's is.

- the pure core: `node_plan`, `node_version`, `has_compile_cache`, `cached_command`;
- the edge: `prepare` asks the client's `node` its version and runs the warm-up.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tiercheck import process
from tiercheck.conformance.warm import plain_words
from tiercheck.errors import ProcessError

__all__ = [
    "CACHE_ENV",
    "MIN_NODE",
    "WARM_UP_TIMEOUT_S",
    "NodePlan",
    "Prepared",
    "cache_files",
    "cached_command",
    "has_compile_cache",
    "node_plan",
    "node_version",
    "prepare",
]

#: The variable that turns Node's on-disk compile cache on (Node 22.1+).
CACHE_ENV = "NODE_COMPILE_CACHE"
#: The first Node that reads CACHE_ENV.
MIN_NODE = (22, 1)
#: How long the warm-up client may take to load its modules and exit.
WARM_UP_TIMEOUT_S = 60.0
#: Programs that run on Node: the command's first word (a path to one is fine).
_NODE_PROGRAMS = frozenset({"node", "npx", "tsx", "pnpm", "yarn", "npm"})
_VERSION = re.compile(r"v?(\d+)\.(\d+)\.\d+")
#: The harness's per-scenario variables: the warm-up is asked for no scenario.
_SCENARIO_ENV = re.compile(r"MCP_CONFORMANCE_")


@dataclass(frozen=True)
class NodePlan:
    """A client command that runs on Node, as configured."""

    command: str
    #: The `node` it runs on: the command's first word when that is node, else "node" on PATH.
    node: str


@dataclass(frozen=True)
class Prepared:
    """The outcome of preparing a leg's compile cache."""

    #: The folder the clients read, or None: they start cold.
    cache_dir: Path | None
    #: One line: what was prepared, or why the clients start cold.
    note: str


def node_plan(command: str) -> NodePlan | None:
    """The Node run in `command`, or None when it is anything else.

    Only plain words qualify (no `&&`, `$VAR`, quotes or redirections), the first naming a Node
    program: `node`, `npx`, `tsx`, `pnpm`, `yarn` or `npm`, or a path to one.
    """
    words = plain_words(command)
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program not in _NODE_PROGRAMS:
        return None
    return NodePlan(command, words[0] if program == "node" else "node")


def node_version(text: str) -> tuple[int, int] | None:
    """(major, minor) of `node --version`'s answer (`v22.23.3`), or None."""
    found = _VERSION.fullmatch(text.strip())
    return (int(found.group(1)), int(found.group(2))) if found else None


def has_compile_cache(version: tuple[int, int]) -> bool:
    """Whether a Node of `version` reads NODE_COMPILE_CACHE."""
    return version >= MIN_NODE


def cached_command(plan: NodePlan, cache_dir: Path) -> str:
    """The client command for the harness: `plan`'s with the compile cache named in front."""
    return f"{CACHE_ENV}={shlex.quote(str(cache_dir))} {plan.command}"


def cache_files(cache_dir: Path) -> dict[str, int]:
    """Every file of the cache, by path inside it, with its modification time (ns)."""
    if not cache_dir.is_dir():
        return {}
    return {
        str(p.relative_to(cache_dir)): p.stat().st_mtime_ns
        for p in sorted(cache_dir.rglob("*"))
        if p.is_file()
    }


def _which_node(plan: NodePlan, *, cwd: Path, env: Mapping[str, str]) -> str | None:
    if "/" in plan.node:
        path = cwd / plan.node
        return str(path) if path.is_file() else None
    return shutil.which(plan.node, path=env.get("PATH"))


def prepare(
    plan: NodePlan,
    *,
    cache_dir: Path,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path,
    timeout_s: float = WARM_UP_TIMEOUT_S,
) -> Prepared:
    """Fill `cache_dir` by one warm-up run of `plan` in `cwd` with `env` (the SDK's, secrets
    removed). The clients start cold when this cannot be done. The warm-up's output, then one
    line with the outcome (`compile cache: …`), go to `log_path`."""
    prepared = _prepare(
        plan, cache_dir=cache_dir, cwd=cwd, env=env, log_path=log_path, timeout_s=timeout_s
    )
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("a", encoding="utf-8") as log:
        log.write(f"compile cache: {prepared.note}\n")
    return prepared


def _prepare(
    plan: NodePlan,
    *,
    cache_dir: Path,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path,
    timeout_s: float,
) -> Prepared:
    node = _which_node(plan, cwd=cwd, env=env)
    if node is None:
        return Prepared(None, f"no `{plan.node}` on the client's PATH")
    try:
        answer = process.capture([node, "--version"], cwd=cwd, env=env, timeout_s=30.0)
    except ProcessError as exc:
        return Prepared(None, f"{node} --version: {exc.message}")
    version = node_version(answer.stdout)
    if version is None:
        return Prepared(None, f"{node} --version answered {answer.stdout.strip()[:40]!r}")
    shown = answer.stdout.strip()
    if not has_compile_cache(version):
        return Prepared(None, f"node {shown} has no compile cache (Node 22.1+)")
    cache_dir.mkdir(parents=True, exist_ok=True)
    warm_env = {k: v for k, v in env.items() if not _SCENARIO_ENV.match(k)}
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("a", encoding="utf-8") as log:
        log.write(f"warm-up: {cached_command(plan, cache_dir)} (node {shown})\n")
    try:
        run = process.run(
            cached_command(plan, cache_dir),
            cwd=cwd,
            env=warm_env,
            log_path=log_path,
            timeout_s=timeout_s,
        )
    except ProcessError as exc:
        return Prepared(None, f"the warm-up did not start: {exc.message}")
    files = cache_files(cache_dir)
    ended = "timed out" if run.timed_out else f"exit {run.returncode}"
    with log_path.open("a", encoding="utf-8") as log:
        log.write(f"warm-up: {ended} after {run.duration_s:.2f} s, {len(files)} cache files\n")
    if not files:
        return Prepared(None, "the warm-up left no compile cache")
    return Prepared(cache_dir, f"{len(files)} files compiled by node {shown}")
