"""A Python client's imports done once, then one fork per scenario.

This file is a program run by the SDK's own interpreter, never imported by tiercheck:

    PYTHON warm_zygote.py SOCKET SCRIPT

It imports what SCRIPT imports at its top level (nothing of SCRIPT itself runs), then listens
on the Unix socket SOCKET (created under a temporary name and renamed into place, so that its
existence means "ready"). Each connection is one scenario's client, sent by `warm_launcher.py`:
the client's argv, working directory and environment, and its standard input, output and error
as descriptors. The zygote forks; the child takes the descriptors, the directory, the
environment and the argv, puts itself in a process group of its own and runs SCRIPT as
`__main__` exactly as `PYTHON SCRIPT ARGS` would, then exits as the interpreter would (non-daemon
threads joined, atexit handlers, streams flushed). The zygote answers the child's pid, then its
exit status; if the launcher goes away first, the child's group is killed.

What it imported is frozen (`gc.freeze`) before the first fork: a child's garbage collections
never walk those objects, so they never write to (and copy) the pages the children share with
the zygote. It stays single-threaded (fork safety), stops when its parent (tiercheck) is gone
or on SIGTERM, and kills what it forked when it stops. Stdlib only, Python 3.9 and later
(`os.pidfd_open`).
"""

from __future__ import annotations

import ast
import contextlib
import gc
import json
import os
import selectors
import signal
import socket
import struct
import sys
import traceback
from typing import Any

#: The launcher's request: a 4-byte length, then that many bytes of JSON.
_HEADER = struct.Struct("!I")
_MAX_REQUEST = 16 * 1024 * 1024


def preload(script: str) -> list[str]:
    """Run SCRIPT's top-level absolute imports in a scratch namespace; returns what failed.

    A failing import is left to the real run, which meets it as a cold start would."""
    sys.path[0] = os.path.dirname(os.path.realpath(script))
    with open(script, "rb") as f:
        tree = ast.parse(f.read(), script)
    failed = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            code = compile(ast.Module(body=[node], type_ignores=[]), script, "exec")
            try:
                exec(code, {"__name__": "__tiercheck_warm__"})  # noqa: S102 - SCRIPT's own import
            except BaseException:  # noqa: BLE001 - any failure is the real run's to meet
                failed.append(ast.unparse(node))
    return failed


def _recv_request(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    fds: list[int] = []
    size = _HEADER.size
    data, ancdata, _, _ = conn.recvmsg(size, socket.CMSG_SPACE(3 * 4))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            usable = len(payload) - len(payload) % 4
            fds.extend(struct.unpack(f"{usable // 4}i", payload[:usable]))
    while len(data) < size:
        more = conn.recv(size - len(data))
        if not more:
            raise ConnectionError("short header")
        data += more
    (length,) = _HEADER.unpack(data)
    if length > _MAX_REQUEST:
        raise ConnectionError("request too large")
    body = b""
    while len(body) < length:
        more = conn.recv(min(65536, length - len(body)))
        if not more:
            raise ConnectionError("short request")
        body += more
    return json.loads(body), fds


def _exit_code(exc: SystemExit) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    with contextlib.suppress(Exception):  # the interpreter ignores a failure here too
        sys.stderr.write(f"{code}\n")
    return 1


def _run_main(main_file: str) -> None:
    import builtins
    import importlib.machinery
    import types

    with open(main_file, "rb") as f:
        source = f.read()
    main = types.ModuleType("__main__")
    main.__file__ = main_file
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", main_file)
    main.__spec__ = None
    main.__cached__ = None  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    exec(compile(source, main_file, "exec"), main.__dict__)  # noqa: S102 - the client itself


def _print_from(main_file: str, exc: BaseException) -> None:
    """The traceback as `python SCRIPT` prints it: from SCRIPT's first frame (not the zygote's)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != main_file:
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__)


def _finish(code: int) -> None:
    """Leave as the interpreter leaves: join non-daemon threads, atexit, flush, exit."""
    import atexit
    import threading

    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        with contextlib.suppress(BaseException):  # exiting regardless
            shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - as the interpreter: a failed flush is exit 120
            if code == 0:
                code = 120
    os._exit(code)


def _child(request: dict[str, Any], fds: list[int]) -> None:
    """In the forked child: become the client, run SCRIPT, exit. Never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        for target, fd in zip((0, 1, 2), fds):  # noqa: B905 - Python 3.9 has no strict=
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGUSR1):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = list(request["argv"])
        # As `python SCRIPT` runs it: a fresh `__main__` whose file is the absolute path (3.9+).
        main_file = os.path.abspath(sys.argv[0])
        try:
            _run_main(main_file)
            code = 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        except BaseException as exc:  # noqa: BLE001 - printed as the interpreter prints it
            _print_from(main_file, exc)
            code = 1
    finally:
        _finish(code)


