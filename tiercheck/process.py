"""The one module that starts subprocesses.

Every child runs in its own session (and so its own process group): `npx`, `uv run` and shell
wrappers leave the real server or client running if only their PID is signalled. Stopping is
staged — SIGTERM to the group, a grace period, then SIGKILL to the group — and happens on every
exit path: normal return, exception, timeout and interrupt. A registry of live children lets the
CLI's signal handler tear everything down at once.

The SDK under test is untrusted: `sdk_environment` withholds every variable whose name marks a
secret, or whose value has the shape of a credential (a GitHub, GitLab, Slack, AWS or
OpenAI-style token, a JWT, a PEM private key, a URL with a password), unless the SDK's
configuration names it explicitly (`pass_env`).

On Linux, `harden()` makes tier-check's own process non-dumpable (a non-root SDK of the same
user can then neither read `/proc/<pid>/environ` nor ptrace it) and a child subreaper: a
daemon that double-forks away from its process group is re-parented to tier-check instead of
init, so it can still be found and stopped. Each child carries a tag in its environment
(`CHILD_TAG_ENV`) naming the child it descends from; stopping a child also stops the adopted
orphans that carry its tag, and `stop_adopted()` stops every orphan left at exit.
"""

from __future__ import annotations

import itertools
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from tiercheck.errors import ProcessError

if TYPE_CHECKING:
    import psutil

__all__ = [
    "CHILD_TAG_ENV",
    "Child",
    "CompletedRun",
    "capture",
    "harden",
    "is_secret_name",
    "is_secret_value",
    "kill_all_children",
    "live_children",
    "run",
    "running",
    "sdk_environment",
    "start",
    "stop_adopted",
    "tail",
    "withheld",
]

#: Seconds between SIGTERM and SIGKILL when a group is stopped.
TERM_GRACE_S = 5.0
#: Seconds to wait for a group to die after SIGKILL before giving up on it.
KILL_GRACE_S = 2.0

#: The environment variable naming the child a process descends from (see `stop_adopted`).
CHILD_TAG_ENV = "TIERCHECK_CHILD_TAG"

# Anywhere in the name: these words only ever name secrets.
_SECRET_WORD = re.compile(
    r"TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE|AUTH|WEBHOOK", re.IGNORECASE
)
# As a whole `_`-separated part of the name only: PATH, PASSENGER or DSNAME are not secrets,
# GITHUB_PAT, DB_PASS, MYSQL_PWD and SENTRY_DSN are. A part ending in KEY(S) is a key
# (API_KEY, AZURE_STORAGE_ACCOUNTKEY, SIGNINGKEYS).
_SECRET_PART = re.compile(r"^(PAT|PASS|PWD|DSN|\w*KEYS?)$", re.IGNORECASE)
#: Names that match a pattern above but are not secrets: the shell's working directories.
_NOT_SECRET = frozenset({"PWD", "OLDPWD"})

# Credential shapes, searched anywhere in a value (a token may sit inside a URL or a header).
_SECRET_VALUE = re.compile(
    "|".join(
        [
            r"\bgh[pousr]_[A-Za-z0-9]{30,}",  # GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_
            r"\bgithub_pat_[A-Za-z0-9_]{20,}",  # GitHub fine-grained tokens
            r"\bgl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|agent|imt)-[A-Za-z0-9_-]{20,}",  # GitLab
            r"\bxox[abposre]-[A-Za-z0-9-]{10,}",  # Slack tokens
            r"hooks\.slack\.com/services/",  # Slack webhooks
            r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}\b",  # AWS
            r"\bsk-[A-Za-z0-9_-]{20,}",  # OpenAI-style keys (sk-…, sk-proj-…, sk-ant-…)
            r"\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*",  # JWTs
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----",  # PEM private keys
            r"\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:[^/\s@]+@",  # a URL with a password
        ]
    )
)


def is_secret_name(name: str) -> bool:
    """Whether an environment variable's name marks a secret (TOKEN, PASSWORD, GITHUB_PAT…)."""
    if name.upper() in _NOT_SECRET:
        return False
    if _SECRET_WORD.search(name):
        return True
    return any(_SECRET_PART.match(part) for part in name.split("_") if part)


