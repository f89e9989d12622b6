"""Warm start for Python conformance clients: import once, fork once per scenario.

The harness starts the SDK's client once per scenario. A Python client spends most of its CPU
importing the SDK (python-sdk main: ~0.7 of ~0.9 CPU-seconds, every scenario). When the client
command is a plain `PYTHON SCRIPT.py [ARGS]`, the client leg starts one *zygote* in the SDK's
own interpreter (`warm_zygote.py`: it imports what SCRIPT imports, nothing of SCRIPT itself
runs) and hands the harness a launcher command instead (`warm_launcher.py`): each scenario's
launcher passes its argv, directory, environment and standard descriptors to the zygote, which
forks; the child runs SCRIPT as `__main__` as `PYTHON SCRIPT ARGS` would. What the client is
asked, its environment, its timeout and its exit status are unchanged; only the imports are
not repeated.

Whatever goes wrong falls back to the cold command: a command that is not `PYTHON SCRIPT.py`,
a zygote that does not come up in time or exits, a launcher that cannot reach it. `--cold-clients`
turns warm start off.

- the pure core: `warm_plan` (is this command a plain Python script run?), `launcher_command`;
- the edge: `zygote` starts the zygote (through `tiercheck.process`) and waits for its socket.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tenacity import Retrying, retry_if_result, stop_after_delay, wait_exponential

from tiercheck import process
from tiercheck.errors import ProcessError

__all__ = ["READY_TIMEOUT_S", "WarmPlan", "launcher_command", "plain_words", "warm_plan", "zygote"]

#: How long the zygote may take to import the client's modules before the leg runs cold.
READY_TIMEOUT_S = 60.0
_ZYGOTE = Path(__file__).with_name("warm_zygote.py")
_LAUNCHER = Path(__file__).with_name("warm_launcher.py")
#: A word with no shell meaning (no quoting, expansion, redirection or operator).
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./@%+=:,-]+")
_PYTHON = re.compile(r"python(\d+(\.\d+)?)?")
#: AF_UNIX paths are at most 107 bytes on Linux.
_MAX_SOCKET_PATH = 100


@dataclass(frozen=True)
class WarmPlan:
    """A client command that is `PYTHON SCRIPT [ARGS]`, as configured."""

    python: str
    script: str
    args: tuple[str, ...] = ()


def plain_words(command: str) -> list[str] | None:
    """`command`'s words when every one is plain (no quoting, expansion, redirection or
    operator: nothing a shell would read otherwise), else None. What a warm start may rewrite."""
    words = command.split()
    return words if all(_PLAIN_WORD.fullmatch(w) for w in words) else None


def warm_plan(command: str) -> WarmPlan | None:
    """The plain Python script run in `command`, or None when it is anything else.

    Only `PYTHON SCRIPT.py [ARGS]` of plain words qualifies: an interpreter named `python`,
    `python3` or `python3.12` (a path to it is fine), a script ending in `.py`, no option before
    it, and no shell syntax anywhere (`uv run`, `&&`, `$VAR`, quotes, redirections: cold).
    """
    words = plain_words(command)
    if words is None or len(words) < 2:
        return None
    python, script, *args = words
    if not _PYTHON.fullmatch(python.rsplit("/", 1)[-1]):
        return None
    if script.startswith("-") or not script.endswith(".py"):
        return None
    return WarmPlan(python, script, tuple(args))


def launcher_command(plan: WarmPlan, *, socket_path: Path, run_dir: Path | None) -> str:
    """The client command for the harness: the launcher, which falls back to `plan` cold."""
    return shlex.join(
        [
            sys.executable,
            "-I",
            "-S",
            str(_LAUNCHER),
            str(socket_path),
            str(run_dir) if run_dir is not None else "-",
            plan.python,
            plan.script,
            *plan.args,
        ]
    )


@contextlib.contextmanager
def zygote(
    plan: WarmPlan,
    *,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path,
    ready_timeout_s: float = READY_TIMEOUT_S,
) -> Iterator[Path | None]:
    """Run the zygote for `plan` in `cwd` while the block runs; yields its socket, or None when
    it did not come up (the block then runs the clients cold). The zygote and everything it
    forked are stopped on every way out."""
    folder = Path(tempfile.mkdtemp(prefix="tiercheck-warm-"))
    socket_path = folder / "zygote.sock"
    try:
        if len(str(socket_path)) > _MAX_SOCKET_PATH or not (cwd / plan.script).is_file():
            yield None
            return
        argv = [plan.python, str(_ZYGOTE), str(socket_path), plan.script]
        try:
            child = process.start(argv, cwd=cwd, env=env, log_path=log_path)
        except ProcessError:
            yield None
            return
        try:
            yield socket_path if _ready(child, socket_path, ready_timeout_s) else None
        finally:
            child.stop(term_grace_s=2.0)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ready(child: process.Child, socket_path: Path, timeout_s: float) -> bool:
    """Whether the zygote's socket appears within `timeout_s` (False as soon as it exits)."""

    def state() -> bool | None:
        if socket_path.exists():
            return True
        return False if child.poll() is not None else None

    waiting = Retrying(
        stop=stop_after_delay(timeout_s),
        wait=wait_exponential(multiplier=0.005, max=0.05),
        retry=retry_if_result(lambda found: found is None),
        retry_error_callback=lambda _: False,
    )
    return bool(waiting(state))