class _Zygote:
    def __init__(self, listener: socket.socket) -> None:
        self.listener = listener
        self.selector = selectors.DefaultSelector()
        self.selector.register(listener, selectors.EVENT_READ, ("accept",))
        #: pid → (pidfd, launcher connection or None once it has gone)
        self.children: dict[int, tuple[int, socket.socket | None]] = {}

    def _close_all_in_child(self) -> None:
        self.selector.close()
        self.listener.close()
        for pidfd, conn in self.children.values():
            os.close(pidfd)
            if conn is not None:
                conn.close()

    def accept(self) -> None:
        conn, _ = self.listener.accept()
        conn.settimeout(10)
        try:
            request, fds = _recv_request(conn)
        except (OSError, ValueError, ConnectionError):
            conn.close()
            return
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
        if pid == 0:
            conn.close()
            self._close_all_in_child()
            _child(request, fds)
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):  # also in the child: whichever runs first
            os.setpgid(pid, pid)
        pidfd = os.pidfd_open(pid)
        self.children[pid] = (pidfd, conn)
        self.selector.register(pidfd, selectors.EVENT_READ, ("exit", pid))
        self.selector.register(conn, selectors.EVENT_READ, ("launcher", pid))
        try:
            conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        except OSError:
            self.launcher_gone(pid)

    def launcher_gone(self, pid: int) -> None:
        pidfd, conn = self.children[pid]
        if conn is not None:
            self.selector.unregister(conn)
            conn.close()
            self.children[pid] = (pidfd, None)
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)

    def launcher_said(self, pid: int) -> None:
        conn = self.children[pid][1]
        if conn is None:
            return
        try:
            gone = not conn.recv(64)
        except OSError:
            gone = True
        if gone:
            self.launcher_gone(pid)

    def exited(self, pid: int) -> None:
        pidfd, conn = self.children.pop(pid)
        self.selector.unregister(pidfd)
        os.close(pidfd)
        _, status = os.waitpid(pid, 0)
        if conn is not None:
            self.selector.unregister(conn)
            try:
                conn.sendall(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode())
                conn.sendall(b"\n")
            except OSError:
                pass
            conn.close()

    def serve(self, parent: int) -> None:
        while os.getppid() == parent:
            for key, _ in self.selector.select(timeout=1.0):
                kind = key.data
                if kind[0] == "accept":
                    self.accept()
                elif kind[0] == "exit":
                    self.exited(kind[1])
                elif kind[1] in self.children:
                    self.launcher_said(kind[1])

    def stop(self) -> None:
        for pid in list(self.children):
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)


def main(argv: list[str]) -> int:
    """`warm_zygote.py SOCKET SCRIPT`: preload, then serve until the parent is gone."""
    if len(argv) != 3:
        sys.stderr.write("usage: warm_zygote.py SOCKET SCRIPT\n")
        return 2
    socket_path, script = argv[1], argv[2]
    parent = os.getppid()
    failed = preload(script)
    for line in failed:
        sys.stderr.write(f"warm start: left to the client: {line}\n")
    import threading

    if threading.active_count() != 1 or len(os.listdir("/proc/self/task")) != 1:
        sys.stderr.write("warm start: an import started a thread; forking is not safe\n")
        return 3
    # The imports live as long as every child: out of every collection, so a child's
    # collections leave the pages it shares with the zygote unwritten (not copied).
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    temp = f"{socket_path}.{os.getpid()}"
    listener.bind(temp)
    listener.listen(128)
    os.rename(temp, socket_path)
    zygote = _Zygote(listener)
    sys.stderr.write(f"warm start: ready, {len(sys.modules)} modules loaded\n")
    sys.stderr.flush()
    try:
        zygote.serve(parent)
    finally:
        zygote.stop()
        with contextlib.suppress(OSError):
            os.unlink(socket_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