def is_secret_value(value: str) -> bool:
    """Whether a value has the shape of a credential (token, JWT, private key, URL password)."""
    return bool(_SECRET_VALUE.search(value))


def withheld(environ: Mapping[str, str] | None = None, *, allow: Collection[str] = ()) -> list[str]:
    """The names (never the values) of the variables `sdk_environment` would withhold."""
    source = os.environ if environ is None else environ
    return sorted(k for k, v in source.items() if k not in allow and _is_secret(k, v))


def _is_secret(name: str, value: str) -> bool:
    return is_secret_name(name) or is_secret_value(value)


def sdk_environment(
    extra: Mapping[str, str] | None = None,
    *,
    allow: Collection[str] = (),
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The environment for a process of the SDK under test.

    Starts from `base` (our own environment by default), drops every variable whose name marks
    a secret or whose value looks like a credential, unless it is listed in `allow`, then adds
    `extra` (the SDK's configured `env`, which the user wrote on purpose and so is never
    filtered).
    """
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if k in allow or not _is_secret(k, v)}
    env.update(extra or {})
    return env


@dataclass(frozen=True)
class CompletedRun:
    """The outcome of one finished command."""

    command: str
    returncode: int
    duration_s: float
    timed_out: bool
    log_path: Path | None

    @property
    def ok(self) -> bool:
        """True when the command exited 0 within its time."""
        return self.returncode == 0 and not self.timed_out


class Child:
    """A running process group we own. Stop it with `stop()`; `start()` is its context manager."""

    def __init__(
        self, popen: subprocess.Popen[bytes], command: str, log_path: Path | None, tag: str = ""
    ) -> None:
        self.popen = popen
        self.command = command
        self.log_path = log_path
        self.tag = tag
        self.started_at = time.monotonic()

    @property
    def pid(self) -> int:
        """PID of the group leader (also the process group id)."""
        return self.popen.pid

    def poll(self) -> int | None:
        """The exit code if the leader has exited, else None."""
        return self.popen.poll()

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the leader to exit; raises subprocess.TimeoutExpired."""
        return self.popen.wait(timeout)

    def stop(self, term_grace_s: float = TERM_GRACE_S, kill_grace_s: float = KILL_GRACE_S) -> None:
        """SIGTERM the whole group, wait, then SIGKILL the group. Idempotent.

        Orphans that left the group and were adopted by tier-check (see `harden`) and carry
        this child's tag are stopped the same way.
        """
        try:
            _stop_group(self.popen, term_grace_s, kill_grace_s)
            if self.tag:
                _stop_processes(_adopted(self.tag), term_grace_s, kill_grace_s)
        finally:
            _forget(self)


_children_lock = threading.Lock()
_children: list[Child] = []
_tags = itertools.count(1)


def _remember(child: Child) -> None:
    with _children_lock:
        _children.append(child)


def _forget(child: Child) -> None:
    with _children_lock, suppress(ValueError):
        _children.remove(child)


def live_children() -> list[Child]:
    """The children started by this process that have not been stopped yet."""
    with _children_lock:
        return list(_children)


def kill_all_children(term_grace_s: float = 2.0) -> None:
    """Stop every live child group (used on interrupt), then every orphan adopted from them."""
    for child in live_children():
        child.stop(term_grace_s=term_grace_s)
    stop_adopted(term_grace_s=term_grace_s)


# prctl(2) options (linux/prctl.h).
_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_hardened = False


def harden() -> list[str]:
    """Protect tier-check's own process from the SDK it runs; returns what could not be done.

    Linux only (elsewhere every measure is reported as not done):

    - `PR_SET_DUMPABLE 0`: `/proc/<our pid>/environ`, `mem` and friends become root's, and
      ptrace is refused, so an SDK running as the same non-root user cannot read the tokens
      in our environment. Children are dumpable again once they exec: they hold only the
      scrubbed environment. `/proc/<pid>/cmdline` stays readable by everyone.
    - `PR_SET_CHILD_SUBREAPER 1`: a double-forked daemon (`(setsid sleep 777 &)`) is
      re-parented to us instead of init, so `stop_adopted` can still find it.

    Call it once, from the process's own entry point (never from a library or a test runner:
    it changes the whole process).
    """
    global _hardened  # noqa: PLW0603 - one process-wide setting, made once at start-up
    if not sys.platform.startswith("linux"):
        return ["non-dumpable process (not Linux)", "child subreaper (not Linux)"]
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return ["non-dumpable process (no libc)", "child subreaper (no libc)"]
    missing = []
    if libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        missing.append(f"non-dumpable process ({os.strerror(ctypes.get_errno())})")
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        missing.append(f"child subreaper ({os.strerror(ctypes.get_errno())})")
    else:
        _hardened = True
    return missing


def _adopted(tag: str | None) -> list[psutil.Process]:
    """Our direct children that we did not start: orphans re-parented to us (a subreaper).

    With a `tag`, only those whose environment carries it (they descend from that child).
    A process we cannot read the environment of is left to the final `stop_adopted()`.
    """
    import psutil

    ours = {child.pid for child in live_children()}
    found: list[psutil.Process] = []
    try:
        candidates = psutil.Process().children()
    except psutil.Error:
        return found
    for proc in candidates:
        if proc.pid in ours:
            continue
        if tag is not None:
            try:
                if proc.environ().get(CHILD_TAG_ENV) != tag:
                    continue
            except psutil.Error:
                continue
        found.append(proc)
    return found


def _stop_processes(
    procs: Sequence[psutil.Process], term_grace_s: float, kill_grace_s: float
) -> None:
    """SIGTERM each process, its process group and its descendants; SIGKILL what is left."""
    import psutil

    if not procs:
        return
    mine = os.getpgid(0)
    members: dict[int, psutil.Process] = {}
    groups: set[int] = set()
    for proc in procs:
        with suppress(psutil.Error):
            for member in (proc, *proc.children(recursive=True)):
                members[member.pid] = member
                with suppress(OSError):
                    group = os.getpgid(member.pid)
                    if group != mine:
                        groups.add(group)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for group in groups:
            _signal_group(group, sig)
        for member in members.values():
            with suppress(psutil.Error):
                member.send_signal(sig)
        # wait_procs reaps those that are our children (adopted orphans are), so no zombie
        # is left either.
        _, alive = psutil.wait_procs(
            list(members.values()), timeout=term_grace_s if sig == signal.SIGTERM else kill_grace_s
        )
        if not alive:
            return
        members = {p.pid: p for p in alive}


def stop_adopted(term_grace_s: float = 2.0, kill_grace_s: float = KILL_GRACE_S) -> None:
    """Stop every orphan re-parented to us that no live child accounts for (at exit, on
    interrupt). A no-op unless `harden()` made us a subreaper: otherwise every direct child is
    one we started on purpose (by this module or by a library such as GitPython).
    """
    if not _hardened:
        return
    _stop_processes(_adopted(None), term_grace_s, kill_grace_s)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a reused pgid we may not signal
        return True
    return True


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _wait_group_gone(
    popen: subprocess.Popen[bytes], pgid: int, grace_s: float, others: Collection[int] = ()
) -> bool:
    deadline = time.monotonic() + grace_s
    while True:
        popen.poll()  # reap the leader so it does not linger as a zombie member
        if not _group_alive(pgid) and not any(_group_alive(g) for g in others):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


def _escaped_groups(pid: int, pgid: int) -> set[int]:
    """Process groups of descendants that left our group (`timeout`, `setsid`, daemons).

    Taken before any signal is sent: once a parent dies its children are re-parented and can
    no longer be found from here.
    """
    import psutil

    groups: set[int] = set()
    try:
        descendants = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return groups
    for proc in descendants:
        with suppress(psutil.Error, ProcessLookupError):
            group = os.getpgid(proc.pid)
            if group not in (pgid, os.getpgid(0)):
                groups.add(group)
    return groups


def _stop_group(popen: subprocess.Popen[bytes], term_grace_s: float, kill_grace_s: float) -> None:
    pgid = popen.pid  # start_new_session=True makes the child its group's leader
    escaped = _escaped_groups(popen.pid, pgid)
    if not _group_alive(pgid) and not escaped:
        popen.poll()
        return
    for group in (pgid, *escaped):
        _signal_group(group, signal.SIGTERM)
    if _wait_group_gone(popen, pgid, term_grace_s, escaped):
        return
    escaped = {g for g in escaped if _group_alive(g)}
    for group in (pgid, *escaped):
        _signal_group(group, signal.SIGKILL)
    _wait_group_gone(popen, pgid, kill_grace_s, escaped)
    with suppress(subprocess.TimeoutExpired):
        popen.wait(kill_grace_s)


def _as_shell_command(command: str | Sequence[str]) -> tuple[str | list[str], str, bool]:
    if isinstance(command, str):
        return command, command, True
    argv = list(command)
    return argv, shlex.join(argv), False


def _open_log(log_path: Path | None) -> IO[bytes] | int:
    if log_path is None:
        return subprocess.DEVNULL
    log_path.parent.mkdir(parents=True, exist_ok=True)
    return log_path.open("ab")


def start(
    command: str | Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path | None = None,
) -> Child:
    """Start `command` (a shell string or an argv) in a new process group.

    stdout and stderr go to `log_path` (appended), stdin is closed. The caller owns the
    returned Child and must stop it; prefer `running()` or `run()`.
    """
    args, display, shell = _as_shell_command(command)
    tag = f"{os.getpid()}-{next(_tags)}"
    log = _open_log(log_path)
    try:
        popen = subprocess.Popen(
            args,
            shell=shell,
            cwd=cwd,
            env={**env, CHILD_TAG_ENV: tag},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        msg = f"cannot start {display!r} in {cwd}: {exc.strerror or exc}"
        raise ProcessError(msg) from exc
    finally:
        if not isinstance(log, int):
            log.close()  # the child holds its own descriptor
    child = Child(popen, display, log_path, tag)
    _remember(child)
    return child


@contextmanager
def running(
    command: str | Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path | None = None,
) -> Iterator[Child]:
    """Context manager: start a process group and stop it on every way out of the block."""
    child = start(command, cwd=cwd, env=env, log_path=log_path)
    try:
        yield child
    finally:
        child.stop()


def run(
    command: str | Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    log_path: Path | None = None,
    timeout_s: float | None = None,
) -> CompletedRun:
    """Run a command to completion in its own process group and return how it ended.

    A timeout stops the group (SIGTERM, then SIGKILL) and is reported, not raised. Any exception
    while waiting (KeyboardInterrupt included) stops the group before it propagates. After the
    leader exits, stragglers left in its group (daemonised grandchildren) are stopped too.
    """
    began = time.monotonic()
    child = start(command, cwd=cwd, env=env, log_path=log_path)
    timed_out = False
    try:
        try:
            returncode = child.wait(timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            child.stop()
            polled = child.poll()
            returncode = -9 if polled is None else polled
    finally:
        child.stop()
    return CompletedRun(
        command=child.command,
        returncode=returncode,
        duration_s=time.monotonic() - began,
        timed_out=timed_out,
        log_path=log_path,
    )


def capture(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout_s: float = 30.0,
) -> subprocess.CompletedProcess[str]:
    """Run a short, trusted helper command (npm, node --version) and capture its text output.

    Still in its own group, and still stopped on timeout; raises ProcessError if it cannot start.
    """
    try:
        popen = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=None if env is None else dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
    except OSError as exc:
        msg = f"cannot run {argv[0]!r}: {exc.strerror or exc}"
        raise ProcessError(msg) from exc
    try:
        out, err = popen.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        _signal_group(popen.pid, signal.SIGKILL)
        popen.communicate()
        msg = f"{shlex.join(argv)} took longer than {timeout_s:.0f} s"
        raise ProcessError(msg) from exc
    except BaseException:
        _signal_group(popen.pid, signal.SIGKILL)
        popen.communicate()
        raise
    return subprocess.CompletedProcess(list(argv), popen.returncode, out, err)


def tail(path: Path | None, max_lines: int = 20, max_chars: int = 4000) -> str:
    """The last lines of a log file (empty if there is none), for error reasons."""
    if path is None or not path.exists():
        return ""
    data = path.read_bytes()[-max_chars * 2 :].decode("utf-8", errors="replace")
    lines = data.splitlines()[-max_lines:]
    return "\n".join(lines)[-max_chars:]
